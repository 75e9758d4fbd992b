import { createHmac } from 'node:crypto';
import { insertApiKey } from '@raffle/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp, TEST_JWT_SECRET } from './support/app.js';
import { expectManagementError } from './support/contract.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { claimsFor, hs256, rs256, rsaPublicPem, tokenFor, unsignedNone } from './support/jwt.js';
import { registerSecret } from './support/log-scan.js';
import { seedTenant, type Tenant } from './support/tenant.js';

let testDb: TestDatabase;
let app: ManagementApp;
let strictApp: FastifyInstance;
let tenant: Tenant;
let personalKey: string;
let workspaceKey: string;

const ISSUER = 'https://dashboard.example.test';
const AUDIENCE = 'raffle-management';

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url);
  strictApp = await buildTestApp(testDb.database, testDb.url, { JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE });
  tenant = await seedTenant(testDb.database);
  personalKey = registerSecret(
    (await insertApiKey(testDb.database.db, { kind: 'personal', userId: tenant.owner.id, name: 'p', scopes: ['profile:read'] })).apiKey,
  );
  workspaceKey = registerSecret(
    (
      await insertApiKey(testDb.database.db, {
        kind: 'workspace',
        userId: tenant.owner.id,
        workspaceId: tenant.workspace.id,
        name: 'w',
        scopes: ['raffles:read'],
      })
    ).apiKey,
  );
});

afterAll(async () => {
  await app?.close();
  await strictApp?.close();
  await testDb?.drop();
});

const nowSeconds = () => Math.floor(Date.now() / 1000);
const DAY = 86_400;
const YEAR = 365 * DAY;
/** 9999-12-31T23:59:59Z */
const YEAR_9999 = 253_402_300_799;
const capabilities = (target: FastifyInstance, authorization?: string) =>
  target.inject({ method: 'GET', url: '/api/developer/capabilities', headers: authorization ? { authorization } : {} });

