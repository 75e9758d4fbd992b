import { Agent, request } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { insertApiKey } from '@raffle/db';
import { DomainError } from '@raffle/domain';
import { errorHandlerPlugin, loggerOptions, notFoundPlugin, requestIdOf, requestIdPlugin, shutdownPlugin } from '@raffle/service-kit';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codedErrorBody } from '../src/error-codes.js';
import { managementErrors } from '../src/errors.js';
import { buildTestApp } from './support/app.js';
import { expectManagementError, type Seen } from './support/contract.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { tokenFor } from './support/jwt.js';
import { registerSecret, testLogStream } from './support/log-scan.js';
import { seedTenant, type Tenant } from './support/tenant.js';

/**
 * The management body has no `code` field (the spec), so every error message leads with a code
 * of the catalogue, whatever answered it: the router, the parsers, the HTTP parser, the session
 * check, the error handler's fallbacks (500, 503) and the shutdown. expectManagementError checks
 * that each message leads with a code management answers with that status; these name the code.
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

const owner = () => ({ authorization: `Bearer ${tokenFor(tenant.owner.id)}` });

function expectCode(res: Seen, status: number, code: string): string | string[] {
  const { message } = expectManagementError(res, status) as { message: string | string[] };
  for (const m of [message].flat()) expect(m).toMatch(new RegExp(`^${code}: `));
  return message;
}

describe('the router and the parsers', () => {
  it('an unknown path is 404 ROUTE_NOT_FOUND, another method 405 METHOD_NOT_ALLOWED', async () => {
    expectCode(await app.inject({ method: 'GET', url: '/api/developer/nope', headers: owner() }), 404, 'ROUTE_NOT_FOUND');
    const wrong = await app.inject({ method: 'DELETE', url: '/api/developer/capabilities', headers: owner() });
    expect(expectCode(wrong, 405, 'METHOD_NOT_ALLOWED')).toBe('METHOD_NOT_ALLOWED: DELETE is not allowed here; use GET, HEAD');
  });

  it('a malformed percent-encoding is 400 MALFORMED_URL', async () => {
    expectCode(await app.inject({ method: 'GET', url: '/api/dashboard/workspaces/%E0%A4%A', headers: owner() }), 400, 'MALFORMED_URL');
  });

  it('a schema violation is 400 VALIDATION_FAILED on every message; a bad page query its own code', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/dashboard/workspaces', headers: owner(), payload: { slug: 'Not A Slug', name: 5 } });
    const messages = expectCode(res, 400, 'VALIDATION_FAILED');
    expect(Array.isArray(messages) && messages.length).toBeGreaterThanOrEqual(2);
    expectCode(await app.inject({ method: 'GET', url: '/api/dashboard/workspaces?limit=0', headers: owner() }), 400, 'INVALID_LIMIT');
    expectCode(await app.inject({ method: 'GET', url: '/api/dashboard/workspaces?cursor=garbage', headers: owner() }), 400, 'INVALID_CURSOR');
    // A refusal by a rule is one string.
    expect(typeof expectCode(await app.inject({ method: 'GET', url: '/api/dashboard/workspaces/wks_nope', headers: owner() }), 403, 'FORBIDDEN')).toBe('string');
  });

  it('the OpenAPI document says when message is an array: a schema refusal, one message per problem, each with its code', async () => {
    const document = (await app.inject({ url: '/openapi.json' })).json() as { components: { schemas: Record<string, { properties: Record<string, { description?: string }> }> } };
    const description = document.components.schemas.ManagementErrorBody!.properties.message!.description ?? '';
    expect(description).toMatch(/array, one message per problem/);
    expect(description).toMatch(/VALIDATION_FAILED/);
    expect(description).toMatch(/leads with the code/);
  });

  it('an HTTP request the parser refuses is 400 MALFORMED_REQUEST, in the management body', async () => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\nnot a header line\r\n\r\n'));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
    });
    const [head, body] = raw.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    const parsed = JSON.parse(body) as { message: string; statusCode: number; code?: unknown };
    expect(parsed.message).toBe('MALFORMED_REQUEST: the request is not valid HTTP/1.1');
    expect(parsed.statusCode).toBe(400);
    expect(parsed).not.toHaveProperty('code');
  });
});

describe('the session check', () => {
  it('names why the session is refused: missing, an API key, or invalid', async () => {
    const capabilities = (authorization?: string) =>
      app.inject({ method: 'GET', url: '/api/developer/capabilities', headers: authorization ? { authorization } : {} });
    expectCode(await capabilities(), 401, 'SESSION_TOKEN_MISSING');
    const { apiKey } = await insertApiKey(db.database.db, { kind: 'personal', userId: tenant.owner.id, name: 'p', scopes: ['profile:read'] });
    expectCode(await capabilities(`Bearer ${registerSecret(apiKey)}`), 401, 'API_KEY_NOT_ACCEPTED');
    expect(expectCode(await capabilities('Bearer a.b.c'), 401, 'SESSION_TOKEN_INVALID')).toBe('SESSION_TOKEN_INVALID: the session token is invalid or expired');
  });
});

describe('the error handler on its own', () => {
  let tiny: FastifyInstance;

  beforeAll(async () => {
    const instance = Fastify({ logger: loggerOptions({ level: 'fatal', stream: testLogStream }), genReqId: requestIdOf, return503OnClosing: false });
    await instance.register(errorHandlerPlugin, managementErrors);
    await instance.register(shutdownPlugin, { body: (request, _status, message) => codedErrorBody(request, 'SERVICE_UNAVAILABLE', message), drainMs: 2000 });
    await instance.register(notFoundPlugin, {
      body: (request, status, message) => codedErrorBody(request, status === 405 ? 'METHOD_NOT_ALLOWED' : 'ROUTE_NOT_FOUND', message),
    });
    await instance.register(requestIdPlugin);
    instance.get('/throw/:kind', async (request) => {
      const kind = (request.params as { kind: string }).kind;
      if (kind === 'plain') throw new Error('select * from api_keys where id = $1');
      if (kind === 'econnrefused') throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
      if (kind === 'deadlock') throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      if (kind === 'unique') throw Object.assign(new Error('duplicate key value'), { code: '23505', severity: 'ERROR' });
      if (kind === 'requirements') {
        throw new DomainError('REQUIREMENTS_NOT_MET', 'you do not meet every requirement', { failedRequirements: [{ type: 'email_verified', label: 'Verify your email' }] });
      }
      if (kind === 'http-403') throw Object.assign(new Error('Forbidden'), { status: 403, statusCode: 403, expose: true });
      if (kind === 'http-404') throw Object.assign(new Error('file not found'), { status: 404, statusCode: 404, expose: true });
      if (kind === 'session') throw new DomainError('SESSION_TOKEN_INVALID', 'the session token is invalid or expired');
      return { ok: true };
    });
    await instance.ready();
    tiny = instance;
  });
  afterAll(async () => {
    await tiny?.close();
  });

  const thrown = (kind: string) => tiny.inject({ method: 'GET', url: `/throw/${kind}` });

  it('an unexpected error is 500 INTERNAL_ERROR with no detail', async () => {
    expect(expectCode(await thrown('plain'), 500, 'INTERNAL_ERROR')).toBe('INTERNAL_ERROR: internal error');
  });

  it('an unreachable dependency and a deadlock are 503 SERVICE_UNAVAILABLE with Retry-After', async () => {
    for (const kind of ['econnrefused', 'deadlock']) {
      const res = await thrown(kind);
      expectCode(res, 503, 'SERVICE_UNAVAILABLE');
      expect(res.headers['retry-after']).toBe('1');
    }
  });

  it('a unique violation is 409 CONFLICT; requirements not met 409 with the labels', async () => {
    expectCode(await thrown('unique'), 409, 'CONFLICT');
    expect(expectCode(await thrown('requirements'), 409, 'REQUIREMENTS_NOT_MET')).toBe('REQUIREMENTS_NOT_MET: you do not meet every requirement (Verify your email)');
  });

  it("a dependency's client error keeps 404 as NOT_FOUND, and any other is 400 VALIDATION_FAILED", async () => {
    expectCode(await thrown('http-404'), 404, 'NOT_FOUND');
    expect(expectCode(await thrown('http-403'), 400, 'VALIDATION_FAILED')).toBe('VALIDATION_FAILED: the request was rejected');
  });

  it('a 401 refusal leads with its code and asks for a Bearer token', async () => {
    const res = await thrown('session');
    expectCode(res, 401, 'SESSION_TOKEN_INVALID');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('a request that arrives while the service shuts down is 503 SERVICE_UNAVAILABLE', async () => {
    // A real server: the refusal is for requests on connections still open during the drain.
    await tiny.listen({ host: '127.0.0.1', port: 0 });
    const { port } = tiny.server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<Seen>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/throw/ok', agent }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) }));
        });
        req.on('error', reject).end();
      });
    expect((await get()).statusCode).toBe(200);
    const closing = tiny.close();
    const late = await get();
    expect(expectCode(late, 503, 'SERVICE_UNAVAILABLE')).toBe('SERVICE_UNAVAILABLE: the service is shutting down; retry shortly');
    agent.destroy();
    await closing;
  });
});
