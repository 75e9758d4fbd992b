import { createHash, createHmac } from 'node:crypto';

/**
 * The SDK's `drawKey` (HMAC-SHA256(seed, entry id), its first 8 bytes as u in (0, 1), then
 * ln(u) / weight), specialised for ranking a million entries in one process.
 *
 * Why not node:crypto per entry: `createHmac` (or `hash.copy()` of a precomputed pad state) costs
 * a few microseconds of object set-up per call, far more than the two SHA-256 compressions an
 * HMAC of a 30-byte id needs. Here the key's inner and outer pad states are compressed once, and
 * each entry costs exactly two compressions on preallocated words, reading the id straight from
 * the bytes COPY delivered (no string per entry). An id longer than 55 bytes does not fit one
 * block and takes node:crypto's HMAC instead. The result is bit-identical to the SDK's drawKey
 * (packages/domain/test/draw-key-hasher.test.ts checks it on random ids, seeds and weights).
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const INITIAL_STATE = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

/** The HMAC block size; an id up to 55 bytes leaves room for the 0x80 byte and the 8-byte length. */
const BLOCK = 64;
const ONE_BLOCK_MAX = BLOCK - 9;
/** 2^64 + 1, as the SDK divides by it: u = (head + 1) / (2^64 + 1). */
const TWO_POW_64_PLUS_1 = Number(2n ** 64n + 1n);

/** One SHA-256 compression of the block in `w[0..15]` from `state` into `out` (w is clobbered). */
function compress(w: Int32Array, state: Int32Array, out: Int32Array): void {
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0;
  }
  let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!, e = state[4]!, f = state[5]!, g = state[6]!, h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  out[0] = (state[0]! + a) | 0;
  out[1] = (state[1]! + b) | 0;
  out[2] = (state[2]! + c) | 0;
  out[3] = (state[3]! + d) | 0;
  out[4] = (state[4]! + e) | 0;
  out[5] = (state[5]! + f) | 0;
  out[6] = (state[6]! + g) | 0;
  out[7] = (state[7]! + h) | 0;
}

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
  const key = seed.length > BLOCK ? createHash('sha256').update(seed).digest() : seed;
  const w = new Int32Array(64);
  const inner = padState(w, key, 0x36);
  const outer = padState(w, key, 0x5c);
  const innerDigest = new Int32Array(8);
  const mac = new Int32Array(8);
  const slowSeed = Buffer.from(seed);

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
      const digest = createHmac('sha256', slowSeed).update(bytes.subarray(start, end)).digest();
      hi = digest.readUInt32BE(0);
      lo = digest.readUInt32BE(4);
    }
    // hi·2^32 is exact and lo + 1 ≤ 2^32 is exact, so this one addition rounds (to nearest, ties
    // to even) exactly as the SDK's Number(head + 1n) does: the same u, without a BigInt.
    const u = (hi * 4294967296 + (lo + 1)) / TWO_POW_64_PLUS_1;
    return Math.log(u) / weight;
  };
}
