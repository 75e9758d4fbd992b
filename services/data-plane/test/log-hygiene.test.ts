import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { capturedLogLines, registerSecret } from './support/log-scan.js';
import { seedTenant, type Tenant } from './support/tenant.js';

/**
 * What the request log keeps of a request: its method, its path without the query string, and
 * its headers with every secret and every client address censored. A key sent as a query
 * parameter is refused and never logged; a client's raw IP is never logged.
 */

let db: TestDatabase;
let app: FastifyInstance;
let tenant: Tenant;

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await seedTenant(db.database);
  app = await buildTestApp(db.database, db.url);
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const linesSince = (mark: number) => capturedLogLines.slice(mark).join('\n');

describe('the request log', () => {
  it('drops the query string: a key or token sent there is refused and never logged', async () => {
    const mark = capturedLogLines.length;
    const jwtLike = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c3JfMSJ9.c2lnbmF0dXJl';
    for (const query of [`api_key=${tenant.keys.personal}`, `access_token=${jwtLike}`]) {
      const res = await app.inject({ url: `/api/v1/me?${query}` });
      expect(res.statusCode).toBe(401);
    }
    const logged = linesSince(mark);
    expect(logged).toContain('"url":"/api/v1/me"');
    expect(logged).not.toContain(tenant.keys.personal);
    expect(logged).not.toContain(jwtLike);
    expect(logged).not.toContain('api_key=');
  });

  it('keeps no client IP: neither the remote address nor forwarding headers', async () => {
    const mark = capturedLogLines.length;
    const res = await app.inject({
      url: '/api/v1/me',
      remoteAddress: '203.0.113.77',
      headers: {
        authorization: `Bearer ${tenant.keys.personal}`,
        'x-forwarded-for': '198.51.100.23, 192.0.2.4',
        'x-real-ip': '198.51.100.24',
        forwarded: 'for=198.51.100.25',
      },
    });
    expect(res.statusCode).toBe(200);
    const logged = linesSince(mark);
    expect(logged).toContain('"x-forwarded-for":"[redacted]"');
    for (const ip of ['203.0.113.77', '198.51.100.23', '192.0.2.4', '198.51.100.24', '198.51.100.25']) expect(logged).not.toContain(ip);
  });

  it("censors a linked account's OAuth values under every name they go by, wherever a log line carries them", () => {
    const mark = capturedLogLines.length;
    const values = Object.fromEntries(
      ['accessToken', 'refreshToken', 'codeVerifier', 'access_token', 'refresh_token', 'code_verifier', 'token'].map((name) => [name, registerSecret(`oauth-${name}-${randomBytes(12).toString('hex')}`)]),
    );
    app.log.info({ ...values, tokens: values, grant: { ...values } }, 'a line that carries OAuth values');
    const logged = linesSince(mark);
    expect(logged).toContain('"accessToken":"[redacted]"');
    for (const value of Object.values(values)) expect(logged).not.toContain(value);
  });

  it('logs at trace level in tests, so the rules above hold at every level', () => {
    expect(app.log.level).toBe('trace');
  });
});
