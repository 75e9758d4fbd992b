import { utf8Encode } from './encoding.js';
import { hmacSha256Portable, sha256Portable } from './sha256-portable.js';

/**
 * SHA-256 and HMAC-SHA256 for every runtime. On Node (≥ 20.16, and Bun/Deno) node:crypto is
 * reached through `process.getBuiltinModule`, which is a plain function call rather than an
 * import: bundlers for the browser never see node:crypto, and the browser gets the portable
 * implementation. Both give identical bytes (test/crypto-hash.test.ts).
 */

/** The slice of node:crypto used here, declared locally so no type reaches for Node's either. */
type Digest = { update(data: Uint8Array | string): Digest; digest(): Uint8Array };
type NodeCrypto = { createHash(algorithm: 'sha256'): Digest; createHmac(algorithm: 'sha256', key: Uint8Array): Digest };

function loadNodeCrypto(): NodeCrypto | undefined {
  const nodeProcess = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    return nodeProcess?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
  } catch {
    return undefined;
  }
}

const nodeCrypto = loadNodeCrypto();

const fromNode = (view: Uint8Array): Uint8Array => new Uint8Array(view.buffer, view.byteOffset, view.byteLength);

/**
 * Data may be bytes or a string (hashed as UTF-8). The string form is for hot loops such as the
 * draw's one HMAC per entry id: node:crypto encodes it natively, which is about a quarter faster
 * than encoding it with TextEncoder first.
 */
export type HashInput = Uint8Array | string;

const bytesOf = (data: HashInput): Uint8Array => (typeof data === 'string' ? utf8Encode(data) : data);

export const sha256: (data: HashInput) => Uint8Array = nodeCrypto
  ? (data) => fromNode(nodeCrypto.createHash('sha256').update(data).digest())
  : (data) => sha256Portable(bytesOf(data));

export const hmacSha256: (key: Uint8Array, data: HashInput) => Uint8Array = nodeCrypto
  ? (key, data) => fromNode(nodeCrypto.createHmac('sha256', key).update(data).digest())
  : (key, data) => hmacSha256Portable(key, bytesOf(data));

/** Which implementation this runtime uses: for diagnostics and tests. */
export const hashImplementation: 'node:crypto' | 'portable' = nodeCrypto ? 'node:crypto' : 'portable';
