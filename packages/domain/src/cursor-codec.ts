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
 * Opaque keyset cursors for the dashboard lists: base64url(JSON key) + "." + a truncated HMAC over
 * the list's binding (which list, of which workspace or raffle, under which filter) and the key.
 * An edited cursor, or one replayed on another list or filter, fails the signature like a forged one.
 */
export function createCursorCodec(secret: string): CursorCodec {
  const sign = (binding: string, payload: string) =>
    createHmac('sha256', secret).update(binding).update('\n').update(payload).digest().subarray(0, SIGNATURE_BYTES);
  const invalid = () => new DomainError('INVALID_CURSOR', 'cursor is not one this list issued; start again without it');
  return {
    encode(binding, key) {
      const payload = Buffer.from(JSON.stringify(key)).toString('base64url');
      return `${payload}.${sign(binding, payload).toString('base64url')}`;
    },
    decode(binding, cursor, isKey) {
      const dot = cursor.indexOf('.');
      if (dot <= 0 || dot !== cursor.lastIndexOf('.')) throw invalid();
      const payload = cursor.slice(0, dot);
      const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
      const expected = sign(binding, payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
      let key: unknown;
      try {
        key = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        throw invalid();
      }
      if (!Array.isArray(key) || !isKey(key)) throw invalid();
      return key;
    },
  };
}
