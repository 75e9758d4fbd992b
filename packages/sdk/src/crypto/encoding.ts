/**
 * Byte helpers that behave the same in Node and in browsers (no Buffer), for the draw algorithm
 * and for webhook signatures.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const utf8Encode = (text: string): Uint8Array => encoder.encode(text);

export const utf8Decode = (bytes: Uint8Array): string => decoder.decode(bytes);

const HEX_DIGITS = '0123456789abcdef';

/** Lowercase hex, two digits a byte. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += HEX_DIGITS[byte >> 4]! + HEX_DIGITS[byte & 15]!;
  return out;
}

/** Bytes from hex (either case); throws on an odd length or a non-hex digit, so a bad seed is never half-read. */
export function fromHex(hex: string): Uint8Array {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new TypeError('not a hex string');
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE = new Map([...BASE64_ALPHABET].map((char, value) => [char, value]));

/** Standard base64 with padding (RFC 4648 §4). */
export function base64Encode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    const triple = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += BASE64_ALPHABET[(triple >> 18) & 63]! + BASE64_ALPHABET[(triple >> 12) & 63]!;
    out += b === undefined ? '=' : BASE64_ALPHABET[(triple >> 6) & 63]!;
    out += c === undefined ? '=' : BASE64_ALPHABET[triple & 63]!;
  }
  return out;
}

/**
 * Bytes from standard base64. Padding is optional; anything else outside the alphabet (including
 * whitespace and the URL-safe `-`/`_`) makes it return `null` rather than guess, since a signature
 * that does not decode cleanly must not verify.
 */
export function base64Decode(text: string): Uint8Array | null {
  const body = text.replace(/={1,2}$/, '');
  if (body.length % 4 === 1) return null;
  if (text.length !== body.length && text.length % 4 !== 0) return null;
  const bytes = new Uint8Array(Math.floor((body.length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const char of body) {
    const value = BASE64_VALUE.get(char);
    if (value === undefined) return null;
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[index++] = (buffer >> bits) & 255;
    }
  }
  return bytes;
}

/** Compares two byte arrays in time that depends only on their lengths, so a signature check leaks nothing about where it differs. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}
