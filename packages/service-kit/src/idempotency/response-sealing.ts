import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const SEALED_PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Stored idempotent answers that must not sit in the database in plain text: a created API key's
 * plaintext or a new webhook endpoint's signing secret, shown once (decision 0020). The record
 * keeps only a digest of the client's Idempotency-Key, and the answer is AES-256-GCM sealed under
 * a key derived from both the server secret and the client's key, bound to the principal. Reading
 * it back needs the database row, the server secret and the key only the client sent, so a leaked
 * table or a leaked secret alone opens nothing, and a row copied to another principal fails its tag.
 */
export function createResponseSealing(serverSecret: string) {
  const keyFor = (idempotencyKey: string) =>
    Buffer.from(hkdfSync('sha256', idempotencyKey, serverSecret, 'raffle idempotent response v1', 32));

  /** What the record is stored under instead of the client's key. */
  const recordKey = (idempotencyKey: string) => createHash('sha256').update(idempotencyKey).digest('hex');

  function seal(principal: string, idempotencyKey: string, body: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', keyFor(idempotencyKey), iv).setAAD(Buffer.from(principal));
    const sealed = Buffer.concat([iv, cipher.update(body, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return SEALED_PREFIX + sealed.toString('base64');
  }

  /** Throws when the record was not sealed for this principal and key (or the server secret changed since). */
  function open(principal: string, idempotencyKey: string, stored: string): string {
    if (!stored.startsWith(SEALED_PREFIX)) throw new Error('idempotent response is not sealed');
    const sealed = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', keyFor(idempotencyKey), sealed.subarray(0, IV_BYTES)).setAAD(Buffer.from(principal));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  return { recordKey, seal, open };
}

export type ResponseSealing = ReturnType<typeof createResponseSealing>;
