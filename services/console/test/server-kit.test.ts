import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@raffle/service-kit/testing/faults';
import { RUN_LOG_DIR_VARIABLE } from '@raffle/service-kit/testing/run-log';
import { scanRunLogs } from '@raffle/service-kit/testing/run-log-scan';
import type { FastifyInstance } from 'fastify';
import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { consoleLogStream } from './support/console-log.js';
import { selfSignedCertificate } from './support/self-signed-certificate.js';
import { startUpstreamStub } from './support/upstream-stub.js';

// Run alone (no `pnpm test` naming a run log), this file keeps a run log of its own to check its lines reach one.
process.env[RUN_LOG_DIR_VARIABLE] ||= path.join(tmpdir(), `console-run-log-${process.pid}-${Date.now()}`);

/** What the console is since it is built on the service kit (issue 23): the kit's answers, in the console's error body. */
let staticDir: string;
let upstream: Awaited<ReturnType<typeof startUpstreamStub>>;
const logLines: string[] = [];

async function buildConsole(overrides: Record<string, string> = {}): Promise<FastifyInstance> {
  const config = loadConfig({ STATIC_DIR: staticDir, LOG_LEVEL: 'trace', MANAGEMENT_URL: upstream.url, DATA_PLANE_URL: upstream.url, ...overrides });
  return buildApp(config, { logStream: consoleLogStream(logLines) });
}

/** One request written by hand on a socket; the raw answer. */
async function rawRequest(server: FastifyInstance, text: string): Promise<string> {
  const { port } = server.server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  socket.write(text);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

beforeAll(async () => {
  staticDir = await mkdtemp(path.join(tmpdir(), 'console-kit-'));
  await writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>console</title>');
  upstream = await startUpstreamStub(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }));
});

afterAll(async () => {
  await upstream?.close();
  await rm(staticDir, { recursive: true, force: true });
});

describe('the console on the service kit', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildConsole();
  });
  afterAll(async () => app?.close());

  it('gives every answer a request id, keeping a well-formed one the caller sent', async () => {
    expect((await app.inject({ url: '/health/live' })).headers['x-request-id']).toMatch(/^req_/);
    expect((await app.inject({ url: '/personal/keys', headers: { 'x-request-id': 'req_from_browser' } })).headers['x-request-id']).toBe('req_from_browser');
  });

  it('answers unknown paths in its error body, management\'s', async () => {
    const management = await app.inject({ url: '/api/unknown?token=x' });
    expect(management.statusCode).toBe(404);
    expect(management.json()).toMatchObject({ statusCode: 404, error: 'Not Found', message: expect.stringMatching(/^ROUTE_NOT_FOUND: /), path: '/api/unknown' });
    expect(management.json()).not.toHaveProperty('code');
  });

  it('answers a URL that is not valid percent-encoding 400 MALFORMED_URL, in its body', async () => {
    const answer = await app.inject({ url: '/api/developer/%E0%A4%A' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ statusCode: 400, message: expect.stringMatching(/^MALFORMED_URL: /) });
  });

  it('documents its readiness check as the kit reports it', async () => {
    expect((await app.inject({ url: '/health/ready' })).json()).toEqual({ status: 'ready', checks: { app: 'ok' } });
  });

  it('serves no OpenAPI document of its own: /openapi.json and /docs are the app\'s client routes', async () => {
    for (const url of ['/openapi.json', '/docs']) {
      const answer = await app.inject({ url });
      expect(answer.headers['content-type'], url).toMatch(/text\/html/);
    }
  });
});

