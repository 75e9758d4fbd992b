import { describe, expect, it } from 'vitest';
import { messageOriginAllowed, parseAllowedOrigins, suggestedOrigin, type AllowedOrigin } from '../src/wallets/allowed-origins.js';

const origins = (text: string) => parseAllowedOrigins(text) as AllowedOrigin[];

describe('SIWE_ALLOWED_ORIGINS', () => {
  it('reads origins with a port, the default port, or any port', () => {
    expect(origins('https://console.example.com, http://localhost:*,http://127.0.0.1:3003')).toEqual([
      { scheme: 'https', hostname: 'console.example.com', port: '443' },
      { scheme: 'http', hostname: 'localhost', port: '*' },
      { scheme: 'http', hostname: '127.0.0.1', port: '3003' },
    ]);
  });

  it('says what is wrong with an entry that is not an origin', () => {
    expect(parseAllowedOrigins('console.example.com')).toMatch(/not an origin/);
    expect(parseAllowedOrigins('https://console.example.com/path')).toMatch(/not an origin/);
    expect(parseAllowedOrigins('ftp://x.example')).toMatch(/not an origin/);
  });
});

describe("a message's domain and URI", () => {
  const allowed = origins('https://console.example.com,http://localhost:*');

  it("is the console's when the URI's origin is allowed and the domain is its authority", () => {
    expect(messageOriginAllowed(allowed, { domain: 'console.example.com', uri: 'https://console.example.com/wallets' })).toBe(true);
    expect(messageOriginAllowed(allowed, { domain: 'localhost:5173', uri: 'http://localhost:5173' })).toBe(true);
    expect(messageOriginAllowed(allowed, { domain: 'console.example.com', uri: 'https://console.example.com', scheme: 'https' })).toBe(true);
  });

  it('is refused for another site, a domain that is not the URI\'s, another scheme or port, or a URI that is not one', () => {
    expect(messageOriginAllowed(allowed, { domain: 'evil.example', uri: 'https://evil.example' })).toBe(false);
    expect(messageOriginAllowed(allowed, { domain: 'console.example.com', uri: 'https://evil.example' })).toBe(false);
    expect(messageOriginAllowed(allowed, { domain: 'console.example.com', uri: 'http://console.example.com' })).toBe(false);
    expect(messageOriginAllowed(allowed, { domain: 'console.example.com:8443', uri: 'https://console.example.com:8443' })).toBe(false);
    expect(messageOriginAllowed(allowed, { domain: 'console.example.com', uri: 'https://console.example.com', scheme: 'http' })).toBe(false);
    expect(messageOriginAllowed(allowed, { domain: 'console.example.com', uri: 'not a uri' })).toBe(false);
  });
});

describe('the origin a nonce suggests', () => {
  const allowed = origins('http://localhost:*,https://console.example.com');

  it("is the page's when allowed, else the first configured (a wildcard port read as the console's 3003)", () => {
    expect(suggestedOrigin(allowed, 'http://localhost:5173')?.origin).toBe('http://localhost:5173');
    expect(suggestedOrigin(allowed, 'https://evil.example')?.origin).toBe('http://localhost:3003');
    expect(suggestedOrigin(allowed, undefined)?.host).toBe('localhost:3003');
    expect(suggestedOrigin(origins('https://console.example.com'), undefined)?.host).toBe('console.example.com');
  });
});
