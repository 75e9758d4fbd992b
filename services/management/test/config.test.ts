import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_JWT_SECRET, loadConfig } from '../src/config.js';

/** The secrets production requires besides the JWT's. */
const PRODUCTION_SECRETS = { IP_HASH_SECRET: 'i'.repeat(32), CURSOR_SECRET: 'c'.repeat(32), SIWE_ALLOWED_ORIGINS: 'https://console.example.com' };

describe('config', () => {
  it('uses the development JWT secret and port 3001 outside production', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://x' });
    expect(config.JWT_SECRET).toBe(DEV_JWT_SECRET);
    expect(config.PORT).toBe(3001);
    expect(config.MAX_ACTIVE_KEYS_PER_USER).toBe(50);
    expect(config.JWT_CLOCK_TOLERANCE_SECONDS).toBe(5);
  });
  it('requires JWT_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x' })).toThrow(ConfigError);
    expect(loadConfig({ ...PRODUCTION_SECRETS, NODE_ENV: 'production', DATABASE_URL: 'postgres://x', JWT_SECRET: 'p'.repeat(40) }).JWT_SECRET).toBe('p'.repeat(40));
  });
  it('requires IP_HASH_SECRET and CURSOR_SECRET in production', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://x', JWT_SECRET: 'p'.repeat(40) };
    expect(() => loadConfig({ ...production, CURSOR_SECRET: 'c'.repeat(32) })).toThrow(/IP_HASH_SECRET/);
    expect(() => loadConfig({ ...production, IP_HASH_SECRET: 'i'.repeat(32) })).toThrow(/CURSOR_SECRET/);
  });
  it("requires SIWE_ALLOWED_ORIGINS in production: the default's localhost origins are development's", () => {
    const { SIWE_ALLOWED_ORIGINS: _set, ...withoutOrigins } = PRODUCTION_SECRETS;
    const production = { ...withoutOrigins, NODE_ENV: 'production', DATABASE_URL: 'postgres://x', JWT_SECRET: 'p'.repeat(40) };
    expect(() => loadConfig(production)).toThrow(/SIWE_ALLOWED_ORIGINS: must be set in production/);
    expect(() => loadConfig({ ...production, SIWE_ALLOWED_ORIGINS: ' ' })).toThrow(/SIWE_ALLOWED_ORIGINS/);
    expect(loadConfig({ ...production, SIWE_ALLOWED_ORIGINS: 'https://console.example.com' }).SIWE_ALLOWED_ORIGINS).toBe('https://console.example.com');
    // Outside production the default stays, so `pnpm start` and the tests need no setup.
    expect(loadConfig({ DATABASE_URL: 'postgres://x' }).SIWE_ALLOWED_ORIGINS).toBe('http://localhost:*,http://127.0.0.1:*');
  });
  it('refuses a short secret without echoing it', () => {
    try {
      loadConfig({ DATABASE_URL: 'postgres://x', JWT_SECRET: 'short-secret' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toContain('JWT_SECRET');
      expect((error as Error).message).not.toContain('short-secret');
    }
  });
  it('reads JWT_JWKS_URL and its cache TTL (300 s by default)', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://x', JWT_JWKS_URL: 'http://127.0.0.1:9000/jwks.json' });
    expect(config.JWT_JWKS_URL).toBe('http://127.0.0.1:9000/jwks.json');
    expect(config.JWT_JWKS_CACHE_TTL_SECONDS).toBe(300);
    expect(loadConfig({ DATABASE_URL: 'postgres://x' }).JWT_JWKS_URL).toBeUndefined();
  });
  it('with JWT_JWKS_URL, production needs no JWT_SECRET but an https JWKS', () => {
    const production = { ...PRODUCTION_SECRETS, NODE_ENV: 'production', DATABASE_URL: 'postgres://x' };
    expect(loadConfig({ ...production, JWT_JWKS_URL: 'https://login.example/jwks.json' }).JWT_JWKS_URL).toBe('https://login.example/jwks.json');
    expect(() => loadConfig({ ...production, JWT_JWKS_URL: 'http://login.example/jwks.json' })).toThrow(/JWT_JWKS_URL/);
  });
  it('refuses a JWT_JWKS_URL that is not an http(s) URL', () => {
    for (const value of ['not a url', 'file:///etc/jwks.json', 'ftp://example.com/jwks']) {
      expect(() => loadConfig({ DATABASE_URL: 'postgres://x', JWT_JWKS_URL: value })).toThrow(/JWT_JWKS_URL/);
    }
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x', JWT_JWKS_CACHE_TTL_SECONDS: '0' })).toThrow(/JWT_JWKS_CACHE_TTL_SECONDS/);
  });

  describe('Discord and X connections', () => {
    const production = { ...PRODUCTION_SECRETS, NODE_ENV: 'production', DATABASE_URL: 'postgres://x', JWT_SECRET: 'p'.repeat(40) };
    const discord = { DISCORD_CLIENT_ID: '1234567890', DISCORD_CLIENT_SECRET: 'discord-client-secret-value' };

    it('offers no provider by default, and production needs nothing of them then', () => {
      const config = loadConfig(production);
      expect(config.DISCORD_CLIENT_ID).toBeUndefined();
      expect(config.DISCORD_API_BASE_URL).toBe('https://discord.com/api');
      expect(config.X_WEB_BASE_URL).toBe('https://x.com');
    });

    it('a client id needs its secret, and the other way round, without echoing either', () => {
      expect(() => loadConfig({ DATABASE_URL: 'postgres://x', DISCORD_CLIENT_ID: '1234567890' })).toThrow(/DISCORD_CLIENT_SECRET: must be set with DISCORD_CLIENT_ID/);
      try {
        loadConfig({ DATABASE_URL: 'postgres://x', X_CLIENT_SECRET: 'x-client-secret-value' });
        expect.unreachable();
      } catch (error) {
        expect((error as Error).message).toMatch(/X_CLIENT_ID: must be set with X_CLIENT_SECRET/);
        expect((error as Error).message).not.toContain('x-client-secret-value');
      }
    });

    it('production with a provider needs its own CONNECTION_TOKEN_KEY and https for the console and the provider', () => {
      expect(() => loadConfig({ ...production, ...discord, CONNECTION_REDIRECT_BASE_URL: 'https://console.example.com' })).toThrow(/CONNECTION_TOKEN_KEY: must be set in production/);
      const keyed = { ...production, ...discord, CONNECTION_TOKEN_KEY: 'k'.repeat(44) };
      expect(() => loadConfig(keyed)).toThrow(/CONNECTION_REDIRECT_BASE_URL: must be an https URL in production/);
      expect(() => loadConfig({ ...keyed, CONNECTION_REDIRECT_BASE_URL: 'https://console.example.com', DISCORD_API_BASE_URL: 'http://discord.internal' })).toThrow(/DISCORD_API_BASE_URL/);
      expect(loadConfig({ ...keyed, CONNECTION_REDIRECT_BASE_URL: 'https://console.example.com' }).DISCORD_CLIENT_ID).toBe('1234567890');
    });

    it('refuses a short CONNECTION_TOKEN_KEY and a base URL that is not http(s)', () => {
      expect(() => loadConfig({ DATABASE_URL: 'postgres://x', CONNECTION_TOKEN_KEY: 'too-short' })).toThrow(/CONNECTION_TOKEN_KEY/);
      expect(() => loadConfig({ DATABASE_URL: 'postgres://x', X_API_BASE_URL: 'ftp://api.x.com' })).toThrow(/X_API_BASE_URL: must be an http\(s\) URL/);
    });
  });
});
