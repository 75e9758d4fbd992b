import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors.js';

/**
 * Opaque keyset cursors: base64url(JSON of the last row's sort key) + "." + a truncated
 * HMAC over the cursor's binding and payload. The binding names the route and its filters
 * (workspace, raffle, caller), so a cursor replayed on another route, workspace or user fails
 * the signature check exactly like a tampered one.
 */
const SIGNATURE_BYTES = 16;

export type CursorCodec = {
  encode: (binding: string, key: unknown) => string;
  /** The sort key, or INVALID_CURSOR. `isKey` checks the shape after the signature holds. */
  decode: <K>(binding: string, cursor: string, isKey: (value: unknown) => value is K) => K;
};

export function createCursorCodec(secret: string): CursorCodec {
  const sign = (binding: string, payload: string) =>
    createHmac('sha256', secret).update(binding).update('\n').update(payload).digest().subarray(0, SIGNATURE_BYTES);

  const invalid = () => new ApiError('INVALID_CURSOR', 'cursor is not a cursor this endpoint issued; start again without it');

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
      if (!isKey(key)) throw invalid();
      return key;
    },
  };
}

export const isString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