describe('the console at the edges of HTTP', () => {
  let listening: FastifyInstance;
  beforeAll(async () => {
    listening = await buildConsole({ HTTP_SHUTDOWN_DRAIN_MS: '400' });
    await listening.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => listening?.close());

  it('answers what the HTTP parser refuses 400 with its error body and a request id', async () => {
    const answer = await rawRequest(listening, 'GET /personal/keys HTTP/1.1\r\nhost: console.test\r\nbad header\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toMatch(/x-request-id: req_/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ statusCode: 400, message: expect.stringMatching(/^MALFORMED_REQUEST: /) });
  });

  it('answers a data-plane path that resolves outside its prefix 404 in the data plane\'s body (with `code`)', async () => {
    const answer = await rawRequest(listening, 'GET /api/v1/%2e%2e/%2e%2e/metrics HTTP/1.1\r\nhost: console.test\r\nconnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 404/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ statusCode: 404, code: 'ROUTE_NOT_FOUND' });
  });

  it('while shutting down answers a request on an open connection 503, in its body, with Retry-After', async () => {
    const { port } = listening.server.address() as AddressInfo;
    const client = new Client(`http://127.0.0.1:${port}`);
    try {
      expect((await client.request({ path: '/health/live', method: 'GET' })).statusCode).toBe(200);
      const closing = listening.close();
      const answer = await client.request({ path: '/api/v1/me', method: 'GET' });
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBe('1');
      expect(await answer.body.json()).toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/^SERVICE_UNAVAILABLE: /) });
      await closing;
    } finally {
      await client.close();
    }
  });
});

describe('the visitor\'s address under the trust rule', () => {
  it('keeps the chain only from a listed peer (TRUST_PROXY as addresses and CIDRs)', async () => {
    const app = await buildConsole({ TRUST_PROXY: '10.0.0.0/24' });
    try {
      await app.inject({ url: '/api/v1/me', remoteAddress: '10.0.0.2', headers: { 'x-forwarded-for': '198.51.100.1' } });
      expect(upstream.requests.at(-1)!.headers['x-forwarded-for']).toBe('198.51.100.1, 10.0.0.2');
      await app.inject({ url: '/api/v1/me', remoteAddress: '10.0.1.2', headers: { 'x-forwarded-for': '198.51.100.1' } });
      expect(upstream.requests.at(-1)!.headers['x-forwarded-for']).toBe('10.0.1.2');
    } finally {
      await app.close();
    }
  });

  it('refuses a TRUST_PROXY that is no rule at start', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'the ingress' })).toThrow(/TRUST_PROXY/);
  });
});

describe('an upstream that does not answer', () => {
  it('is logged by the error\'s code, never with the query', async () => {
    const down = await buildConsole({ DATA_PLANE_URL: `http://127.0.0.1:${await freePort()}` });
    const secret = 'svc_u_query_secret_of_a_failed_request';
    try {
      const answer = await down.inject({ url: `/api/v1/me?api_key=${secret}` });
      expect(answer.statusCode).toBe(502);
      expect(logLines.some((line) => line.includes('upstream did not answer'))).toBe(true);
      expect(logLines.filter((line) => line.includes(secret))).toEqual([]);
    } finally {
      await down.close();
    }
  });
});

describe('an upstream that answers 503', () => {
  it('has its answer passed on once, not retried: the browser\'s SDK retries what Retry-After tells it', async () => {
    const unavailable = await startUpstreamStub(() => ({ status: 503, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: '{"statusCode":503}' }));
    const app = await buildConsole({ DATA_PLANE_URL: unavailable.url });
    try {
      const answer = await app.inject({ url: '/api/v1/me' });
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBe('1');
      expect(unavailable.requests).toHaveLength(1);
    } finally {
      await app.close();
      await unavailable.close();
    }
  });
});

describe('an https upstream', () => {
  it('is refused unless its certificate is trusted: reply-from would not check it unless told', async () => {
    let reached = 0;
    const upstreamTls = createHttpsServer(
      selfSignedCertificate(),
      (_request, response) => {
        reached += 1;
        response.end('{}');
      },
    );
    await new Promise<void>((resolve) => upstreamTls.listen(0, '127.0.0.1', resolve));
    const { port } = upstreamTls.address() as AddressInfo;
    const app = await buildConsole({ MANAGEMENT_URL: `https://127.0.0.1:${port}` });
    try {
      const answer = await app.inject({ url: '/api/developer/personal/api-keys' });
      expect(answer.statusCode).toBe(502);
      expect(reached, 'no request reached the untrusted upstream').toBe(0);
    } finally {
      await app.close();
      await new Promise((resolve) => upstreamTls.close(resolve));
    }
  });
});

describe('the console\'s log lines', () => {
  it('reach the run\'s log scan in files of their own, and it finds nothing in them', () => {
    const report = scanRunLogs(process.env[RUN_LOG_DIR_VARIABLE]!);
    expect(report.linesBySource.console).toBeGreaterThan(0);
    expect(report.findings.filter((finding) => path.basename(finding.file).startsWith('console-'))).toEqual([]);
  });
});
