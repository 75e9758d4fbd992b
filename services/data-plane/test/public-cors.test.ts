import { randomUUID } from 'node:crypto';
import { enterRaffle, userPrincipal } from '@raffle/domain';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { createLifecycleWorld, type LifecycleWorld } from './support/lifecycle.js';

/**
 * CORS on the keyless /public/v1 routes, so a page on any origin can fetch a draw proof and verify
 * it in the browser; none on the keyed /api/v1 routes.
 */

let db: TestDatabase;
let app: FastifyInstance;
let world: LifecycleWorld;
let viewer: Awaited<ReturnType<LifecycleWorld['entrant']>>;
let slug: string;

const ORIGIN = 'https://community.example';
const proofUrl = () => `/public/v1/raffles/${slug}/draw`;

beforeAll(async () => {
  db = await createTestDatabase();
  world = await createLifecycleWorld(db.database);
  app = await buildTestApp(db.database, db.url);
  viewer = await world.entrant();
  const raffle = await world.open({ spots: 1, visibility: 'public' });
  for (let i = 0; i < 3; i++) {
    const { user } = await world.entrant();
    await enterRaffle(world.db, { raffle: { raffleId: raffle.id }, actor: userPrincipal(user.id), source: 'web' });
  }
  await world.close(raffle.id);
  await world.draw(raffle.id);
  slug = raffle.slug;
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const listOf = (value: unknown) => String(value ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);

function expectReadableCrossOrigin(res: LightMyRequestResponse) {
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  expect(listOf(res.headers['access-control-expose-headers'])).toEqual(expect.arrayContaining(['etag', 'ratelimit', 'ratelimit-policy', 'retry-after', 'x-request-id']));
}

const preflight = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'OPTIONS', url, headers: { origin: ORIGIN, 'access-control-request-method': 'GET', ...headers } });

describe('the public routes, from another origin', () => {
  it('answer a preflight 204 with the methods, the headers a page may send, and a max-age', async () => {
    const res = await preflight(proofUrl(), { 'access-control-request-headers': 'if-none-match, x-raffle-client' });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectReadableCrossOrigin(res);
    expect(listOf(res.headers['access-control-allow-methods']).sort()).toEqual(['get', 'head']);
    // X-Raffle-Client: what @raffle/sdk's fetchAndVerifyDraw sends from a browser page.
    expect(listOf(res.headers['access-control-allow-headers'])).toEqual(expect.arrayContaining(['if-none-match', 'x-raffle-client']));
    expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
  });

  it('let a page read the proof, its ETag and rate-limit headers, and a 304 when it revalidates', async () => {
    const res = await app.inject({ url: proofUrl(), headers: { origin: ORIGIN } });
    expect(res.statusCode).toBe(200);
    expectReadableCrossOrigin(res);
    expect(res.headers.etag).toBeDefined();
    expect(res.headers.ratelimit).toBeDefined();
    const head = await app.inject({ method: 'HEAD', url: proofUrl(), headers: { origin: ORIGIN } });
    expectReadableCrossOrigin(head);
    const revalidated = await app.inject({ url: proofUrl(), headers: { origin: ORIGIN, 'if-none-match': String(res.headers.etag) } });
    expect(revalidated.statusCode).toBe(304);
    expectReadableCrossOrigin(revalidated);
  });

  it('let a page read why it was refused: 404 for an unknown raffle or path, 405 for another method', async () => {
    for (const url of ['/public/v1/raffles/no-such-raffle/draw', '/public/v1/nothing']) {
      const res = await app.inject({ url, headers: { origin: ORIGIN } });
      expect(res.statusCode, url).toBe(404);
      expectReadableCrossOrigin(res);
    }
    const post = await app.inject({ method: 'POST', url: proofUrl(), headers: { origin: ORIGIN } });
    expect(post.statusCode).toBe(405);
    expectReadableCrossOrigin(post);
  });

  it('let a page read a 429 and its Retry-After', async () => {
    const limited = await buildTestApp(db.database, db.url, { RATE_LIMIT_PUBLIC_MAX: '1', RATE_LIMIT_PUBLIC_WINDOW_MS: '60000', TRUST_PROXY: 'true' });
    try {
      // An address of its own, so no other test's budget is spent or spends this one.
      const ip = `2001:db8::${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}`;
      const from = () => limited.inject({ url: proofUrl(), remoteAddress: '127.0.0.1', headers: { origin: ORIGIN, 'x-forwarded-for': ip } });
      expect((await from()).statusCode).toBe(200);
      const refused = await from();
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      expectReadableCrossOrigin(refused);
    } finally {
      await limited.close();
    }
  });

  it('answer an OPTIONS that is not a preflight as before: 405', async () => {
    const res = await app.inject({ method: 'OPTIONS', url: proofUrl(), headers: { origin: ORIGIN } });
    expect(res.statusCode).toBe(405);
  });
});

describe('the keyed /api/v1 routes', () => {
  it('carry no CORS headers, on a request or a preflight, with a key or without', async () => {
    const answers = [
      await app.inject({ url: '/api/v1/me', headers: { ...viewer.headers, origin: ORIGIN } }),
      await app.inject({ url: `/api/v1/raffles/${slug}/draw`, headers: { ...viewer.headers, origin: ORIGIN } }),
      await app.inject({ url: '/api/v1/me', headers: { origin: ORIGIN } }),
      await preflight('/api/v1/me', { 'access-control-request-headers': 'authorization' }),
      await preflight(`/api/v1/raffles/${slug}/draw`),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 401, 405, 405]);
    for (const res of answers) expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});
