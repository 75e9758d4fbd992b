import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceApp, type ServiceConfig } from '../src/index.js';
import { TEST_HTTP_SETTINGS, testErrors as errors } from './support/test-service.js';

/** A config with no database or NATS settings at all: the console's server has none. */
const config: ServiceConfig = { NODE_ENV: 'test', LOG_LEVEL: 'silent', ...TEST_HTTP_SETTINGS };

const NO_CAPABILITIES = { database: false, nats: false, parsedInput: false };

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('createServiceApp without the database, NATS, the input rules or OpenAPI', () => {
  it('builds from a config without their settings and serves liveness, metrics and the 404 body, and no document', async () => {
    app = await createServiceApp({ name: 'no-deps', config, errors, capabilities: NO_CAPABILITIES });
    await app.ready();
    expect(app.hasDecorator('database')).toBe(false);
    expect(app.hasDecorator('nats')).toBe(false);
    expect((await app.inject({ url: '/health/live' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ url: '/health/ready' })).json()).toEqual({ status: 'ready', checks: {} });
    expect((await app.inject({ url: '/metrics' })).body).toContain('service="no-deps"');
    for (const url of ['/openapi.json', '/docs']) {
      const missing = await app.inject({ url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.json(), url).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    }
    expect(app.server.maxConnections).toBe(TEST_HTTP_SETTINGS.HTTP_MAX_CONNECTIONS);
  });

  it('decides readiness by the service\'s own checks: one that decides takes it out, one that is reported does not', async () => {
    let appState: 'ok' | 'unavailable' = 'ok';
    app = await createServiceApp({
      name: 'own-checks',
      config,
      errors,
      capabilities: NO_CAPABILITIES,
      readiness: {
        checks: [
          { name: 'app', decides: true, check: async () => appState },
          { name: 'cache', decides: false, check: async () => { throw new Error('down'); } },
        ],
        documentation: { summary: 'Readiness', ready: 'ready', unavailable: 'not ready' },
      },
    });
    await app.ready();
    const ready = await app.inject({ url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', checks: { app: 'ok', cache: 'unavailable' } });
    appState = 'unavailable';
    const unready = await app.inject({ url: '/health/ready' });
    expect(unready.statusCode).toBe(503);
    expect(unready.json()).toEqual({ status: 'unavailable', checks: { app: 'unavailable', cache: 'unavailable' } });
  });

  it('leaves a body unparsed for a service without the input rules (a proxy passes it on unread)', async () => {
    app = await createServiceApp({ name: 'raw-bodies', config, errors, capabilities: NO_CAPABILITIES });
    app.post('/text', async (request) => ({ body: request.body }));
    await app.ready();
    // With the input rules a NUL in a JSON string is a 400; without them the route sees what came.
    const answer = await app.inject({ method: 'POST', url: '/text', headers: { 'content-type': 'application/json' }, payload: '{"a":"\\u0000"}' });
    expect(answer.statusCode).toBe(200);
  });

  it('refuses to build a capability whose setting the config lacks, naming it', async () => {
    await expect(createServiceApp({ name: 'wants-db', config, errors, capabilities: { nats: false } })).rejects.toThrow(/DATABASE_URL/);
    await expect(createServiceApp({ name: 'wants-nats', config, errors, capabilities: { database: false } })).rejects.toThrow(/NATS_URL/);
  });

  it('asks the fallback first for what no route matched, and answers the 404 when it declines', async () => {
    app = await createServiceApp({
      name: 'fallback',
      config,
      errors,
      capabilities: NO_CAPABILITIES,
      unmatched: (request, reply) => (request.url.startsWith('/page') ? reply.type('text/html').send('<p>page</p>') : undefined),
    });
    await app.ready();
    expect((await app.inject({ url: '/page/1' })).body).toBe('<p>page</p>');
    expect((await app.inject({ url: '/other' })).json()).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND' });
  });
});
