import { ERROR_CODES, PAGE_SIZES, PageQuerySchema } from '@raffle/contracts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '@raffle/domain';
import { errorHandlerPlugin, loggerOptions, requestIdOf, requestIdPlugin } from '@raffle/service-kit';
import type { DataPlaneApp } from '../src/app.js';
import { dataPlaneErrors } from '../src/errors.js';
import { buildTestApp } from './support/app.js';
import { expectMatchesSchema } from './support/contract-validator.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { leakFindings, responseViolations, type SeenResponse } from './support/error-invariants.js';
import { capturedLogLines, testLogStream } from './support/log-scan.js';
import { listenForRawRequests, rawRequest } from './support/raw-http.js';
import { seedTenant, type Tenant } from './support/tenant.js';

/**
 * Framework-level errors answer the spec's error body with the right code: unknown routes,
 * wrong methods, parser errors (through the error plugin on its own), request ids, rate limits
 * with the IETF draft headers, and a database failure that tells the client nothing internal.
 */

let db: TestDatabase;
let app: DataPlaneApp;
let tenant: Tenant;
let port: number;

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await seedTenant(db.database);
  app = await buildTestApp(db.database, db.url);
  ({ port } = await listenForRawRequests(app));
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const REQUEST_ID = /^req_[0-9A-HJKMNP-TV-Z]{26}$/;
const personal = () => ({ authorization: `Bearer ${tenant.keys.personal}` });

type Body = { statusCode: number; code: string; message: string | string[]; requestId: string | null; path: string; error: string };

/** The whole error contract for one response, then its body. */
function expectErrorBody(res: SeenResponse, method: string, status: number, code: string): Body {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
  expect(responseViolations(res, { method, allow5xx: status >= 500 }), res.body.slice(0, 300)).toEqual([]);
  const body = JSON.parse(res.body) as Body;
  expectMatchesSchema('ErrorBody', body);
  expect(body.code).toBe(code);
  expect(ERROR_CODES[code as keyof typeof ERROR_CODES]).toBe(status);
  return body;
}

describe('unknown routes', () => {
  it.each([
    ['GET', '/nope'],
    ['GET', '/api/v1/nope'],
    ['GET', '/api/v2/me'],
    ['GET', '/api/v1'],
    ['GET', '/api/v1/workspaces'],
    ['DELETE', '/api/v1/raffles/x/y/z'],
    ['POST', '/nope'],
  ])('%s %s answers 404 ROUTE_NOT_FOUND in the error body', async (method, url) => {
    const res = await app.inject({ method: method as 'GET', url, headers: personal() });
    const body = expectErrorBody(res, method, 404, 'ROUTE_NOT_FOUND');
    expect(body.path).toBe(url);
    expect(res.headers.allow).toBeUndefined();
  });

  it('reports the path without its query string', async () => {
    const res = await app.inject({ url: '/api/v1/nope?limit=5&cursor=abc&x=%3F' });
    const body = expectErrorBody(res, 'GET', 404, 'ROUTE_NOT_FOUND');
    expect(body.path).toBe('/api/v1/nope');
  });

  it('answers a GET to a route path with a trailing slash 404 (or the route), never "405 GET is not allowed; use GET"', async () => {
    for (const url of ['/api/v1/me/', `/api/v1/workspaces/${tenant.workspace.id}/raffles/`, '/api/v1/raffles/x/entries/me/']) {
      const res = await app.inject({ url, headers: personal() });
      expect(responseViolations(res, { method: 'GET' }), `GET ${url}: ${res.body}`).toEqual([]);
      expect(res.statusCode, `GET ${url}`).not.toBe(405);
    }
  });

  it('answers a missing file under /docs/static/ 404, not 405 with GET in Allow', async () => {
    const res = await app.inject({ url: '/docs/static/no-such-file.js' });
    expect(responseViolations(res, { method: 'GET' }), res.body).toEqual([]);
    expectErrorBody(res, 'GET', 404, 'ROUTE_NOT_FOUND');
  });

  it('answers a malformed percent-encoding in the path with the spec error body (not Fastify\'s FST_ERR_BAD_URL body)', async () => {
    for (const url of ['/api/v1/raffles/%FF', '/api/v1/raffles/%', '/api/v1/raffles/%E0%A4%A', '/nope/%C0%AF?limit=1']) {
      const res = await app.inject({ url, headers: personal() });
      expect(responseViolations(res, { method: 'GET' }), `GET ${url}: ${res.body}`).toEqual([]);
      const body = expectErrorBody(res, 'GET', 400, 'MALFORMED_URL');
      expect(body.path).toBe(url.split('?')[0]);
    }
  });

  it('accepts path values up to the 128 characters the route schemas (and /openapi.json) allow, and refuses longer ones with 400', async () => {
    const ok = await app.inject({ url: `/api/v1/raffles/${'s'.repeat(128)}`, headers: personal() });
    expect(responseViolations(ok, { method: 'GET' }), ok.body).toEqual([]);
    expectErrorBody(ok, 'GET', 404, 'RAFFLE_NOT_FOUND');
    const tooLong = await app.inject({ url: `/api/v1/raffles/${'s'.repeat(129)}`, headers: personal() });
    expect(responseViolations(tooLong, { method: 'GET' }), tooLong.body).toEqual([]);
    expectErrorBody(tooLong, 'GET', 400, 'VALIDATION_FAILED');
  });

  it('answers a request line the HTTP parser refuses (raw non-ASCII byte in the target) with the spec error body', async () => {
    for (const target of ['/api/v1/raffles/\u00e9', '/api/v1/me\u0080']) {
      const res = await rawRequest(port, { method: 'GET', target });
      expect(responseViolations(res, { method: 'GET' }), res.body).toEqual([]);
      expectErrorBody(res, 'GET', 400, 'MALFORMED_REQUEST');
    }
  });
});

