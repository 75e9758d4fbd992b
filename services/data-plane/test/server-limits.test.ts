import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { listenForRawRequests, parseRawResponse } from './support/raw-http.js';
import { seedTenant, type Tenant } from './support/tenant.js';

/**
 * The server's own limits, on a real socket: slow clients are cut off with 408 and the error
 * body, connections past the cap are refused, and a shutting-down instance answers 503 with the
 * error body and `Retry-After` while its idle keep-alive connections end cleanly (FIN, no reset).
 */

let db: TestDatabase;
let tenant: Tenant;

beforeAll(async () => {
  db = await createTestDatabase();
  tenant = await seedTenant(db.database);
});
afterAll(async () => {
  await db?.drop();
});

type Connection = { socket: Socket; received: () => Buffer; ended: Promise<'end' | 'error'> };

function open(port: number): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    const ended = new Promise<'end' | 'error'>((settle) => {
      socket.once('error', () => settle('error'));
      socket.once('close', (hadError) => settle(hadError ? 'error' : 'end'));
    });
    socket.once('connect', () => resolve({ socket, received: () => Buffer.concat(chunks), ended }));
    socket.once('error', reject);
  });
}

async function responseOn(connection: Connection, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const raw = connection.received();
    if (raw.includes('\r\n\r\n')) {
      try {
        return parseRawResponse(raw, 'GET');
      } catch {
        // the body is still arriving
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no response within ${timeoutMs} ms (${connection.received().length} bytes)`);
}

const GET_LIVE = 'GET /health/live HTTP/1.1\r\nHost: localhost\r\n\r\n';

async function listening(overrides: Record<string, string> = {}): Promise<{ app: FastifyInstance; port: number }> {
  const app = await buildTestApp(db.database, db.url, overrides);
  const { port } = await listenForRawRequests(app);
  return { app, port };
}

describe('slow clients', () => {
  it('are answered 408 with the error body when their headers do not arrive in time', async () => {
    const { app, port } = await listening({ HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '5000' });
    try {
      const slow = await open(port);
      slow.socket.write('GET /health/live HTTP/1.1\r\nHost: localhost\r\n');
      const res = await responseOn(slow, 6000);
      expect(res.statusCode).toBe(408);
      expect(JSON.parse(res.body)).toMatchObject({ statusCode: 408, code: 'REQUEST_TIMEOUT' });
      expect(await slow.ended).toBe('end');
    } finally {
      await app.close();
    }
  });

  it('are answered 408 when the body does not arrive within the request timeout', async () => {
    const { app, port } = await listening({ HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '1500' });
    try {
      const slow = await open(port);
      // An authenticated request, so nothing answers before the body is read.
      slow.socket.write(
        `POST /api/v1/raffles/x/entries HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${tenant.keys.personal}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`,
      );
      const res = await responseOn(slow, 6000);
      expect(res.statusCode).toBe(408);
      expect(JSON.parse(res.body)).toMatchObject({ statusCode: 408, code: 'REQUEST_TIMEOUT' });
      slow.socket.destroy();
    } finally {
      await app.close();
    }
  });
});

describe('the connection cap', () => {
  it('refuses connections past HTTP_MAX_CONNECTIONS and serves again once one closes', async () => {
    const { app, port } = await listening({ HTTP_MAX_CONNECTIONS: '2' });
    try {
      const first = await open(port);
      const second = await open(port);
      const third = await open(port);
      expect(await third.ended).toBeDefined();
      expect(third.received().length).toBe(0);
      first.socket.write(GET_LIVE);
      expect((await responseOn(first)).statusCode).toBe(200);
      second.socket.destroy();
      await second.ended;
      const fourth = await open(port);
      fourth.socket.write(GET_LIVE);
      expect((await responseOn(fourth)).statusCode).toBe(200);
      first.socket.destroy();
      fourth.socket.destroy();
    } finally {
      await app.close();
    }
  });
});

describe('shutting down', () => {
  it('answers requests that arrive while closing with 503, the error body and Retry-After; idle keep-alive connections end without a reset', async () => {
    const { app, port } = await listening();
    const idle = await open(port);
    idle.socket.write(GET_LIVE);
    expect((await responseOn(idle)).statusCode).toBe(200);

    // A request whose headers are still arriving keeps the server from finishing its close.
    const late = await open(port);
    late.socket.write('GET /api/v1/raffles HTTP/1.1\r\nHost: localhost\r\n');
    const closed = app.close();
    expect(await idle.ended).toBe('end');

    late.socket.write('\r\n');
    const res = await responseOn(late);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers.connection).toBe('close');
    const body = JSON.parse(res.body) as Record<string, unknown>;
    expect(body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', code: 'SERVICE_UNAVAILABLE', path: '/api/v1/raffles' });
    expect(body.requestId).toBe(res.headers['x-request-id']);
    expect(await late.ended).toBe('end');
    await closed;
  });
});
