import { createHmac } from 'node:crypto';
import { composeId, type IdKind } from '@raffle/db';

/**
 * Every demo id, key, seed and address is derived from this string, so each load of the
 * dataset produces the same values. It is public on purpose: demo keys guard demo data only.
 */
const DEMO_SEED = 'raffle-platform demo dataset v1';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** As many pseudo-random bytes as asked for, all fixed by `label`: HMAC blocks chained by a counter. */
export function demoBytes(label: string, length: number): Buffer {
  const blocks: Buffer[] = [];
  for (let counter = 0; blocks.length * 32 < length; counter++) {
    blocks.push(createHmac('sha256', DEMO_SEED).update(`${label}#${counter}`).digest());
  }
  return Buffer.concat(blocks).subarray(0, length);
}

export const demoHex = (label: string, bytes: number): string => demoBytes(label, bytes).toString('hex');

/**
 * An id in the `newId` layout (time, then 80 "random" bits) whose random part comes from
 * `label`. Keeping the real creation time in front keeps demo ids sorted by arrival, which
 * keyset pages and the draw's canonical order rely on.
 */
export function demoId(kind: IdKind, label: string, at: Date): string {
  return composeId(kind, at.getTime(), demoBytes(`id:${kind}:${label}`, 10));
}

/** `length` base62 characters fixed by `label`, each equally likely (as in `generateApiKey`). */
export function demoBase62(label: string, length: number): string {
  let out = '';
  for (let round = 0; out.length < length; round++) {
    // 248 = 4 * 62: rejecting bytes above it keeps every character equally likely.
    for (const b of demoBytes(`base62:${label}:${round}`, length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

/** An EVM-style address: `0x` and 20 bytes of hex. */
export const demoEvmAddress = (label: string): string => `0x${demoHex(`evm:${label}`, 20)}`;

/** Shaped like a Solana or Bitcoin address (base58 characters); not a valid key, which the demo never needs. */
export const demoBase58Address = (label: string, length: number): string =>
  [...demoBytes(`base58:${label}`, length)].map((b) => BASE58[b % 58]).join('');
