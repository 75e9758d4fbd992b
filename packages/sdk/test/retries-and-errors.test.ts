import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpClient } from '../src/http/create-http-client.js';
import { RaffleApiError, RaffleClient, RaffleConnectionError, RaffleTimeoutError } from '../src/index.js';
// The data plane's own fault support, by path as data-plane-service.ts explains.
import { holdRaffles, waitForLockWaits } from '../../../services/data-plane/test/support/held-raffles.js';
import { collectAll, newTestDatabase, seedDataPlaneTenant, startDataPlane, type DataPlane, type Tenant } from './support/data-plane-service.js';

let dataPlane: DataPlane;
let limited: DataPlane;
let tenant: Tenant;

beforeAll(async () => {
  const testDb = await newTestDatabase();
  // Open public raffles, one per write test: a withdrawn entry cannot enter the same raffle again.
  tenant = await seedDataPlaneTenant(testDb, { publicRaffles: 5 });
  dataPlane = await startDataPlane(testDb);
  // The same database behind a second instance with a tiny per-key limit: 2 requests a second.
  limited = await startDataPlane(testDb, { RATE_LIMIT_PERSONAL_MAX: '2', RATE_LIMIT_WINDOW_MS: '1000' });
});

afterAll(async () => {
  await limited?.close();
  await dataPlane?.close();
  await dataPlane?.testDb.drop();
});

type Call = { url: string; method: string; idempotencyKey: string | null };

/** Wraps the real fetch: records each call, and `fault` may replace or spoil an attempt by its number (0-based). */
function faultyFetch(fault: (attempt: number, send: () => Promise<Response>) => Promise<Response>) {
  const calls: Call[] = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    calls.push({ url: String(input), method: init?.method ?? 'GET', idempotencyKey: headers.get('idempotency-key') });
    return fault(calls.length - 1, () => globalThis.fetch(input, init));
  }) as typeof fetch;
  return { fetch: fetchFn, calls };
}

const networkError = () => new TypeError('fetch failed', { cause: new Error('ECONNRESET') });

describe('rate limits (a real 429)', () => {
  it('waits out Retry-After and succeeds', async () => {
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: limited.baseUrl, maxRetries: 3 });
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 4 }, () => client.me.get()));
    expect(results.every((me) => me.id === tenant.owner.id)).toBe(true);
    // Four requests in a 2-a-second window: at least one of them waited for the next window.
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });

  it('with maxRetries 0 throws RaffleApiError 429 RATE_LIMITED with retryAfter', async () => {
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: limited.baseUrl, maxRetries: 0 });
    const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () => client.raffles.list().page()));
    const rejected = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => o.reason as RaffleApiError);
    expect(rejected.length).toBeGreaterThanOrEqual(2);
    for (const error of rejected) {
      expect(error).toBeInstanceOf(RaffleApiError);
      expect(error.status).toBe(429);
      expect(error.code).toBe('RATE_LIMITED');
      expect(error.retryAfter).toBe(1); // the 1-second window
    }
  });
});

