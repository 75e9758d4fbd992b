import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceConfig } from '../src/index.js';
import { TEST_HTTP_SETTINGS, testErrors } from './support/test-service.js';

const config: ServiceConfig = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'info',
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  DATABASE_POOL_SIZE: 1,
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  ...TEST_HTTP_SETTINGS,
  // Long enough for the probes below to be sent during the drain; the test ends it by destroying its pool.
  HTTP_SHUTDOWN_DRAIN_MS: 2_000,
};

const logLines: Array<{ level: number; msg?: string; err?: { message?: string } }> = [];
let app: FastifyInstance;
let pool: Pool;
let closed: Promise<void>;

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
      done();
    },
  });
  app = await createServiceApp({ name: 'kit-shutdown-test', config, errors: testErrors, logStream });
  app.get('/hello', async () => ({ hello: 'world' }));
  await app.ready();
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  pool = new Pool(`http://127.0.0.1:${port}`, { connections: 1, keepAliveTimeout: 60_000 });
});
afterAll(async () => {
  await pool?.destroy();
  await closed;
});

async function get(path: string) {
  const response = await pool.request({ method: 'GET', path });
  return { status: response.statusCode, headers: response.headers, body: (await response.body.json()) as Record<string, unknown> };
}

describe('readiness while the instance shuts down', () => {
  it('answers 503 in the readiness shape, with Retry-After, and logs no error', async () => {
    // Opens the keep-alive connection the drain leaves open.
    expect((await get('/health/ready')).status).toBe(200);

    closed = app.close();
    // The drain has begun once the listener is closed (connections already open are still served).
    while (app.server.listening) await new Promise((resolve) => setImmediate(resolve));

    const ready = await get('/health/ready');
    expect(ready.status, JSON.stringify(ready.body)).toBe(503);
    expect(ready.body).toMatchObject({ status: 'unavailable', checks: { database: 'ok' } });
    expect(ready.headers['retry-after']).toBe('1');
    expect(ready.headers.connection).toBe('close');

    const errors = logLines.filter((line) => line.level >= 50);
    expect(errors.map((line) => line.err?.message ?? line.msg)).toEqual([]);
  });
});