describe('dashboard JWT authentication', () => {
  it('accepts a valid HS256 token of an existing user', async () => {
    const res = await capabilities(app, `Bearer ${tokenFor(tenant.owner.id)}`);
    expect(res.statusCode).toBe(200);
  });

  const attacks: Array<[string, () => string | undefined]> = [
    ['no Authorization header', () => undefined],
    ['a non-Bearer scheme', () => `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['an empty bearer', () => 'Bearer '],
    ['garbage', () => 'Bearer not-a-jwt'],
    ['three garbage segments', () => 'Bearer aaa.bbb.ccc'],
    ['a wrong signature', () => `Bearer ${hs256(claimsFor(tenant.owner.id), 'another-secret-0123456789-0123456789')}`],
    ['a tampered payload', () => {
      const [h, , s] = tokenFor(tenant.owner.id).split('.');
      return `Bearer ${h}.${Buffer.from(JSON.stringify(claimsFor(tenant.outsider.id))).toString('base64url')}.${s}`;
    }],
    ['alg none', () => `Bearer ${unsignedNone(claimsFor(tenant.owner.id))}`],
    ['alg none with the HS signature kept', () => {
      const good = tokenFor(tenant.owner.id).split('.');
      const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      return `Bearer ${header}.${good[1]}.${good[2]}`;
    }],
    ['RS256 signed with an RSA key', () => `Bearer ${rs256(claimsFor(tenant.owner.id))}`],
    ['HS256 with the RSA public key as the HMAC secret', () => `Bearer ${hs256(claimsFor(tenant.owner.id), rsaPublicPem)}`],
    ['HS512 with the right secret', () =>
      `Bearer ${(() => {
        const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
        const unsigned = `${b64({ alg: 'HS512', typ: 'JWT' })}.${b64(claimsFor(tenant.owner.id))}`;
        return `${unsigned}.${createHmac('sha512', TEST_JWT_SECRET).update(unsigned).digest('base64url')}`;
      })()}`],
    ['expired beyond the 5 s tolerance', () => `Bearer ${hs256(claimsFor(tenant.owner.id, { iat: nowSeconds() - 600, exp: nowSeconds() - 30 }))}`],
    ['no exp', () => `Bearer ${hs256({ sub: tenant.owner.id, iat: nowSeconds() })}`],
    ['no sub', () => `Bearer ${hs256({ iat: nowSeconds(), exp: nowSeconds() + 600 })}`],
    ['a numeric sub', () => `Bearer ${hs256(claimsFor(tenant.owner.id, { sub: 42 }))}`],
    ['an unknown user', () => `Bearer ${tokenFor('usr_01JZZZZZZZZZZZZZZZZZZZZZZZ')}`],
    ['not yet valid (nbf in the future)', () => `Bearer ${hs256(claimsFor(tenant.owner.id, { nbf: nowSeconds() + 600 }))}`],
    ['exp in year 9999', () => `Bearer ${hs256(claimsFor(tenant.owner.id, { exp: YEAR_9999 }))}`],
    ['exp in year 9999 and no iat', () => `Bearer ${hs256({ sub: tenant.owner.id, exp: YEAR_9999 })}`],
    ['a lifetime one minute over JWT_MAX_LIFETIME_SECONDS', () => `Bearer ${hs256(claimsFor(tenant.owner.id, { exp: nowSeconds() + DAY + 60 }))}`],
    ['iat a year ahead', () => `Bearer ${hs256(claimsFor(tenant.owner.id, { iat: nowSeconds() + YEAR, exp: nowSeconds() + YEAR + 600 }))}`],
    ['iat a minute ahead, beyond the 5 s tolerance', () => `Bearer ${hs256(claimsFor(tenant.owner.id, { iat: nowSeconds() + 60 }))}`],
    ['a string iat', () => `Bearer ${hs256(claimsFor(tenant.owner.id, { iat: String(nowSeconds()) }))}`],
    ['a personal API key', () => `Bearer ${personalKey}`],
  ];

  /** The code each refusal leads its message with; every other attack is SESSION_TOKEN_INVALID. */
  const codeOf: Record<string, string> = {
    'no Authorization header': 'SESSION_TOKEN_MISSING',
    'a non-Bearer scheme': 'SESSION_TOKEN_MISSING',
    'an empty bearer': 'SESSION_TOKEN_MISSING',
    'a personal API key': 'API_KEY_NOT_ACCEPTED',
  };

  for (const [name, authorization] of attacks) {
    it(`refuses ${name} with 401 and the management body`, async () => {
      const res = await capabilities(app, authorization());
      expect(String(expectManagementError(res, 401).message)).toMatch(new RegExp(`^${codeOf[name] ?? 'SESSION_TOKEN_INVALID'}: `));
      expect(res.headers['www-authenticate']).toBe('Bearer');
    });
  }

  it('accepts a token living exactly JWT_MAX_LIFETIME_SECONDS (24 h by default), with or without iat, and an iat ahead within the tolerance', async () => {
    for (const claims of [
      claimsFor(tenant.owner.id, { exp: nowSeconds() + DAY }),
      { sub: tenant.owner.id, exp: nowSeconds() + DAY },
      claimsFor(tenant.owner.id, { iat: nowSeconds() + 2 }),
    ]) {
      const res = await capabilities(app, `Bearer ${hs256(claims)}`);
      expect(res.statusCode, JSON.stringify(claims)).toBe(200);
    }
  });

  it('tolerates a token that expired within the clock tolerance', async () => {
    const res = await capabilities(app, `Bearer ${hs256(claimsFor(tenant.owner.id, { exp: nowSeconds() - 2 }))}`);
    expect(res.statusCode).toBe(200);
  });

  describe('with JWT_ISSUER and JWT_AUDIENCE configured', () => {
    it('accepts the right iss and aud', async () => {
      const res = await capabilities(strictApp, `Bearer ${tokenFor(tenant.owner.id, { iss: ISSUER, aud: AUDIENCE })}`);
      expect(res.statusCode).toBe(200);
    });
    const cases: Array<[string, Record<string, unknown>]> = [
      ['a wrong iss', { iss: 'https://evil.example', aud: AUDIENCE }],
      ['a wrong aud', { iss: ISSUER, aud: 'someone-else' }],
      ['no iss', { aud: AUDIENCE }],
      ['no aud', { iss: ISSUER }],
    ];
    for (const [name, extra] of cases) {
      it(`refuses ${name}`, async () => {
        const refused = expectManagementError(await capabilities(strictApp, `Bearer ${hs256(claimsFor(tenant.owner.id, extra))}`), 401);
        expect(refused.message).toBe('SESSION_TOKEN_INVALID: the session token is invalid or expired');
      });
    }
  });

  it('refuses API keys (personal and workspace, Bearer and X-API-Key) on every management route', async () => {
    const routes = app.managedRoutes;
    expect(routes.length).toBeGreaterThanOrEqual(9);
    for (const route of routes) {
      const url = route.url.replace(':workspaceId', tenant.workspace.id).replace(':keyId', 'key_01JZZZZZZZZZZZZZZZZZZZZZZZ');
      for (const headers of [
        { authorization: `Bearer ${personalKey}` },
        { authorization: `Bearer ${workspaceKey}` },
        { 'x-api-key': personalKey },
      ]) {
        const res = await app.inject({ method: route.method as 'GET', url, headers, ...(route.method === 'POST' ? { payload: {} } : {}) });
        const expected = 'authorization' in headers ? 'API_KEY_NOT_ACCEPTED' : 'SESSION_TOKEN_MISSING';
        expect(String(expectManagementError(res, 401).message)).toMatch(new RegExp(`^${expected}: `));
      }
    }
  });
});
