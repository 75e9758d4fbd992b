import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { freePort } from '@raffle/service-kit/testing/faults';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { consoleLogStream } from './support/console-log.js';
import { startSilentUpstream, startUpstreamStub, type StubAnswer } from './support/upstream-stub.js';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c3JfdGVzdCJ9.c2lnbmF0dXJlLW5vdC1jaGVja2VkLWhlcmU';

let app: FastifyInstance;
let staticDir: string;
let management: Awaited<ReturnType<typeof startUpstreamStub>>;
let dataPlane: Awaited<ReturnType<typeof startUpstreamStub>>;
const logLines: string[] = [];

async function buildConsole(overrides: Record<string, string>): Promise<FastifyInstance> {
  const config = loadConfig({ STATIC_DIR: staticDir, LOG_LEVEL: 'trace', ...overrides });
  return buildApp(config, { logStream: consoleLogStream(logLines) });
}

beforeAll(async () => {
  staticDir = await mkdtemp(path.join(tmpdir(), 'console-static-'));
  await mkdir(path.join(staticDir, 'assets'));
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>console</title><script type="module" src="/assets/index-abc123.js"></script>');
  await writeFile(path.join(staticDir, 'assets', 'index-abc123.js'), 'console.log("app")');
  management = await startUpstreamStub((request): StubAnswer =>
    request.url.startsWith('/api/developer/missing')
      ? { status: 404, headers: { 'content-type': 'application/json', 'x-request-id': 'req_upstream' }, body: '{"statusCode":404,"message":"NOT_FOUND: no"}' }
      : { status: 201, headers: { 'content-type': 'application/json', 'x-custom': 'kept', etag: '"v1"' }, body: JSON.stringify({ echoed: request.body }) },
  );
  dataPlane = await startUpstreamStub(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"from":"data-plane"}' }));
  app = await buildConsole({ MANAGEMENT_URL: management.url, DATA_PLANE_URL: dataPlane.url });
});

afterAll(async () => {
  await app?.close();
  await management?.close();
  await dataPlane?.close();
  await rm(staticDir, { recursive: true, force: true });
});

describe('the proxies', () => {
  it('pass a management call through: method, path, query, body, Authorization; status, headers and body back', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/developer/personal/api-keys?x=1',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'x-request-id': 'req_from_browser' },
      payload: '{"name":"ci"}',
    });
    expect(response.statusCode).toBe(201);
    expect(response.headers['x-custom']).toBe('kept');
    expect(response.headers.etag).toBe('"v1"');
    expect(response.json()).toEqual({ echoed: '{"name":"ci"}' });
    const forwarded = management.requests.at(-1)!;
    expect(forwarded).toMatchObject({ method: 'POST', url: '/api/developer/personal/api-keys?x=1', body: '{"name":"ci"}' });
    expect(forwarded.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(forwarded.headers['x-request-id']).toBe('req_from_browser');
  });

  it('keep the upstream error status and body, and its request id', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/developer/missing', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: 404, message: 'NOT_FOUND: no' });
    expect(response.headers['x-request-id']).toBe('req_upstream');
  });

  it('send /api/dashboard to management and /api/v1 and /public/v1 to the data plane', async () => {
    await app.inject({ method: 'GET', url: '/api/dashboard/workspaces' });
    expect(management.requests.at(-1)!.url).toBe('/api/dashboard/workspaces');
    for (const url of ['/api/v1/me', '/public/v1/raffles/summer/draw']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.json()).toEqual({ from: 'data-plane' });
      expect(dataPlane.requests.at(-1)!.url).toBe(url);
    }
  });

  it('never log the Authorization header', async () => {
    await app.inject({ method: 'GET', url: '/api/developer/personal/api-keys', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.filter((line) => line.includes(TOKEN))).toEqual([]);
  });

  it('answer 502 with a JSON error body when the upstream is down', async () => {
    const down = await buildConsole({ MANAGEMENT_URL: `http://127.0.0.1:${await freePort()}`, DATA_PLANE_URL: `http://127.0.0.1:${await freePort()}` });
    try {
      const mgmt = await down.inject({ method: 'GET', url: '/api/developer/personal/api-keys' });
      expect(mgmt.statusCode).toBe(502);
      expect(mgmt.headers['content-type']).toMatch(/application\/json/);
      expect(mgmt.json()).toMatchObject({ statusCode: 502, error: 'Bad Gateway', message: expect.stringMatching(/^SERVICE_UNAVAILABLE: the management service/) });
      expect(mgmt.json()).not.toHaveProperty('code');
      expect(mgmt.headers['retry-after']).toBe('1');
      const data = await down.inject({ method: 'GET', url: '/public/v1/raffles/x/draw' });
      expect(data.statusCode).toBe(502);
      expect(data.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', requestId: expect.any(String) });
      expect(data.headers['retry-after']).toBe('1');
    } finally {
      await down.close();
    }
  });

  it('answer 502 with the error body and Retry-After when the upstream does not answer within PROXY_TIMEOUT_MS', async () => {
    const silent = await startSilentUpstream();
    const waiting = await buildConsole({ MANAGEMENT_URL: silent.url, DATA_PLANE_URL: silent.url, PROXY_TIMEOUT_MS: '300' });
    try {
      for (const [url, hasCode] of [['/api/dashboard/workspaces', false], ['/api/v1/me', true]] as const) {
        const response = await waiting.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(502);
        expect(response.headers['retry-after'], url).toBe('1');
        expect(response.headers['cache-control'], url).toBe('no-store');
        expect(response.json(), url).toMatchObject({ statusCode: 502, message: expect.stringMatching(/^SERVICE_UNAVAILABLE: /) });
        expect('code' in response.json(), url).toBe(hasCode);
      }
    } finally {
      await waiting.close();
      await silent.close();
    }
  });
});

