import { compressSha256Block as compress, SHA256_INITIAL_STATE as INITIAL_STATE } from './crypto/sha256-compress.js';
import { hmacSha256, sha256 } from './crypto/hash.js';

/**
 * `drawKey` (HMAC-SHA256(seed, entry id), its first 8 bytes as u in (0, 1), then ln(u) / weight),
 * specialised for ranking a million entries in one process: the platform's draw ranks with it.
 *
 * Why not node:crypto per entry: `createHmac` (or `hash.copy()` of a precomputed pad state) costs
 * a few microseconds of object set-up per call, far more than the two SHA-256 compressions an
 * HMAC of a 30-byte id needs. Here the key's inner and outer pad states are compressed once, and
 * each entry costs exactly two compressions on preallocated words, reading the id straight from
 * the bytes given (the draw passes what COPY delivered: no string per entry). An id longer than 55
 * bytes does not fit one block and takes the general HMAC instead. The result is bit-identical to
 * drawKey (test/draw-key-hasher.test.ts checks it on random ids, seeds and weights).
 */

/** The HMAC block size; an id up to 55 bytes leaves room for the 0x80 byte and the 8-byte length. */
const BLOCK = 64;
const ONE_BLOCK_MAX = BLOCK - 9;
/** 2^64 + 1, as drawKey divides by it: u = (head + 1) / (2^64 + 1). */
const TWO_POW_64_PLUS_1 = Number(2n ** 64n + 1n);

/** The SHA-256 state after the key block XOR `pad` (RFC 2104's ipad 0x36 / opad 0x5c). */
function padState(w: Int32Array, key: Uint8Array, pad: number): Int32Array {
  const block = new Uint8Array(BLOCK);
  block.set(key);
  for (let i = 0; i < 16; i++) {
    w[i] = ((block[4 * i]! ^ pad) << 24) | ((block[4 * i + 1]! ^ pad) << 16) | ((block[4 * i + 2]! ^ pad) << 8) | (block[4 * i + 3]! ^ pad);
  }
  const state = new Int32Array(8);
  compress(w, INITIAL_STATE, state);
  return state;
}

/** Computes draw keys for one seed: `key(bytes, start, end, weight)` of the id `bytes[start, end)`. */
export type DrawKeyHasher = (bytes: Uint8Array, start: number, end: number, weight: number) => number;

/** A hasher for `seed` (the draw's ranking key, raw or beacon-mixed). */
export function drawKeyHasher(seed: Uint8Array): DrawKeyHasher {
  // HMAC hashes a key longer than the block first (RFC 2104); seeds are 32 bytes, this is for completeness.
  const key = seed.length > BLOCK ? sha256(seed) : seed;
  const w = new Int32Array(64);
  const inner = padState(w, key, 0x36);
  const outer = padState(w, key, 0x5c);
  const innerDigest = new Int32Array(8);
  const mac = new Int32Array(8);

  return (bytes, start, end, weight) => {
    const length = end - start;
    let hi: number;
    let lo: number;
    if (length <= ONE_BLOCK_MAX) {
      w.fill(0, 0, 16);
      for (let i = 0; i < length; i++) w[i >> 2] = w[i >> 2]! | (bytes[start + i]! << (24 - 8 * (i & 3)));
      w[length >> 2] = w[length >> 2]! | (0x80 << (24 - 8 * (length & 3)));
      w[15] = (BLOCK + length) * 8;
      compress(w, inner, innerDigest);
      w.set(innerDigest);
      w[8] = 0x80000000;
      w.fill(0, 9, 15);
      w[15] = (BLOCK + 32) * 8;
      compress(w, outer, mac);
      hi = mac[0]! >>> 0;
      lo = mac[1]! >>> 0;
    } else {
      const digest = hmacSha256(seed, bytes.subarray(start, end));
      hi = ((digest[0]! << 24) | (digest[1]! << 16) | (digest[2]! << 8) | digest[3]!) >>> 0;
      lo = ((digest[4]! << 24) | (digest[5]! << 16) | (digest[6]! << 8) | digest[7]!) >>> 0;
    }
    // hi·2^32 is exact and lo + 1 ≤ 2^32 is exact, so this one addition rounds (to nearest, ties
    // to even) exactly as the SDK's Number(head + 1n) does: the same u, without a BigInt.
    const u = (hi * 4294967296 + (lo + 1)) / TWO_POW_64_PLUS_1;
    return Math.log(u) / weight;
  };
}