describe('idempotent writes', () => {
  it('enter: the first attempt reaches the server, its answer is lost; the retry carries the same key and gets the replay', async () => {
    const answers: Response[] = [];
    const faulty = faultyFetch(async (attempt, send) => {
      const response = await send();
      answers.push(response.clone());
      if (attempt === 0) throw networkError();
      return response;
    });
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl, fetch: faulty.fetch });
    const entry = await client.raffles.enter(tenant.entrable.slug);

    expect(faulty.calls).toHaveLength(2);
    expect(faulty.calls[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(faulty.calls[1]!.idempotencyKey).toBe(faulty.calls[0]!.idempotencyKey);
    expect(answers[0]!.status).toBe(201);
    expect(answers[1]!.headers.get('idempotent-replayed')).toBe('true');
    expect(entry).toEqual(await answers[0]!.json());

    const mine = await collectAll(new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl }).entries.list());
    expect(mine.filter((e) => e.raffleId === tenant.entrable.id)).toHaveLength(1);
  });

  it('uses a caller-given Idempotency-Key, and a fresh one for each call otherwise', async () => {
    const faulty = faultyFetch((_attempt, send) => send());
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl, fetch: faulty.fetch });
    await client.raffles.enter(tenant.publicRaffles[1]!.slug, { idempotencyKey: 'my-key-1' });
    await client.raffles.enter(tenant.publicRaffles[2]!.slug);
    await client.raffles.enter(tenant.publicRaffles[3]!.slug);
    const keys = faulty.calls.filter((c) => c.method === 'POST').map((c) => c.idempotencyKey);
    expect(keys[0]).toBe('my-key-1');
    expect(new Set(keys).size).toBe(3);
  });

  it('does not retry a POST without an Idempotency-Key after a network error', async () => {
    const faulty = faultyFetch(async (_attempt, send) => {
      await send();
      throw networkError();
    });
    const http = createHttpClient({ baseUrl: dataPlane.baseUrl, authorization: `Bearer ${tenant.keys.personal}`, fetch: faulty.fetch, errorCodeSource: 'body' });
    const slug = tenant.publicRaffles[4]!.slug;
    const error = await http.request({ method: 'POST', path: `/api/v1/raffles/${slug}/entries`, body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RaffleConnectionError);
    expect((error as Error).message).toContain('fetch failed');
    expect(faulty.calls).toHaveLength(1);
    // It did reach the server once: exactly one entry exists.
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl });
    const mine = await collectAll(client.entries.list());
    expect(mine.filter((e) => e.raffleId === tenant.publicRaffles[4]!.id)).toHaveLength(1);
  });

  it('does not retry a withdraw (DELETE without a key) after a 503', async () => {
    const faulty = faultyFetch(async () => new Response('{"statusCode":503,"code":"SERVICE_UNAVAILABLE","message":"busy"}', { status: 503 }));
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl, fetch: faulty.fetch });
    await expect(client.raffles.withdraw(tenant.entrable.slug)).rejects.toMatchObject({ status: 503 });
    expect(faulty.calls).toHaveLength(1);
  });
});

describe('a key still in progress on the server (a real 409 IDEMPOTENCY_KEY_IN_PROGRESS)', () => {
  it('waits the Retry-After the server sends, not a backoff, and then gets the first attempt\'s entry replayed', async () => {
    const raffle = tenant.publicRaffles[5]!;
    const idempotencyKey = randomUUID();
    // An earlier attempt with the key (its answer lost to the caller) is still inside its transaction: the test holds the raffle's row.
    const hold = await holdRaffles(dataPlane.testDb.url, [raffle.slug]);
    const earlier = globalThis.fetch(`${dataPlane.baseUrl}/api/v1/raffles/${raffle.slug}/entries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.keys.personal}`, 'idempotency-key': idempotencyKey },
    });
    const answeredAt: number[] = [];
    const sentAt: number[] = [];
    const answers: Response[] = [];
    try {
      await waitForLockWaits(dataPlane.testDb.url, 'raffle', 1);
      const faulty = faultyFetch(async (attempt, send) => {
        sentAt.push(performance.now());
        const response = await send();
        answers.push(response.clone());
        // Once told the key is in progress, the earlier attempt is let finish.
        if (attempt === 0) {
          await hold.release();
          await earlier;
        }
        answeredAt.push(performance.now());
        return response;
      });
      const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl, fetch: faulty.fetch });
      const entry = await client.raffles.enter(raffle.slug, { idempotencyKey });

      expect(answers.map((a) => a.status)).toEqual([409, 201]);
      expect(((await answers[0]!.json()) as { code: string }).code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
      expect(answers[0]!.headers.get('retry-after')).toBe('1');
      // The backoff alone would have sent it again within half a second.
      expect(sentAt[1]! - answeredAt[0]!).toBeGreaterThanOrEqual(950);
      expect(answers[1]!.headers.get('idempotent-replayed')).toBe('true');
      expect(entry).toEqual(await (await earlier).json());
    } finally {
      await hold.release();
    }
    const mine = await collectAll(new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl }).entries.list());
    expect(mine.filter((e) => e.raffleId === raffle.id)).toHaveLength(1);
  });
});

