import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashImplementation, hmacSha256, sha256 } from '../src/crypto/hash.js';
import { hmacSha256Portable, sha256Portable } from '../src/crypto/sha256-portable.js';

const nodeSha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const nodeHmac = (key: Uint8Array, data: Uint8Array) => new Uint8Array(createHmac('sha256', key).update(data).digest());

/** Lengths around every padding edge of SHA-256 (55/56/64 bytes) and the HMAC block size. */
const EDGE_LENGTHS = [0, 1, 3, 31, 32, 54, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4096];

describe('portable SHA-256 and HMAC-SHA256 (the browser path)', () => {
  it('matches the FIPS 180-4 and RFC 4231 vectors', () => {
    const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
    expect(hex(sha256Portable(new Uint8Array()))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(sha256Portable(new TextEncoder().encode('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    // RFC 4231 test case 2: key "Jefe".
    expect(hex(hmacSha256Portable(new TextEncoder().encode('Jefe'), new TextEncoder().encode('what do ya want for nothing?')))).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('equals node:crypto at every padding edge', () => {
    for (const length of EDGE_LENGTHS) {
      const data = randomBytes(length);
      expect(sha256Portable(data), `sha256 of ${length} bytes`).toEqual(nodeSha256(data));
      for (const keyLength of [0, 1, 32, 63, 64, 65, 100, 200]) {
        const key = randomBytes(keyLength);
        expect(hmacSha256Portable(key, data), `hmac, ${keyLength}-byte key, ${length} bytes`).toEqual(nodeHmac(key, data));
      }
    }
  });

  it('equals node:crypto on 500 random inputs and keys, including empty and longer-than-a-block keys', () => {
    for (let i = 0; i < 500; i++) {
      const data = randomBytes(Math.floor(Math.random() * 300));
      const key = randomBytes(Math.floor(Math.random() * 150));
      expect(sha256Portable(data)).toEqual(nodeSha256(data));
      expect(hmacSha256Portable(key, data)).toEqual(nodeHmac(key, data));
    }
  });

  it('reads a subarray view at its own offset', () => {
    const whole = randomBytes(100);
    const view = whole.subarray(10, 80);
    expect(sha256Portable(view)).toEqual(nodeSha256(view));
    expect(hmacSha256Portable(whole.subarray(0, 70), view)).toEqual(nodeHmac(whole.subarray(0, 70), view));
  });
});

describe('sha256 / hmacSha256 as the SDK uses them', () => {
  it('hashes a string as its UTF-8 bytes, on both implementations', async () => {
    const { hmacSha256: viaNode, sha256: shaViaNode } = await import('../src/crypto/hash.js');
    const key = randomBytes(32);
    for (const text of ['', 'ent_01HZX', 'raffle · 抽選 · 🎟️', 'x'.repeat(200)]) {
      const bytes = new TextEncoder().encode(text);
      expect(viaNode(key, text)).toEqual(nodeHmac(key, bytes));
      expect(shaViaNode(text)).toEqual(nodeSha256(bytes));
      expect(hmacSha256Portable(key, bytes)).toEqual(viaNode(key, text));
    }
  });

  it('uses node:crypto on Node and gives plain Uint8Arrays equal to it', () => {
    expect(hashImplementation).toBe('node:crypto');
    const data = randomBytes(77);
    const key = randomBytes(90);
    const digest = sha256(data);
    expect(digest).toBeInstanceOf(Uint8Array);
    expect(digest).toEqual(nodeSha256(data));
    expect(hmacSha256(key, data)).toEqual(nodeHmac(key, data));
  });
});