/** One request written by hand on a socket (targets no HTTP client would send as given); the raw answer. */
async function rawRequest(server: FastifyInstance, head: string): Promise<{ status: number; text: string }> {
  const { port } = server.server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  socket.write(`${head}\r\nhost: console.test\r\nconnection: close\r\n\r\n`);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString();
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]), text };
}

describe('the proxies at the edges', () => {
  let listening: FastifyInstance;
  beforeAll(async () => {
    listening = await buildConsole({ MANAGEMENT_URL: management.url, DATA_PLANE_URL: dataPlane.url });
    await listening.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => listening?.close());

  it('resolve dot segments before the prefix check: an encoded ../ never reaches an upstream path outside the prefix', async () => {
    const before = management.requests.length + dataPlane.requests.length;
    for (const target of [
      '/api/developer/%2e%2e/%2e%2e/metrics',
      '/api/dashboard/%2E%2E/%2e%2E/docs',
      '/api/v1/%2e%2e/%2e%2e/metrics',
      '/public/v1/.%2e/%2e./openapi.json',
      '/api/v1/../../metrics',
    ]) {
      const answer = await rawRequest(listening, `GET ${target} HTTP/1.1`);
      expect(answer.status, target).toBe(404);
      expect(answer.text, target).not.toMatch(/http_request_duration_seconds|from":"data-plane|echoed/);
    }
    expect(management.requests.length + dataPlane.requests.length, 'nothing went upstream').toBe(before);
    // Dot segments that stay inside the prefix are resolved and sent on.
    await rawRequest(listening, 'GET /api/v1/raffles/%2e%2e/me HTTP/1.1');
    expect(dataPlane.requests.at(-1)!.url).toBe('/api/v1/me');
  });

  it('send an absolute-form target on by its path, and keep its query out of the log', async () => {
    const secret = 'svc_u_absolute_form_secret_key';
    const answer = await rawRequest(listening, `GET http://elsewhere.example/api/v1/me?api_key=${secret} HTTP/1.1`);
    expect(answer.status).toBe(200);
    expect(dataPlane.requests.at(-1)!.url).toBe(`/api/v1/me?api_key=${secret}`);
    expect(logLines.filter((line) => line.includes(secret))).toEqual([]);
  });
});

describe('the visitor\'s address', () => {
  it('goes upstream as X-Forwarded-For, one per visitor, replacing one the visitor sent', async () => {
    await app.inject({ method: 'POST', url: '/api/v1/raffles/summer/entries', remoteAddress: '203.0.113.7' });
    expect(dataPlane.requests.at(-1)!.headers['x-forwarded-for']).toBe('203.0.113.7');
    await app.inject({ method: 'POST', url: '/api/v1/raffles/summer/entries', remoteAddress: '203.0.113.8', headers: { 'x-forwarded-for': '198.51.100.1' } });
    expect(dataPlane.requests.at(-1)!.headers['x-forwarded-for']).toBe('203.0.113.8');
    await app.inject({ method: 'GET', url: '/api/dashboard/workspaces', remoteAddress: '203.0.113.9' });
    expect(management.requests.at(-1)!.headers['x-forwarded-for']).toBe('203.0.113.9');
  });

  it('keeps the chain a trusted proxy wrote (TRUST_PROXY), with the proxy\'s address after it', async () => {
    const behindIngress = await buildConsole({ MANAGEMENT_URL: management.url, DATA_PLANE_URL: dataPlane.url, TRUST_PROXY: 'true' });
    try {
      await behindIngress.inject({ method: 'GET', url: '/public/v1/raffles/summer/draw', remoteAddress: '10.0.0.2', headers: { 'x-forwarded-for': '198.51.100.1' } });
      expect(dataPlane.requests.at(-1)!.headers['x-forwarded-for']).toBe('198.51.100.1, 10.0.0.2');
    } finally {
      await behindIngress.close();
    }
  });
});

describe('request bodies', () => {
  it('past PROXY_BODY_LIMIT_BYTES are answered 413 here, declared or chunked, and never sent upstream', async () => {
    const before = management.requests.length + dataPlane.requests.length;
    const declared = await app.inject({
      method: 'POST',
      url: '/api/v1/raffles/summer/entries',
      headers: { 'content-type': 'application/json' },
      payload: `{"pad":"${'x'.repeat(1024 * 1024)}"}`,
    });
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: expect.stringMatching(/^PAYLOAD_TOO_LARGE: /) });
    const chunked = await app.inject({
      method: 'POST',
      url: '/api/dashboard/workspaces',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      payload: Readable.from(Array.from({ length: 100 }, () => Buffer.alloc(4096, 0x20))),
    });
    expect(chunked.statusCode).toBe(413);
    expect(chunked.json()).not.toHaveProperty('code');
    expect(management.requests.length + dataPlane.requests.length - before, 'no whole body went upstream').toBeLessThanOrEqual(1);
    expect(management.requests.filter((r) => r.body.length > 65_536)).toEqual([]);
  });
});

