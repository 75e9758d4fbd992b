import { createCursorSigner } from '@raffle/domain';
import { ApiError } from '../errors.js';

/**
 * The data plane's cursors: the shared signer (see @raffle/domain), bound to the route and its
 * filters (workspace, raffle, caller), so a cursor replayed on another route, workspace or user
 * fails exactly like a tampered one.
 */
export type CursorCodec = {
  encode: (binding: string, key: unknown) => string;
  /** The sort key, or INVALID_CURSOR. `isKey` checks the shape after the signature holds. */
  decode: <K>(binding: string, cursor: string, isKey: (value: unknown) => value is K) => K;
};

export function createCursorCodec(secret: string): CursorCodec {
  const signer = createCursorSigner(secret);
  return {
    encode: (binding, key) => signer.seal(binding, key),
    decode(binding, cursor, isKey) {
      const key = signer.open(binding, cursor);
      if (key === undefined || !isKey(key)) throw new ApiError('INVALID_CURSOR', 'cursor is not a cursor this endpoint issued; start again without it');
      return key;
    },
  };
}

export const isString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
