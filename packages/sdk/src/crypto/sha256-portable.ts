/**
 * SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104) in plain JavaScript, for runtimes without
 * node:crypto (browsers). Synchronous on purpose: the draw ranks thousands of entries with one
 * HMAC each, and WebCrypto's subtle.digest is async only.
 */

import { compressSha256Block, SHA256_INITIAL_STATE } from './sha256-compress.js';

export function sha256Portable(data: Uint8Array): Uint8Array {
  // Message, a 0x80 byte, zero padding, then the bit length as a 64-bit big-endian integer.
  const blocks = Math.ceil((data.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bitLength = data.length * 8;
  view.setUint32(padded.length - 8, Math.floor(bitLength / 2 ** 32));
  view.setUint32(padded.length - 4, bitLength >>> 0);

  const h = new Int32Array(SHA256_INITIAL_STATE);
  const w = new Int32Array(64);
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getInt32(offset + t * 4);
    compressSha256Block(w, h, h);
  }
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  h.forEach((word, i) => out.setUint32(i * 4, word >>> 0));
  return digest;
}

const BLOCK_SIZE = 64;

export function hmacSha256Portable(key: Uint8Array, data: Uint8Array): Uint8Array {
  // A key longer than a block is hashed first; a shorter one is zero-padded to the block size.
  const blockKey = new Uint8Array(BLOCK_SIZE);
  blockKey.set(key.length > BLOCK_SIZE ? sha256Portable(key) : key);
  const inner = new Uint8Array(BLOCK_SIZE + data.length);
  const outer = new Uint8Array(BLOCK_SIZE + 32);
  for (let i = 0; i < BLOCK_SIZE; i++) {
    inner[i] = blockKey[i]! ^ 0x36;
    outer[i] = blockKey[i]! ^ 0x5c;
  }
  inner.set(data, BLOCK_SIZE);
  outer.set(sha256Portable(inner), BLOCK_SIZE);
  return sha256Portable(outer);
}
