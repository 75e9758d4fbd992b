import { crc32 } from 'node:zlib';
import { API_KEY_PREFIXES, type ApiKeyKind } from './scopes.js';

/**
 * API keys: `svc_u_` (personal) or `svc_w_` (workspace), 30 random base62 characters, then
 * 6 base62 characters of the CRC32 of everything before them. The checksum lets a server
 * refuse a mistyped or made-up key without a database read, and lets secret scanners match
 * keys with few false positives (the GitHub token design).
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
const PREFIX_LENGTH = 6;
export const API_KEY_LENGTH = PREFIX_LENGTH + RANDOM_LENGTH + CHECKSUM_LENGTH;
/** How much of a key the API shows back (`prefix`): the type prefix and 6 random characters. */
export const API_KEY_DISPLAY_PREFIX_LENGTH = 12;
export const API_KEY_PATTERN = /^svc_[uw]_[0-9A-Za-z]{36}$/;

/** `body` is ASCII (both callers check its characters first): zlib's CRC of its UTF-8 bytes is that of its characters. */
function checksumOf(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  let out = '';
  const bytes = new Uint8Array(64);
  while (out.length < length) {
    crypto.getRandomValues(bytes);
    // 248 = 4 * 62: rejecting bytes above it keeps every character equally likely.
    for (const b of bytes) if (b < 248 && out.length < length) out += BASE62[b % 62];
  }
  return out;
}

export function generateApiKey(kind: ApiKeyKind): string {
  return buildApiKey(kind, randomBase62(RANDOM_LENGTH));
}

/** A key from given random characters: for demo data that must print the same keys on every load. */
export function buildApiKey(kind: ApiKeyKind, random: string): string {
  if (random.length !== RANDOM_LENGTH || !/^[0-9A-Za-z]+$/.test(random)) {
    throw new Error(`an API key needs ${RANDOM_LENGTH} base62 characters`);
  }
  const body = API_KEY_PREFIXES[kind] + random;
  return body + checksumOf(body);
}

export type ParsedApiKey = { kind: ApiKeyKind };

/** The key's kind when it is well formed and its checksum holds; `null` otherwise. */
export function parseApiKey(key: string): ParsedApiKey | null {
  if (key.length !== API_KEY_LENGTH || !API_KEY_PATTERN.test(key)) return null;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  if (checksumOf(body) !== key.slice(-CHECKSUM_LENGTH)) return null;
  return { kind: key.startsWith(API_KEY_PREFIXES.personal) ? 'personal' : 'workspace' };
}

export const apiKeyDisplayParts = (key: string) => ({
  prefix: key.slice(0, API_KEY_DISPLAY_PREFIX_LENGTH),
  lastFour: key.slice(-4),
});