describe('Expect: 100-continue', () => {
  // curl sends it with any body over 1 MiB; undici refuses to send a request that carries it.
  it('is answered here (Node sends the 100), not passed upstream: GET and POST reach the upstream', async () => {
    const get = await app.inject({ method: 'GET', url: '/api/v1/me', headers: { expect: '100-continue' } });
    expect(get.statusCode, get.body).toBe(200);
    expect(get.json()).toEqual({ from: 'data-plane' });
    expect(dataPlane.requests.at(-1)!.headers.expect).toBeUndefined();
    const post = await app.inject({
      method: 'POST',
      url: '/api/dashboard/workspaces',
      headers: { expect: '100-continue', 'content-type': 'application/json' },
      payload: '{"name":"big"}',
    });
    expect(post.statusCode, post.body).toBe(201);
    expect(post.json()).toEqual({ echoed: '{"name":"big"}' });
    expect(management.requests.at(-1)!.headers.expect).toBeUndefined();
  });
});

describe('the app', () => {
  it('serves index.html for client routes, uncached', async () => {
    for (const url of ['/', '/personal/keys', '/w/wsp_1/raffles/raf_2', '/sign-in', '/verify/summer']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<title>console</title>');
    }
  });

  it('caches hashed assets for a year', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404, not the app, for unknown API and asset paths', async () => {
    for (const url of ['/api/unknown', '/public/other', '/assets/missing.js', '/health/nope']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/application\/json/);
    }
  });

  it('sends the security headers with every answer', async () => {
    for (const url of ['/personal/keys', '/assets/index-abc123.js', '/api/v1/me', '/health/live']) {
      const response = await app.inject({ method: 'GET', url });
      const csp = String(response.headers['content-security-policy']);
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
    }
  });

  it('answers /metrics with its own metrics, not the app', async () => {
    await app.inject({ method: 'GET', url: '/personal/keys' });
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toContain('http_request_duration_seconds');
    expect(response.body).toContain('service="console"');
  });

  it('reports liveness and readiness', async () => {
    expect((await app.inject({ method: 'GET', url: '/health/live' })).json()).toEqual({ status: 'ok' });
    expect((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
    const unbuilt = await buildConsole({ STATIC_DIR: path.join(staticDir, 'nowhere') });
    try {
      expect((await unbuilt.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(503);
    } finally {
      await unbuilt.close();
    }
  });
});

describe('the config', () => {
  it('refuses upstream URLs that are not http(s)', () => {
    expect(() => loadConfig({ MANAGEMENT_URL: 'ftp://x' })).toThrow(/MANAGEMENT_URL/);
  });
});
