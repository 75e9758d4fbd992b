import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StandardMerkleTree } from '@openzeppelin/merkle-tree';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as nodeDraw from '../src/weighted-draw.js';
import { drawEntries, localChain, localDrandProof, seedHex } from './support/draw-proofs.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Every module `src/index.ts` reaches through static and dynamic imports, with what each imports. */
function importGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pending = [entry];
  const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (graph.has(file)) continue;
    // The generated files are types only and import nothing; their descriptions quote code.
    const code = file.includes('/generated/') ? '' : readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    const specifiers = [...code.matchAll(IMPORT)].map((m) => m[1]!);
    graph.set(file, specifiers);
    for (const s of specifiers) if (s.startsWith('.')) pending.push(join(dirname(file), s.replace(/\.js$/, '.ts')));
  }
  return graph;
}

describe('the client path runs in a browser', () => {
  it('imports nothing but its own modules and @noble/curves and @noble/hashes (pure JavaScript: the beacon BLS signatures, the allowlist keccak-256): no node: builtin', () => {
    const graph = importGraph(join(SRC, 'index.ts'));
    expect(graph.size).toBeGreaterThan(20);
    const outside = [...graph].flatMap(([file, specifiers]) => specifiers.filter((s) => !s.startsWith('.')).map((s) => `${relative(SRC, file)} → ${s}`));
    expect(outside.sort()).toEqual([`${join('crypto', 'keccak.ts')} → @noble/hashes/sha3.js`, `${join('draw', 'beacon-signature.ts')} → @noble/curves/bls12-381.js`]);
    expect([...graph.keys()].some((f) => f.includes('/cli/'))).toBe(false);
  });

  // Two guarded lookups may name `process`: crypto/hash.ts (node:crypto) and http/client-identity.ts (the runtime's version).
  const GUARDED_PROCESS = new Set([join('crypto', 'hash.ts'), join('http', 'client-identity.ts')]);

  it('names no Node global (Buffer, process, require) outside the guarded lookups', () => {
    for (const file of importGraph(join(SRC, 'index.ts')).keys()) {
      if (file.includes('/generated/')) continue;
      const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      const where = relative(SRC, file);
      expect(code, where).not.toMatch(/\bBuffer\b|\brequire\(/);
      if (!GUARDED_PROCESS.has(where)) expect(code, where).not.toMatch(/\bprocess\b/);
    }
  });
});

describe('the draw without node:crypto (the portable hash)', () => {
  const original = process.getBuiltinModule;
  afterEach(() => {
    process.getBuiltinModule = original;
    vi.resetModules();
  });

  it('gives the same digest, keys, ranking and verdict as with node:crypto', async () => {
    // As in a browser: no getBuiltinModule, so crypto/hash.ts falls back to its own SHA-256.
    (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
    vi.resetModules();
    const hash = await import('../src/crypto/hash.js');
    expect(hash.hashImplementation).toBe('portable');
    const portableDraw = await import('../src/weighted-draw.js');
    const { verifyDraw } = await import('../src/verify-draw.js');

    const seed = new Uint8Array(randomBytes(32));
    const crockford = (n: number) => Array.from(randomBytes(n), (b) => '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[b % 32]).join('');
    const entries = Array.from({ length: 400 }, (_, i) => ({ id: `ent_${crockford(26)}`, userId: `usr_${crockford(26)}`, weight: String(1 + (i % 4)) }));
    expect(portableDraw.entriesDigest(entries)).toBe(nodeDraw.entriesDigest(entries));
    expect(portableDraw.drawCommitment(seed)).toBe(createHash('sha256').update(seed).digest('hex'));
    for (const entry of entries.slice(0, 50)) expect(portableDraw.drawKey(seed, entry)).toBe(nodeDraw.drawKey(seed, entry));
    const ranking = portableDraw.rankEntries(seed, entries).map((e) => e.id);
    expect(ranking).toEqual(nodeDraw.rankEntries(Buffer.from(seed), entries).map((e) => e.id));

    const proof = {
      algorithm: nodeDraw.DRAW_ALGORITHM,
      drawCommitment: nodeDraw.drawCommitment(seed),
      seed: Buffer.from(seed).toString('hex'),
      entriesDigest: nodeDraw.entriesDigest(entries),
      spots: 5,
      entries,
      winners: ranking.slice(0, 5).map((entryId, i) => ({ entryId, position: i + 1 })),
    };
    expect(verifyDraw(proof)).toEqual({ valid: true, problems: [], failures: [], recomputedWinners: ranking.slice(0, 5), predictableBy: 'seed_holder' });
  });

  it('verifies a beacon draw built with node:crypto: the mixed key, the randomness and the BLS check', async () => {
    const local = localChain();
    const proof = localDrandProof(local, seedHex('portable'), drawEntries(50, () => '1'), 3, '2025-06-15T19:50:41Z');
    (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
    vi.resetModules();
    expect((await import('../src/crypto/hash.js')).hashImplementation).toBe('portable');
    const { verifyDraw } = await import('../src/verify-draw.js');
    expect(verifyDraw(proof, { trustedChains: [local.chain] })).toMatchObject({ valid: true, failures: [], beacon: { trusted: 'custom' } });
    const tampered = { ...proof, beacon: { ...proof.beacon!, randomness: seedHex('other') } };
    expect(verifyDraw(tampered, { trustedChains: [local.chain] }).failures.map((f) => f.reason)).toContain('beacon_randomness_mismatch');
  });

  it('checks an allowlist proof from the index, as a browser would: same leaf hash and verdicts', async () => {
    const leaves: [string, string][] = Array.from({ length: 9 }, (_, i) => [`0x${randomBytes(20).toString('hex')}`, String(i + 1)]);
    const tree = StandardMerkleTree.of(leaves, ['address', 'uint256']);
    (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
    vi.resetModules();
    const { allowlistLeafHash, verifyAllowlistProof } = await import('../src/index.js');
    for (const [i, [address, quantity]] of tree.entries()) {
      expect(allowlistLeafHash(address, quantity)).toBe(tree.leafHash([address, quantity]));
      expect(verifyAllowlistProof({ root: tree.root, address, quantity, proof: tree.getProof(i) })).toBe(true);
      expect(verifyAllowlistProof({ root: tree.root, address, quantity: BigInt(quantity) + 1n, proof: tree.getProof(i) })).toBe(false);
    }
  });
});
