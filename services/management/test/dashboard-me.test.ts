import { randomBytes } from 'node:crypto';
import { insertUser } from '@raffle/db';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManagementApp } from '../src/app.js';
import { buildTestApp } from './support/app.js';
import { buildDataPlaneApp } from './support/data-plane.js';
import { expectManagementError, expectSchema } from './support/contract.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { claimsFor, hs256, tokenFor } from './support/jwt.js';
import { registerSecret, testLogStream } from './support/log-scan.js';

let testDb: TestDatabase;
let app: ManagementApp;
let dataPlane: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildTestApp(testDb.database, testDb.url);
  dataPlane = await buildDataPlaneApp(testDb.database, testDb.url, testLogStream);
});

afterAll(async () => {
  await dataPlane?.close();
  await app?.close();
  await testDb?.drop();
});

const URL = '/api/dashboard/me';
const nowSeconds = () => Math.floor(Date.now() / 1000);
const getMe = (authorization?: string) => app.inject({ method: 'GET', url: URL, headers: authorization ? { authorization } : {} });
const handle = (tag: string) => `${tag}-${randomBytes(5).toString('hex')}`;

describe('GET /api/dashboard/me', () => {
  it("answers the signed-in user's own profile, wallets included, with the rate-limit headers of every dashboard route", async () => {
    const user = await insertUser(testDb.database.db, {
      handle: handle('alice'),
      displayName: 'Alice Moreau',
      avatarUrl: 'https://example.com/alice.png',
      email: 'alice@example.com',
      wallets: [{ chain: 'ethereum', address: `0x${randomBytes(20).toString('hex')}`, verified: true }],
    });
    const res = await getMe(`Bearer ${tokenFor(user.id)}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json() as Record<string, unknown>;
    expectSchema('Profile', body);
    expect(body).toMatchObject({ id: user.id, handle: user.handle, displayName: 'Alice Moreau', avatarUrl: 'https://example.com/alice.png' });
    expect(body.wallets).toHaveLength(1);
    // The data plane's profile has no email, so neither has this one: one user, one representation.
    expect(body).not.toHaveProperty('email');
    expect(res.headers['ratelimit-policy']).toMatch(/"user"/);
    expect(res.headers.ratelimit).toMatch(/"user"/);
  });

  it('leaves out a display name and avatar the user has not set, as the data plane does', async () => {
    const user = await insertUser(testDb.database.db, { handle: handle('bare') });
    const res = await getMe(`Bearer ${tokenFor(user.id)}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ id: user.id, handle: user.handle, wallets: [], createdAt: expect.any(String) });
  });

  it("is byte for byte the data plane's GET /api/v1/me for the same user", async () => {
    const user = await insertUser(testDb.database.db, { handle: handle('both'), displayName: 'Both Apis' });
    const created = await app.inject({
      method: 'POST',
      url: '/api/developer/personal/api-keys',
      headers: { authorization: `Bearer ${tokenFor(user.id)}` },
      payload: { name: 'profile', scopes: ['profile:read'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { apiKey } = created.json() as { apiKey: string };
    registerSecret(apiKey);
    const [dashboard, v1] = [await getMe(`Bearer ${tokenFor(user.id)}`), await dataPlane.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${apiKey}` } })];
    expect(v1.statusCode, v1.body).toBe(200);
    expect(dashboard.body).toBe(v1.body);
  });

  it('refuses a request without a session token with 401 SESSION_TOKEN_MISSING and the management body', async () => {
    const res = await getMe();
    expect(String(expectManagementError(res, 401).message)).toMatch(/^SESSION_TOKEN_MISSING: /);
  });

  it('refuses an expired token with 401 SESSION_TOKEN_INVALID', async () => {
    const user = await insertUser(testDb.database.db, { handle: handle('expired') });
    const res = await getMe(`Bearer ${hs256(claimsFor(user.id, { iat: nowSeconds() - 600, exp: nowSeconds() - 30 }))}`);
    expect(String(expectManagementError(res, 401).message)).toMatch(/^SESSION_TOKEN_INVALID: /);
  });

  it('refuses a bad signature with 401 SESSION_TOKEN_INVALID', async () => {
    const user = await insertUser(testDb.database.db, { handle: handle('forged') });
    const res = await getMe(`Bearer ${hs256(claimsFor(user.id), 'not-the-secret')}`);
    expect(String(expectManagementError(res, 401).message)).toMatch(/^SESSION_TOKEN_INVALID: /);
  });

  // A validly signed token whose user is not in the database is a refused session, not a missing
  // resource: 401 like every other dashboard route, so a 404 cannot tell a caller which ids exist.
  it('refuses a token whose user exists only in the token with 401 SESSION_TOKEN_INVALID, not 404', async () => {
    const res = await getMe(`Bearer ${tokenFor('usr_01JZZZZZZZZZZZZZZZZZZZZZZZ')}`);
    expect(String(expectManagementError(res, 401).message)).toMatch(/^SESSION_TOKEN_INVALID: /);
  });
});