describe('retrying GETs', () => {
  it('retries a GET after 503 and 502 and succeeds on the real answer', async () => {
    const faulty = faultyFetch(async (attempt, send) => {
      if (attempt === 0) return new Response('{"message":"unavailable"}', { status: 503, headers: { 'content-type': 'application/json' } });
      if (attempt === 1) return new Response('<html>bad gateway</html>', { status: 502 });
      return send();
    });
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl, fetch: faulty.fetch });
    expect((await client.me.get()).id).toBe(tenant.owner.id);
    expect(faulty.calls).toHaveLength(3);
  });

  it('gives up after maxRetries and throws the last answer', async () => {
    const faulty = faultyFetch(async () => new Response('<html>bad gateway</html>', { status: 502, headers: { 'x-request-id': 'req-from-proxy' } }));
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl, fetch: faulty.fetch, maxRetries: 1 });
    const error = (await client.me.get().catch((e: unknown) => e)) as RaffleApiError;
    expect(faulty.calls).toHaveLength(2);
    expect(error).toBeInstanceOf(RaffleApiError);
    expect(error).toMatchObject({ status: 502, code: null, requestId: 'req-from-proxy', body: '<html>bad gateway</html>' });
  });

  it('retries a GET after a network error', async () => {
    const faulty = faultyFetch(async (attempt, send) => {
      if (attempt === 0) throw networkError();
      return send();
    });
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl, fetch: faulty.fetch });
    expect((await client.me.get()).id).toBe(tenant.owner.id);
    expect(faulty.calls).toHaveLength(2);
  });

  it('does not retry a 4xx', async () => {
    const faulty = faultyFetch((_attempt, send) => send());
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl, fetch: faulty.fetch });
    await expect(client.raffles.get('no-such-raffle')).rejects.toMatchObject({ status: 404, code: 'RAFFLE_NOT_FOUND' });
    expect(faulty.calls).toHaveLength(1);
  });
});

describe('RaffleApiError from a real error', () => {
  it('carries status, code, message, requestId and the body', async () => {
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl });
    const error = (await client.raffles.myEntry('no-such-raffle').catch((e: unknown) => e)) as RaffleApiError;
    expect(error).toBeInstanceOf(RaffleApiError);
    expect(error.name).toBe('RaffleApiError');
    expect(error.status).toBe(404);
    expect(error.code).toBe('RAFFLE_NOT_FOUND');
    expect(error.message).toContain('no-such-raffle');
    expect(error.requestId).toMatch(/.+/);
    expect(error.requestId).toBe(error.headers.get('x-request-id'));
    expect(error.retryAfter).toBeNull();
    expect(error.body).toMatchObject({ statusCode: 404, code: 'RAFFLE_NOT_FOUND', requestId: error.requestId, path: '/api/v1/raffles/no-such-raffle/entries/me' });
  });

  it('401 for a revoked key, 403 for a key without the scope', async () => {
    const revoked = new RaffleClient({ apiKey: tenant.keys.revoked, baseUrl: dataPlane.baseUrl });
    await expect(revoked.me.get()).rejects.toMatchObject({ status: 401 });
    const workspaceKey = new RaffleClient({ apiKey: tenant.keys.workspace, baseUrl: dataPlane.baseUrl });
    await expect(workspaceKey.me.get()).rejects.toMatchObject({ status: 403 });
  });

  it('joins a validation message array into one message', async () => {
    // Straight to the service: the document refuses limit=0, and Prism would answer it itself.
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.directUrl });
    const error = (await client.raffles.list({ limit: 0 }).page().catch((e: unknown) => e)) as RaffleApiError;
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.status).toBeLessThan(500);
    expect(typeof error.message).toBe('string');
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.code).toMatch(/^[A-Z_]+$/);
  });
});

describe('timeouts', () => {
  it('aborts an attempt after timeoutMs, retries a GET, then throws RaffleTimeoutError', async () => {
    const stalled: ServerResponse[] = [];
    const server = createServer((_request: IncomingMessage, response: ServerResponse) => void stalled.push(response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = new RaffleClient({ apiKey: 'svc_u_x', baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 200, maxRetries: 1 });
      const started = Date.now();
      const error = await client.me.get().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RaffleTimeoutError);
      expect(error).toBeInstanceOf(RaffleConnectionError);
      expect((error as Error).message).toMatch(/timed out after 200 ms/);
      expect(stalled).toHaveLength(2);
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('throws RaffleConnectionError when nothing listens', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const client = new RaffleClient({ apiKey: 'svc_u_x', baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
    const error = await client.me.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RaffleConnectionError);
    expect(error).not.toBeInstanceOf(RaffleTimeoutError);
  });
});
