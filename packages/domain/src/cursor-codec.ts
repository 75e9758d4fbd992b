import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from './errors.js';

/** A list's sort key: the last row's id, or (position, id) and the like. */
export type CursorKey = readonly (string | number)[];

export type CursorCodec = {
  encode(binding: string, key: CursorKey): string;
  /** The key the cursor carries, or 400 INVALID_CURSOR; `isKey` checks its shape once the signature holds. */
  decode<K extends CursorKey>(binding: string, cursor: string, isKey: (key: readonly unknown[]) => key is K): K;
};

const SIGNATURE_BYTES = 16;

/**
 * Opaque keyset cursors: base64url(JSON key) + "." + a truncated HMAC over the list's binding
 * (which route or list, of which workspace, raffle or caller, under which filter) and the key. An
 * edited cursor, or one replayed on another list or filter, fails the signature like a forged one.
 * Both services' cursor codecs are this signer with their own error and key checks.
 */
export function createCursorSigner(secret: string) {
  const sign = (binding: string, payload: string) =>
    createHmac('sha256', secret).update(binding).update('\n').update(payload).digest().subarray(0, SIGNATURE_BYTES);
  return {
    seal(binding: string, key: unknown): string {
      const payload = Buffer.from(JSON.stringify(key)).toString('base64url');
      return `${payload}.${sign(binding, payload).toString('base64url')}`;
    },
    /** The key a cursor carries when its signature holds for this binding; undefined otherwise. */
    open(binding: string, cursor: string): unknown {
      const dot = cursor.indexOf('.');
      if (dot <= 0 || dot !== cursor.lastIndexOf('.')) return undefined;
      const payload = cursor.slice(0, dot);
      const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
      const expected = sign(binding, payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      try {
        return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
      } catch {
        return undefined;
      }
    },
  };
}

/** The dashboard lists' cursors: the signer, with array keys and 400 INVALID_CURSOR. */
export function createCursorCodec(secret: string): CursorCodec {
  const signer = createCursorSigner(secret);
  return {
    encode: (binding, key) => signer.seal(binding, key),
    decode(binding, cursor, isKey) {
      const key = signer.open(binding, cursor);
      if (!Array.isArray(key) || !isKey(key)) throw new DomainError('INVALID_CURSOR', 'cursor is not one this list issued; start again without it');
      return key;
    },
  };
}
