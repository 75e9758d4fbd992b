import { describe, expect, it } from 'vitest';
import { ConfigError, DEV_JWT_SECRET, loadConfig } from '../src/config.js';

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
    expect(loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x', JWT_SECRET: 'p'.repeat(40) }).JWT_SECRET).toBe('p'.repeat(40));
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
});
