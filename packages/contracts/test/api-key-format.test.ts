import { describe, expect, it } from 'vitest';
import { API_KEY_LENGTH, apiKeyDisplayParts, buildApiKey, generateApiKey, parseApiKey } from '../src/api-key-format.js';

describe('API key format', () => {
  it('generates checksummed keys of both kinds that parse back to their kind', () => {
    for (const kind of ['personal', 'workspace'] as const) {
      const key = generateApiKey(kind);
      expect(key).toMatch(kind === 'personal' ? /^svc_u_[0-9A-Za-z]{36}$/ : /^svc_w_[0-9A-Za-z]{36}$/);
      expect(key.length).toBe(API_KEY_LENGTH);
      expect(parseApiKey(key)).toEqual({ kind });
    }
  });

  it('refuses every single-character corruption, truncation and extension', () => {
    const key = generateApiKey('workspace');
    for (let i = 6; i < key.length; i++) {
      const replacement = key[i] === 'a' ? 'b' : 'a';
      expect(parseApiKey(key.slice(0, i) + replacement + key.slice(i + 1)), `position ${i}`).toBeNull();
    }
    expect(parseApiKey(key.slice(0, -1))).toBeNull();
    expect(parseApiKey(`${key}0`)).toBeNull();
    expect(parseApiKey(key.replace('svc_w_', 'svc_u_'))).toBeNull();
    expect(parseApiKey('')).toBeNull();
  });

  it('builds the same key from the same random part, and exposes only prefix and last four', () => {
    const random = 'abcdefghijABCDEFGHIJ0123456789';
    expect(buildApiKey('personal', random)).toBe(buildApiKey('personal', random));
    expect(() => buildApiKey('personal', 'short')).toThrow();
    const key = buildApiKey('personal', random);
    expect(apiKeyDisplayParts(key)).toEqual({ prefix: key.slice(0, 12), lastFour: key.slice(-4) });
  });

  it('keeps the checksums of keys already issued (CRC-32 of the body, six base62 digits)', () => {
    expect(buildApiKey('personal', 'abcdefghijABCDEFGHIJ0123456789')).toBe('svc_u_abcdefghijABCDEFGHIJ012345678926BjJ9');
    expect(buildApiKey('workspace', 'z'.repeat(30))).toBe(`svc_w_${'z'.repeat(30)}3wSVLU`);
    expect(parseApiKey(`svc_w_${'0'.repeat(30)}1MPkt5`)).toEqual({ kind: 'workspace' });
  });

  it('draws random characters evenly enough to carry about 178 bits', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) for (const c of generateApiKey('personal').slice(6, 36)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = (2000 * 30) / 62;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.2);
  });
});
