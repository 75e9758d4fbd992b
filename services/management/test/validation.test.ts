import { API_KEY_NAME_MAX_LENGTH } from '@raffle/contracts';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { expectManagementError, schemaErrors } from './support/contract.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { tokenFor } from './support/jwt.js';
import { registerSecret } from './support/log-scan.js';
import { seedTenant, type Tenant } from './support/tenant.js';

let testDb: TestDatabase;
let app: FastifyInstance;
let tenant: Tenant;
let keyId: string;

const PERSONAL = '/api/developer/personal/api-keys';

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url, { MAX_ACTIVE_KEYS_PER_USER: '1000' });
  tenant = await seedTenant(testDb.database);
  const res = await app.inject({ method: 'POST', url: PERSONAL, headers: auth(), payload: { name: 'k', scopes: ['profile:read'] } });
  keyId = (res.json() as { id: string }).id;
  registerSecret((res.json() as { apiKey: string }).apiKey);
});

afterAll(async () => {
  await app?.close();
  await testDb?.drop();
});

const auth = () => ({ authorization: `Bearer ${tokenFor(tenant.owner.id)}` });
const future = () => new Date(Date.now() + 86_400_000).toISOString();

describe('create validation (400, management body, no code)', () => {
  const cases: Array<[string, () => unknown]> = [
    ['a missing name', () => ({ scopes: ['profile:read'] })],
    ['an empty name', () => ({ name: '', scopes: ['profile:read'] })],
    ['a blank name', () => ({ name: '   ', scopes: ['profile:read'] })],
    ['an over-long name', () => ({ name: 'x'.repeat(API_KEY_NAME_MAX_LENGTH + 1), scopes: ['profile:read'] })],
    ['missing scopes', () => ({ name: 'n' })],
    ['empty scopes', () => ({ name: 'n', scopes: [] })],
    ['an unknown scope', () => ({ name: 'n', scopes: ['admin:all'] })],
    ['a workspace-only scope on a personal key', () => ({ name: 'n', scopes: ['winners:read'] })],
    ['duplicate scopes', () => ({ name: 'n', scopes: ['profile:read', 'profile:read'] })],
    ['a malformed expiresAt', () => ({ name: 'n', scopes: ['profile:read'], expiresAt: 'tomorrow' })],
    ['a date-only expiresAt', () => ({ name: 'n', scopes: ['profile:read'], expiresAt: '2999-01-01' })],
    ['a past expiresAt', () => ({ name: 'n', scopes: ['profile:read'], expiresAt: new Date(Date.now() - 1000).toISOString() })],
    ['expiresAt = now', () => ({ name: 'n', scopes: ['profile:read'], expiresAt: new Date().toISOString() })],
    ['a numeric name', () => ({ name: 5, scopes: ['profile:read'] })],
    ['scopes as a string', () => ({ name: 'n', scopes: 'profile:read' })],
    ['a numeric scope', () => ({ name: 'n', scopes: [1] })],
    ['a numeric expiresAt', () => ({ name: 'n', scopes: ['profile:read'], expiresAt: Date.now() + 86_400_000 })],
    ['an extra field', () => ({ name: 'n', scopes: ['profile:read'], apiKey: 'svc_u_mine' })],
    ['a null body', () => null],
    ['an array body', () => [{ name: 'n', scopes: ['profile:read'] }]],
    ['a string body', () => 'name'],
  ];
  for (const [name, body] of cases) {
    it(`refuses ${name}`, async () => {
      const res = await app.inject({ method: 'POST', url: PERSONAL, headers: { ...auth(), 'content-type': 'application/json' }, payload: JSON.stringify(body()) });
      expectManagementError(res, 400);
    });
  }

  it('accepts a future expiresAt', async () => {
    const res = await app.inject({ method: 'POST', url: PERSONAL, headers: auth(), payload: { name: 'n', scopes: ['profile:read'], expiresAt: future() } });
    expect(res.statusCode).toBe(201);
    registerSecret((res.json() as { apiKey: string }).apiKey);
  });

  it('refuses malformed JSON, an empty JSON body and a non-JSON body', async () => {
    for (const [contentType, payload, code] of [
      ['application/json', '{"name": "n", ', 'MALFORMED_JSON'],
      ['application/json', '', 'MALFORMED_JSON'],
      // Text is parsed as a string, which is not the object the schema asks for.
      ['text/plain', 'name=n', 'VALIDATION_FAILED'],
      // A media type no parser takes: management has no 415, so a 400 with the data plane's code.
      ['application/x-www-form-urlencoded', 'name=n&scopes=profile:read', 'UNSUPPORTED_MEDIA_TYPE'],
    ] as const) {
      const res = await app.inject({ method: 'POST', url: PERSONAL, headers: { ...auth(), 'content-type': contentType }, payload });
      expect(String(expectManagementError(res, 400).message)).toMatch(new RegExp(`^${code}: `));
    }
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await app.inject({ method: 'POST', url: PERSONAL, headers: auth(), payload: { name: 'n', scopes: ['profile:read'], pad: 'x'.repeat(20_000) } });
    expect(expectManagementError(res, 413).message).toBe('PAYLOAD_TOO_LARGE: request body is too large');
  });
});

