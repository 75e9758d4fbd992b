import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64Decode, base64Encode, constantTimeEqual, fromHex, toHex, utf8Decode, utf8Encode } from '../src/crypto/encoding.js';

describe('byte encodings without Buffer', () => {
  it('round-trips hex and base64 against Buffer for lengths 0..70', () => {
    for (let length = 0; length <= 70; length++) {
      const bytes = new Uint8Array(randomBytes(length));
      const hex = Buffer.from(bytes).toString('hex');
      const base64 = Buffer.from(bytes).toString('base64');
      expect(toHex(bytes)).toBe(hex);
      expect(fromHex(hex)).toEqual(bytes);
      expect(fromHex(hex.toUpperCase())).toEqual(bytes);
      expect(base64Encode(bytes)).toBe(base64);
      expect(base64Decode(base64)).toEqual(bytes);
      expect(base64Decode(base64.replace(/=+$/, ''))).toEqual(bytes);
    }
  });

  it('refuses malformed hex and base64 rather than guessing', () => {
    expect(() => fromHex('abc')).toThrow(TypeError);
    expect(() => fromHex('zz')).toThrow(TypeError);
    for (const bad of ['a', 'ab=c', 'ab-_', 'ab cd', 'abc==', 'ab\n==', '====']) expect(base64Decode(bad), bad).toBeNull();
  });

  it('encodes UTF-8 like Buffer, including astral characters', () => {
    const text = 'raffle · 抽選 · 🎟️';
    expect(utf8Encode(text)).toEqual(new Uint8Array(Buffer.from(text, 'utf8')));
    expect(utf8Decode(utf8Encode(text))).toBe(text);
  });

  it('compares byte arrays by content and length', () => {
    const a = new Uint8Array([1, 2, 3]);
    expect(constantTimeEqual(a, new Uint8Array([1, 2, 3]))).toBe(true);
    expect(constantTimeEqual(a, new Uint8Array([1, 2, 4]))).toBe(false);
    expect(constantTimeEqual(a, new Uint8Array([1, 2]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array(), new Uint8Array())).toBe(true);
  });
});