describe('wrong methods', () => {
  it('answers 405 METHOD_NOT_ALLOWED with the path\'s own methods in Allow (GET with HEAD) for every other method on every route', async () => {
    const methodsByPath = new Map<string, Set<string>>();
    for (const row of app.routeAccessTable) {
      const methods = methodsByPath.get(row.url) ?? new Set<string>();
      methods.add(row.method);
      // Every GET answers HEAD too, except the streamed CSV exports: a HEAD there would read the whole export to throw it away.
      if (row.method === 'GET' && !row.url.endsWith('.csv')) methods.add('HEAD');
      methodsByPath.set(row.url, methods);
    }
    let checked = 0;
    for (const [template, methods] of methodsByPath) {
      const url = template.replace(/:(\w+)/g, 'x');
      const allow = [...methods].sort().join(', ');
      for (const method of (['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const).filter((m) => !methods.has(m))) {
        const res = await app.inject({ method, url, headers: personal() });
        const body = expectErrorBody(res, method, 405, 'METHOD_NOT_ALLOWED');
        expect(res.headers.allow, `${method} ${url}`).toBe(allow);
        expect(body.path).toBe(url);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(app.routeAccessTable.length * 4);
    expect(methodsByPath.get('/api/v1/raffles/:slug/entries/me')).toEqual(new Set(['GET', 'HEAD', 'DELETE']));
  });

  it('serves HEAD on every GET route (not 405)', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/api/v1/me', headers: personal() });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });

  // The route does not exist for the method, so the body is never the problem: 405 (or 404) wins.
  it.each([
    ['malformed JSON', 'application/json', '{"name":'],
    ['a body over BODY_LIMIT', 'application/json', JSON.stringify({ blob: 'x'.repeat(100 * 1024) })],
    ['an unsupported media type', 'application/xml', '<name>x</name>'],
    ['an empty JSON body', 'application/json', ''],
  ])('answers POST with %s to a GET-only path 405, not a body error', async (_what, contentType, payload) => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/me', headers: { ...personal(), 'content-type': contentType }, payload });
    expectErrorBody(res, 'POST', 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('answers POST with malformed JSON to an unknown path 404 ROUTE_NOT_FOUND, not MALFORMED_JSON', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/nope', headers: { 'content-type': 'application/json' }, payload: '{' });
    expectErrorBody(res, 'POST', 404, 'ROUTE_NOT_FOUND');
  });
});

describe('the error plugin on its own (every parser error, and errors the real routes cannot be made to throw)', () => {
  let tiny: FastifyInstance;

  beforeAll(async () => {
    // The same server options as src/app.ts, with the errors and request-id plugins and test routes.
    const instance = Fastify({
      logger: loggerOptions({ level: 'debug', stream: testLogStream }),
      genReqId: requestIdOf,
      bodyLimit: 1024,
      ajv: { customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true } },
    }).withTypeProvider<TypeBoxTypeProvider>();
    await instance.register(errorHandlerPlugin, dataPlaneErrors);
    await instance.register(requestIdPlugin);
    instance.post(
      '/echo',
      {
        schema: {
          body: Type.Object({ name: Type.String({ minLength: 1 }), count: Type.Optional(Type.Integer({ minimum: 0 })) }),
          querystring: PageQuerySchema(PAGE_SIZES.personalRaffles),
        },
      },
      async (request) => ({ ok: true, name: request.body.name }),
    );
    instance.get('/throw/:kind', async (request) => {
      const kind = (request.params as { kind: string }).kind;
      if (kind === 'api-401') throw new DomainError('API_KEY_INVALID', 'the API key is not recognised');
      if (kind === 'api-409') throw new DomainError('RAFFLE_FULL', 'no spots left');
      if (kind === 'api-422') {
        throw new DomainError('REQUIREMENTS_NOT_MET', 'requirements not met', {
          failedRequirements: [{ type: 'wallet_connected', label: 'Connect a wallet' }],
        });
      }
      if (kind === 'domain-422') {
        throw new DomainError('REQUIREMENTS_NOT_MET', 'you do not meet every requirement of this raffle', {
          failedRequirements: [{ type: 'email_verified', label: 'Verify your email' }],
        });
      }
      if (kind === 'domain-409') throw new DomainError('RAFFLE_NOT_OPEN', 'the raffle is closed');
      if (kind === 'plain') throw new Error('password=hunter2 at /srv/app/db.ts:12:3 select * from api_keys where id = $1');
      if (kind === 'type-error') return (undefined as unknown as { x: { y: number } }).x.y;
      if (kind === 'econnrefused') throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
      if (kind === 'deadlock') throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      if (kind === 'http-403') throw Object.assign(new Error('Forbidden'), { status: 403, statusCode: 403, expose: true });
      if (kind === 'http-416') throw Object.assign(new Error('Range Not Satisfiable'), { status: 416, statusCode: 416, expose: true });
      return { ok: true };
    });
    await instance.ready();
    tiny = instance as unknown as FastifyInstance;
  });
  afterAll(async () => {
    await tiny?.close();
  });

  const post = (payload: string, contentType = 'application/json', url = '/echo') =>
    tiny.inject({ method: 'POST', url, headers: { 'content-type': contentType }, payload });

  it('answers a body over the limit 413 PAYLOAD_TOO_LARGE', async () => {
    expectErrorBody(await post(JSON.stringify({ name: 'x'.repeat(2048) })), 'POST', 413, 'PAYLOAD_TOO_LARGE');
  });

  // Fastify also parses text/plain by default; such a body then fails the schema (400 VALIDATION_FAILED).
  it('answers a body in a media type no parser accepts 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const contentType of ['application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/octet-stream']) {
      expectErrorBody(await post('name=x', contentType), 'POST', 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
  });

  // Only a route whose body is optional (config optionalBody) takes an empty or blank body as none.
  it('answers malformed, empty and blank JSON 400 MALFORMED_JSON', async () => {
    for (const payload of ['{"name":', '{name: 1}', '[1,]', 'nul', ' \n']) {
      const body = expectErrorBody(await post(payload), 'POST', 400, 'MALFORMED_JSON');
      expect(body.message).toBe('request body is not valid JSON');
    }
    expectErrorBody(await post(''), 'POST', 400, 'MALFORMED_JSON');
  });

  it('answers a schema violation 400 VALIDATION_FAILED naming the field', async () => {
    const body = expectErrorBody(await post(JSON.stringify({ count: -1 })), 'POST', 400, 'VALIDATION_FAILED');
    expect(Array.isArray(body.message)).toBe(true);
    expect((body.message as string[]).join(' ')).toMatch(/name/);
    expect(expectErrorBody(await post(JSON.stringify({ name: 'a', count: 'many' })), 'POST', 400, 'VALIDATION_FAILED').message.toString()).toMatch(/count/);
  });

  it('answers a bad limit 400 INVALID_LIMIT with a single message, and a bad cursor 400 INVALID_CURSOR', async () => {
    for (const limit of ['0', '101', 'abc', '-1', '2.5']) {
      const body = expectErrorBody(await post(JSON.stringify({ name: 'a' }), 'application/json', `/echo?limit=${limit}`), 'POST', 400, 'INVALID_LIMIT');
      expect(typeof body.message).toBe('string');
    }
    expectErrorBody(await post(JSON.stringify({ name: 'a' }), 'application/json', `/echo?cursor=${'c'.repeat(513)}`), 'POST', 400, 'INVALID_CURSOR');
    const ok = await post(JSON.stringify({ name: 'a' }), 'application/json', '/echo?limit=100');
    expect(ok.statusCode).toBe(200);
  });

  it('answers a refusal thrown by the service itself with its catalogue status, code, message and failed requirements; 401 adds WWW-Authenticate', async () => {
    const unauthorized = await tiny.inject({ url: '/throw/api-401' });
    expectErrorBody(unauthorized, 'GET', 401, 'API_KEY_INVALID');
    expect(unauthorized.headers['www-authenticate']).toBe('Bearer');
    const conflict = await tiny.inject({ url: '/throw/api-409' });
    expect(expectErrorBody(conflict, 'GET', 409, 'RAFFLE_FULL').message).toBe('no spots left');
    expect(conflict.headers['www-authenticate']).toBeUndefined();
    const unprocessable = expectErrorBody(await tiny.inject({ url: '/throw/api-422' }), 'GET', 422, 'REQUIREMENTS_NOT_MET');
    expect((unprocessable as unknown as { failedRequirements: unknown }).failedRequirements).toEqual([{ type: 'wallet_connected', label: 'Connect a wallet' }]);
  });

  it('answers a DomainError with its code and status, and the failed requirements when it names them', async () => {
    const conflict = expectErrorBody(await tiny.inject({ url: '/throw/domain-409' }), 'GET', 409, 'RAFFLE_NOT_OPEN');
    expect(conflict.message).toBe('the raffle is closed');
    expect(conflict).not.toHaveProperty('failedRequirements');
    const unprocessable = expectErrorBody(await tiny.inject({ url: '/throw/domain-422' }), 'GET', 422, 'REQUIREMENTS_NOT_MET');
    expect((unprocessable as unknown as { failedRequirements: unknown }).failedRequirements).toEqual([{ type: 'email_verified', label: 'Verify your email' }]);
  });

  it('answers an unexpected error 500 INTERNAL_ERROR with no detail, and logs it', async () => {
    for (const kind of ['plain', 'type-error']) {
      const res = await tiny.inject({ url: `/throw/${kind}` });
      const body = expectErrorBody(res, 'GET', 500, 'INTERNAL_ERROR');
      expect(body.message).toBe('internal error');
      expect(res.body).not.toMatch(/hunter2|api_keys|db\.ts|undefined|reading/);
      expect(leakFindings(res.body)).toEqual([]);
      expect(capturedLogLines.some((l) => l.includes(body.requestId!) && l.includes('"level":50'))).toBe(true);
    }
  });

  it('answers a refused dependency connection 503 SERVICE_UNAVAILABLE with Retry-After', async () => {
    const res = await tiny.inject({ url: '/throw/econnrefused' });
    const body = expectErrorBody(res, 'GET', 503, 'SERVICE_UNAVAILABLE');
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body).not.toMatch(/10\.0\.0\.5|5432|ECONNREFUSED/);
    expect(body.message).not.toMatch(/connect/);
  });

  it('answers a transaction Postgres rolled back to break a deadlock 503 SERVICE_UNAVAILABLE with Retry-After, not a 500', async () => {
    const res = await tiny.inject({ url: '/throw/deadlock' });
    expectErrorBody(res, 'GET', 503, 'SERVICE_UNAVAILABLE');
    expect(res.headers['retry-after']).toBe('1');
  });

  it('keeps a 4xx thrown by a framework plugin (http-errors style, e.g. @fastify/static\'s 403) a 4xx, not a 500', async () => {
    for (const [kind, status] of [['http-403', 403], ['http-416', 416]] as const) {
      const res = await tiny.inject({ url: `/throw/${kind}` });
      expect(res.statusCode, `${kind}: ${res.body}`).toBe(status);
      expect(responseViolations(res, { method: 'GET' }), res.body).toEqual([]);
    }
  });
});

describe('request ids', () => {
  it('echoes a well-formed X-Request-Id in the header and the body', async () => {
    for (const id of ['trace-123:abc_DEF.9', 'a', 'x'.repeat(128), '00000000-0000-4000-8000-000000000000']) {
      const res = await app.inject({ url: '/api/v1/me', headers: { 'x-request-id': id } });
      expect(res.headers['x-request-id']).toBe(id);
      expect(expectErrorBody(res, 'GET', 401, 'API_KEY_MISSING').requestId).toBe(id);
    }
    const ok = await app.inject({ url: '/api/v1/me', headers: { ...personal(), 'x-request-id': 'ok-trace-1' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-request-id']).toBe('ok-trace-1');
  });

  it('replaces a malformed X-Request-Id (spaces, 200 or 129 chars, separators, non-ASCII, empty) with a generated req_ id', async () => {
    const seen = new Set<string>();
    for (const id of ['has spaces', 'r'.repeat(200), 'r'.repeat(129), 'semi;colon', 'a/b', '<script>', 'caf\u00e9', '']) {
      const res = await app.inject({ url: '/api/v1/nope', headers: { 'x-request-id': id } });
      const header = String(res.headers['x-request-id']);
      expect(header, JSON.stringify(id)).toMatch(REQUEST_ID);
      expect(header).not.toBe(id);
      expect(expectErrorBody(res, 'GET', 404, 'ROUTE_NOT_FOUND').requestId).toBe(header);
      seen.add(header);
    }
    expect(seen.size, 'every request gets its own id').toBe(8);
  });

  it('generates a distinct req_ id per request when none is sent, also on success', async () => {
    const a = await app.inject({ url: '/api/v1/me', headers: personal() });
    const b = await app.inject({ url: '/api/v1/me', headers: personal() });
    expect(a.headers['x-request-id']).toMatch(REQUEST_ID);
    expect(b.headers['x-request-id']).toMatch(REQUEST_ID);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});

describe('rate limits', () => {
  let limited: FastifyInstance;
  const RATE_LIMIT = /^"default";r=(\d+);t=(\d+)$/;

  beforeAll(async () => {
    limited = await buildTestApp(db.database, db.url, {
      RATE_LIMIT_PERSONAL_MAX: '2',
      RATE_LIMIT_WORKSPACE_MAX: '3',
      RATE_LIMIT_ANONYMOUS_MAX: '2',
    });
  });
  afterAll(async () => {
    await limited?.close();
  });

  const parseRateLimit = (value: unknown) => {
    const m = RATE_LIMIT.exec(String(value));
    expect(m, `ratelimit header ${String(value)}`).not.toBeNull();
    return { r: Number(m![1]), t: Number(m![2]) };
  };

  it('refuses a personal key\'s third request with 429 RATE_LIMITED, Retry-After and the IETF draft headers', async () => {
    const headers = { authorization: `Bearer ${tenant.keys.personal}` };
    const statuses: number[] = [];
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await limited.inject({ url: '/api/v1/me', headers });
      statuses.push(res.statusCode);
      expect(res.headers['ratelimit-policy']).toBe('"default";q=2;w=60');
      const { r, t } = parseRateLimit(res.headers.ratelimit);
      remaining.push(r);
      expect(t).toBeGreaterThan(0);
      expect(t).toBeLessThanOrEqual(60);
      for (const legacy of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(res.headers[legacy]).toBeUndefined();
      if (i === 2) {
        expectErrorBody(res, 'GET', 429, 'RATE_LIMITED');
        const retryAfter = Number(res.headers['retry-after']);
        expect(Number.isInteger(retryAfter)).toBe(true);
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(60);
      }
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(remaining).toEqual([1, 0, 0]);
  });

  it('keeps a separate budget per key and per key type', async () => {
    const other = await limited.inject({ url: '/api/v1/me', headers: { authorization: `Bearer ${tenant.keys.personalWithout['wins:read']}` } });
    expect(other.statusCode).toBe(200);
    expect(parseRateLimit(other.headers.ratelimit).r).toBe(1);
    const ws = await limited.inject({ url: `/api/v1/workspaces/${tenant.workspace.id}/raffles`, headers: { authorization: `Bearer ${tenant.keys.workspace}` } });
    expect(ws.statusCode).toBe(200);
    expect(ws.headers['ratelimit-policy']).toBe('"default";q=3;w=60');
    expect(parseRateLimit(ws.headers.ratelimit).r).toBe(2);
  });

  it('limits unauthenticated requests per IP with RATE_LIMIT_ANONYMOUS_MAX, invalid keys included', async () => {
    const from = (remoteAddress: string, headers: Record<string, string> = {}) => limited.inject({ url: '/api/v1/raffles', remoteAddress, headers });
    const first = await from('10.9.0.1');
    expectErrorBody(first, 'GET', 401, 'API_KEY_MISSING');
    expect(first.headers['ratelimit-policy']).toBe('"default";q=2;w=60');
    expectErrorBody(await from('10.9.0.1', { authorization: 'Bearer svc_u_not-a-real-key' }), 'GET', 401, 'API_KEY_INVALID');
    const third = await from('10.9.0.1');
    expectErrorBody(third, 'GET', 429, 'RATE_LIMITED');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expectErrorBody(await from('10.9.0.1', { authorization: 'Bearer svc_u_not-a-real-key' }), 'GET', 429, 'RATE_LIMITED');
    // Another address has its own budget; a valid key from the exhausted address has the key's budget.
    expectErrorBody(await from('10.9.0.2'), 'GET', 401, 'API_KEY_MISSING');
    const keyed = await from('10.9.0.1', { authorization: `Bearer ${tenant.keys.workspaceWithout['projects:read']}` });
    expectErrorBody(keyed, 'GET', 403, 'WRONG_KEY_TYPE');
    expect(keyed.headers['ratelimit-policy']).toBe('"default";q=3;w=60');
  });

  it('does not limit or label paths outside /api/v1', async () => {
    for (let i = 0; i < 4; i++) {
      const res = await limited.inject({ url: '/health/live', remoteAddress: '10.9.0.3' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-policy']).toBeUndefined();
    }
  });
});

describe('a database failure', () => {
  let own: TestDatabase;
  let broken: FastifyInstance;
  let ownTenant: Tenant;

  beforeAll(async () => {
    own = await createTestDatabase();
    ownTenant = await seedTenant(own.database);
    broken = await buildTestApp(own.database, own.url, { API_KEY_CACHE_TTL_MS: '600000' });
    // Warm the key cache for one key, so one request gets past auth and fails in the handler.
    const warm = await broken.inject({ url: '/api/v1/wins', headers: { authorization: `Bearer ${ownTenant.keys.personal}` } });
    expect(warm.statusCode).toBe(200);
    const warmWs = await broken.inject({
      url: `/api/v1/workspaces/${ownTenant.workspace.id}/raffles/${ownTenant.finalized.id}`,
      headers: { authorization: `Bearer ${ownTenant.keys.workspace}` },
    });
    expect(warmWs.statusCode).toBe(200);
    await own.database.close();
  });
  afterAll(async () => {
    await broken?.close();
    await own?.drop();
  });

  it.each([
    ['a handler query (key cached, postgres.js)', () => '/api/v1/me', () => ownTenant.keys.personal],
    ['a drizzle query in a handler', () => `/api/v1/workspaces/${ownTenant.workspace.id}/raffles/${ownTenant.finalized.id}`, () => ownTenant.keys.workspace],
    ['the key lookup during authentication', () => '/api/v1/wins', () => ownTenant.keys.personalWithout['profile:read']!],
  ])('in %s answers 500/503 with the error body and nothing internal', async (_where, url, key) => {
    const res = await broken.inject({ url: url(), headers: { authorization: `Bearer ${key()}` } });
    expect([500, 503]).toContain(res.statusCode);
    const body = expectErrorBody(res, 'GET', res.statusCode, res.statusCode === 503 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_ERROR');
    expect(leakFindings(res.body)).toEqual([]);
    expect(res.body).not.toMatch(/postgres|CONNECTION_|select |from "?\w|\bat \w+ \(|node_modules|\.ts:\d/i);
    expect(body.message).toMatch(/^(internal error|a dependency is unavailable; retry shortly)$/);
    // Not swallowed: the failure is in the logs under the same request id.
    expect(capturedLogLines.some((l) => l.includes(body.requestId!) && l.includes('"level":50'))).toBe(true);
  });

  it('reports not ready while the database is gone', async () => {
    const res = await broken.inject({ url: '/health/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'unavailable', checks: { database: 'unavailable' } });
  });
});