describe('roll validation', () => {
  for (const [name, body] of [
    ['a negative expireOldInSeconds', { expireOldInSeconds: -1 }],
    ['a fractional expireOldInSeconds', { expireOldInSeconds: 1.5 }],
    ['more than 7 days', { expireOldInSeconds: 604_801 }],
    ['a string', { expireOldInSeconds: '60' }],
    ['an extra field', { expireOldInSeconds: 60, name: 'renamed' }],
    ['a JSON null', null],
    ['an array', [60]],
  ] as const) {
    it(`refuses ${name}`, async () => {
      const res = await app.inject({ method: 'POST', url: `${PERSONAL}/${keyId}/roll`, headers: { ...auth(), 'content-type': 'application/json' }, payload: JSON.stringify(body) });
      expectManagementError(res, 400);
    });
  }
});

describe('framework errors carry the management body', () => {
  it('unknown route → 404', async () => {
    expectManagementError(await app.inject({ method: 'GET', url: '/api/developer/nope?x=1' }), 404);
    expectManagementError(await app.inject({ method: 'GET', url: '/nothing' }), 404);
  });
  it('wrong method → 405 with Allow', async () => {
    const res = await app.inject({ method: 'PUT', url: PERSONAL, headers: auth() });
    expectManagementError(res, 405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expectManagementError(await app.inject({ method: 'PATCH', url: `${PERSONAL}/${keyId}`, headers: auth() }), 405);
  });
  it('a malformed URL → 400', async () => {
    expectManagementError(await app.inject({ method: 'GET', url: '/api/developer/%E0%A4%A' }), 400);
  });
  it('keeps a well-formed X-Request-Id as requestId', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/developer/capabilities', headers: { 'x-request-id': 'trace-123' } });
    expect(expectManagementError(res, 401).requestId).toBe('trace-123');
  });
});

describe('bad-body fuzz (4xx with a valid body, never 5xx)', () => {
  const value = fc.letrec((tie) => ({
    json: fc.oneof(
      { depthSize: 'small' },
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('json'), { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 8 }), tie('json'), { maxKeys: 4 }),
    ),
  })).json;
  const nearBody = fc.record(
    {
      name: fc.oneof(fc.string({ maxLength: 120 }), value),
      scopes: fc.oneof(fc.array(fc.constantFrom('profile:read', 'wins:read', 'winners:read', 'x', ''), { maxLength: 4 }), value),
      expiresAt: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.string(), value),
      extra: value,
    },
    { requiredKeys: [] },
  );
  const rawText = fc.string({ maxLength: 60 });

  it('POST routes never answer 5xx', async () => {
    const urls = [PERSONAL, `/api/developer/workspaces/${tenant.workspace.id}/api-keys`, `${PERSONAL}/${keyId}/roll`];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...urls), fc.oneof(nearBody.map((b) => JSON.stringify(b)), value.map((v) => JSON.stringify(v)), rawText), async (url, payload) => {
        const res = await app.inject({ method: 'POST', url, headers: { ...auth(), 'content-type': 'application/json' }, payload });
        if (res.statusCode === 201) {
          // A near-valid body can be valid (e.g. `{}` rolls the key); it must then be a whole CreatedApiKey.
          expect(schemaErrors('CreatedApiKey', res.json())).toEqual([]);
          registerSecret((res.json() as { apiKey: string }).apiKey);
          return true;
        }
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
        const body = res.json() as Record<string, unknown>;
        expect(schemaErrors('ManagementErrorBody', body)).toEqual([]);
        expect(body).not.toHaveProperty('code');
        for (const message of [body.message].flat()) expect(String(message)).toMatch(/^(VALIDATION_FAILED|MALFORMED_JSON|API_KEY_LIMIT|API_KEY_NOT_FOUND|API_KEY_CANNOT_ROLL|RATE_LIMITED): /);
        return true;
      }),
      { numRuns: 150 },
    );
  });
});
