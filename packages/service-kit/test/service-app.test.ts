import type { ErrorCode } from '@raffle/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceConfig, type ServiceErrors } from '../src/index.js';
import { TEST_HTTP_SETTINGS, testErrors as errors, TestRefusal } from './support/test-service.js';

const config: ServiceConfig = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  DATABASE_POOL_SIZE: 1,
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  ...TEST_HTTP_SETTINGS,
};

/** What Postgres says with each SQLSTATE the routes below throw ("57014u": the same code, cancelled by a client). */
const DATABASE_MESSAGES: Record<string, string> = {
  '55P03': 'canceling statement due to lock timeout',
  '57014': 'canceling statement due to statement timeout',
  '57014u': 'canceling statement due to user request',
};

async function buildService(serviceErrors: ServiceErrors): Promise<FastifyInstance> {
  const app = await createServiceApp({
    name: 'kit-test',
    config,
    errors: serviceErrors,
    server: { bodyLimit: 1024 },
    decorations: { greeting: 'hello' },
    openApi: { title: 'Kit test', description: 'A service built by the kit, for its tests.', version: '1.0.0', securitySchemes: {}, servers: [], tags: [] },
  });
  app.get('/refuse/:code', async (request) => {
    throw new TestRefusal((request.params as { code: ErrorCode }).code, 'refused on purpose');
  });
  app.get('/fail', async () => {
    throw new Error('select secret from somewhere');
  });
  app.post('/echo', async (request) => request.body);
  app.get('/database-gave-up/:sqlstate', async (request) => {
    const { sqlstate } = request.params as { sqlstate: string };
    throw Object.assign(new Error(DATABASE_MESSAGES[sqlstate] ?? 'canceling statement due to user request'), { code: sqlstate.slice(0, 5) });
  });
  await app.ready();
  return app;
}

let app: FastifyInstance;
let plain: FastifyInstance;

beforeAll(async () => {
  app = await buildService(errors);
  // Without a parser-failure body, what the router refuses keeps Fastify's own answer (the dispatcher's case).
  plain = await buildService({ ...errors, parserFailure: undefined });
});
afterAll(async () => {
  await app?.close();
  await plain?.close();
});

describe('createServiceApp', () => {
  it('decorates config and the service decorations, serves health, metrics and the OpenAPI document, and limits connections', async () => {
    expect(app.getDecorator('config')).toBe(config);
    expect(app.getDecorator('greeting')).toBe('hello');
    expect((await app.inject({ url: '/health/live' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ url: '/metrics' })).body).toContain('service="kit-test"');
    const document = (await app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/health/live', '/health/ready', '/metrics', '/openapi.json']));
    expect(app.server.maxConnections).toBe(123);
  });

  it('answers unknown routes 404 and known ones asked with another method 405, in the service body', async () => {
    const missing = await app.inject({ url: '/nowhere' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND', requestId: missing.headers['x-request-id'] });
    const wrongMethod = await app.inject({ method: 'DELETE', url: '/fail' });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
    expect(wrongMethod.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
  });

  it('answers a refusal with its code at the status the service gives it; a 401 asks for a Bearer token', async () => {
    const conflict = await app.inject({ url: '/refuse/RAFFLE_FULL' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({ code: 'RAFFLE_FULL', message: 'refused on purpose' });
    expect(conflict.headers['www-authenticate']).toBeUndefined();
    const unauthorized = await app.inject({ url: '/refuse/API_KEY_INVALID' });
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.headers['www-authenticate']).toBe('Bearer');
  });

  it('answers the unexpected 500 INTERNAL_ERROR without detail, and a body over the limit 413', async () => {
    const failed = await app.inject({ url: '/fail' });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toMatchObject({ code: 'INTERNAL_ERROR', message: 'internal error' });
    const tooLarge = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ x: 'x'.repeat(2048) }) });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers a statement past its bound (lock_timeout, statement_timeout) 503 with Retry-After; any other cancel stays a 500', async () => {
    for (const sqlstate of ['55P03', '57014']) {
      const gaveUp = await app.inject({ url: `/database-gave-up/${sqlstate}` });
      expect(gaveUp.statusCode, sqlstate).toBe(503);
      expect(gaveUp.headers['retry-after'], sqlstate).toBe('1');
      expect(gaveUp.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('retry shortly') });
      expect(gaveUp.body).not.toContain('canceling');
    }
    const cancelled = await app.inject({ url: '/database-gave-up/57014u' });
    expect(cancelled.statusCode).toBe(500);
    expect(cancelled.json()).toMatchObject({ code: 'INTERNAL_ERROR' });
  });

  it('stays ready while every pooled connection is busy: the ping has a connection of its own', async () => {
    // The pool has one connection (DATABASE_POOL_SIZE 1); a statement holds it past the probe's 1 s.
    const busy = app.database.sql`select pg_sleep(2)`.execute();
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const ready = await app.inject({ url: '/health/ready' });
      expect(ready.statusCode, ready.body).toBe(200);
      expect(ready.json()).toMatchObject({ status: 'ready', checks: { database: 'ok' } });
    } finally {
      await busy;
    }
  });

  it('answers a malformed URL in the service body when it words parser failures, else leaves it to Fastify', async () => {
    const worded = await app.inject({ url: '/fail/%E0%A4%A' });
    expect(worded.statusCode).toBe(400);
    expect(worded.json()).toMatchObject({ code: 'MALFORMED_URL', requestId: worded.headers['x-request-id'] });
    const left = await plain.inject({ url: '/fail/%E0%A4%A' });
    expect(left.statusCode).toBe(400);
    expect(left.json()).toMatchObject({ code: 'FST_ERR_BAD_URL' });
  });
});
