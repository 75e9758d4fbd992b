import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '../errors.js';

/** Signs a list's last sort key into an opaque cursor, and reads one back. */
export type CursorCodec = {
  encode(binding: string, key: unknown): string;
  /** The key the cursor carries, or 400 INVALID_CURSOR; `isKey` checks its shape once the signature holds. */
  decode<K>(binding: string, cursor: string, isKey: (key: unknown) => key is K): K;
};

/**
 * What a list answers to a cursor it did not issue. The data plane's API and the dashboard were
 * published with different wordings; each service's codec keeps its own.
 */
export const CURSOR_REFUSALS = {
  api: 'cursor is not a cursor this endpoint issued; start again without it',
  dashboard: 'cursor is not one this list issued; start again without it',
} as const;

const SIGNATURE_BYTES = 16;

/**
 * Opaque keyset cursors: base64url(JSON key) + "." + a truncated HMAC over the list's binding
 * (see binding.ts) and the key. An edited cursor, or one replayed on another list or filter,
 * fails the signature like a forged one. See docs/decisions/0004-cursors.md.
 */
export function createCursorCodec(secret: string, refusal: keyof typeof CURSOR_REFUSALS): CursorCodec {
  const message = CURSOR_REFUSALS[refusal];
  const sign = (binding: string, payload: string) =>
    createHmac('sha256', secret).update(binding).update('\n').update(payload).digest().subarray(0, SIGNATURE_BYTES);

  /** The key a cursor carries when its signature holds for this binding; undefined otherwise. */
  function open(binding: string, cursor: string): unknown {
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
  }

  return {
    encode(binding, key) {
      const payload = Buffer.from(JSON.stringify(key)).toString('base64url');
      return `${payload}.${sign(binding, payload).toString('base64url')}`;
    },
    decode(binding, cursor, isKey) {
      const key = open(binding, cursor);
      if (key === undefined || !isKey(key)) throw new DomainError('INVALID_CURSOR', message);
      return key;
    },
  };
}
