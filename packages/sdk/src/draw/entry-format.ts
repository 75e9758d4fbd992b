import type { DrawEntry } from '../weighted-draw.js';

/**
 * The exact formats of a draw entry's fields (docs/decisions/0021-unambiguous-draw-proofs.md).
 * None of them can hold `:` or a newline, so the canonical line `id:userId:weight\n` reads back
 * one way only: two different entry lists cannot hash to the same digest. The server refuses to
 * draw an entry outside them, and the verifier refuses a proof that has one.
 */

/** Ids are `<prefix>_` and 26 Crockford base32 characters (packages/db/src/ids.ts). */
export const ENTRY_ID_FORMAT = /^ent_[0-9A-HJKMNP-TV-Z]{26}$/;
export const USER_ID_FORMAT = /^usr_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * A positive decimal as Postgres prints the entries' numeric(20,6) weight with `trim_scale`: at
 * most 14 whole digits without leading zeros, at most 6 decimals without trailing zeros, so each
 * weight has one spelling. Largest 99999999999999.999999, smallest 0.000001; no sign, exponent,
 * hex, spaces, `Infinity` or `NaN`.
 */
export const WEIGHT_FORMAT = /^(?:[1-9][0-9]{0,13}(?:\.[0-9]{0,5}[1-9])?|0\.[0-9]{0,5}[1-9])$/;

export type DrawEntryField = 'id' | 'userId' | 'weight';

/** The first field of `entry` outside its format, or null when all three hold. */
export function malformedDrawEntryField(entry: DrawEntry): DrawEntryField | null {
  if (!ENTRY_ID_FORMAT.test(entry.id)) return 'id';
  if (!USER_ID_FORMAT.test(entry.userId)) return 'userId';
  if (!WEIGHT_FORMAT.test(entry.weight)) return 'weight';
  return null;
}
