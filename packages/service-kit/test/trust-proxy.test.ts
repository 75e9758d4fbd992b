import { describe, expect, it } from 'vitest';
import { ConfigError, trustProxyRule } from '../src/index.js';

describe('TRUST_PROXY, the one trust rule', () => {
  it('reads true and false as before', () => {
    expect(trustProxyRule('true')).toBe(true);
    expect(trustProxyRule('false')).toBe(false);
    expect(trustProxyRule('1')).toBe(true);
    expect(trustProxyRule('0')).toBe(false);
  });

  it('reads a comma-separated list of addresses and CIDRs, v4 and v6', () => {
    expect(trustProxyRule('172.28.0.10')).toEqual(['172.28.0.10']);
    expect(trustProxyRule('172.28.0.10, 10.0.0.0/8,fd00::/8')).toEqual(['172.28.0.10', '10.0.0.0/8', 'fd00::/8']);
  });

  it('refuses anything else as a config error that names the variable and not the value', () => {
    for (const value of ['yes', 'console', '10.0.0.0/33', '300.1.1.1', '10.0.0.1,', '::1/129', '10.0.0.0/8/1']) {
      expect(() => trustProxyRule(value), value).toThrow(ConfigError);
      expect(() => trustProxyRule(value), value).toThrow(/TRUST_PROXY: must be true, false or a comma-separated list/);
    }
  });
});

describe('the rule as the APIs apply it (Fastify trustProxy)', () => {
  it('believes X-Forwarded-For only from a listed peer, and then only its last address', async () => {
    const { default: Fastify } = await import('fastify');
    const app = Fastify({ trustProxy: trustProxyRule('172.28.0.10') });
    app.get('/ip', async (request) => ({ ip: request.ip }));
    try {
      const ipFrom = async (remoteAddress: string, forwardedFor: string) =>
        (await app.inject({ url: '/ip', remoteAddress, headers: { 'x-forwarded-for': forwardedFor } })).json<{ ip: string }>().ip;
      // The console (the listed peer) writes the visitor's address; a visitor's own claim before it is not believed.
      expect(await ipFrom('172.28.0.10', '198.51.100.1')).toBe('198.51.100.1');
      expect(await ipFrom('172.28.0.10', '6.6.6.6, 198.51.100.1')).toBe('198.51.100.1');
      // Anyone else reaching the API directly counts as their own address, whatever they claim.
      expect(await ipFrom('172.28.0.99', '198.51.100.1')).toBe('172.28.0.99');
    } finally {
      await app.close();
    }
  });
});
