import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RaffleApiError, RaffleClient, RaffleTimeoutError } from '../src/index.js';
import { collectAll, newTestDatabase, seedDataPlaneTenant, startDataPlane, type DataPlane, type Tenant } from './support/data-plane-service.js';
import { answerJson, startScriptedServer, type ScriptedServer } from './support/scripted-server.js';

let dataPlane: DataPlane;
let tenant: Tenant;
/** Hangs on `/slow`, answers 503 with `Retry-After: 5` on `/busy`, and a profile elsewhere. */
let scripted: ScriptedServer;

beforeAll(async () => {
  const testDb = await newTestDatabase();
  tenant = await seedDataPlaneTenant(testDb, { publicRaffles: 3 });
  dataPlane = await startDataPlane(testDb);
  scripted = await startScriptedServer((request, response) => {
    if (request.url.startsWith('/api/v1/raffles/slow')) return; // never answers
    if (request.url.startsWith('/api/v1/raffles/busy')) return answerJson(response, 503, { code: 'SERVICE_UNAVAILABLE', message: 'busy' }, { 'retry-after': '5' });
    if (request.url.startsWith('/api/v1/raffles/down')) return answerJson(response, 503, { code: 'SERVICE_UNAVAILABLE', message: 'down' });
    answerJson(response, 200, { id: 'usr_1' });
  });
});

afterAll(async () => {
  await scripted?.close();
  await dataPlane?.close();
  await dataPlane?.testDb.drop();
});

const seenFor = (path: string) => scripted.seen.filter((r) => r.url.startsWith(path)).length;

/** A fetch that records the headers of every request and passes it on to the real one. */
function headerRecordingFetch() {
  const sent: Headers[] = [];
  const fetchFn = ((input: string | URL | Request, init?: RequestInit) => {
    sent.push(new Headers(init?.headers));
    return globalThis.fetch(input, init);
  }) as typeof fetch;
  return { fetch: fetchFn, sent };
}

describe('RequestOptions.signal', () => {
  it('aborts a request in flight with the abort reason, and does not retry it (a GET, with retries left)', async () => {
    const client = new RaffleClient({ apiKey: 'k', baseUrl: scripted.baseUrl, maxRetries: 3 });
    const controller = new AbortController();
    const reason = new Error('the user navigated away');
    const call = client.raffles.get('slow-1', { signal: controller.signal });
    await expect.poll(() => seenFor('/api/v1/raffles/slow-1')).toBe(1);
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(seenFor('/api/v1/raffles/slow-1')).toBe(1);
  });

  it('rejects with an AbortError when aborted without a reason, and sends nothing when already aborted', async () => {
    const client = new RaffleClient({ apiKey: 'k', baseUrl: scripted.baseUrl });
    const controller = new AbortController();
    controller.abort();
    await expect(client.raffles.get('slow-2', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(seenFor('/api/v1/raffles/slow-2')).toBe(0);
  });

  it('aborts the wait before a retry (a 503 with Retry-After: 5) at once', async () => {
    const client = new RaffleClient({ apiKey: 'k', baseUrl: scripted.baseUrl, maxRetries: 3 });
    const controller = new AbortController();
    const call = client.raffles.get('busy-1', { signal: controller.signal });
    await expect.poll(() => seenFor('/api/v1/raffles/busy-1')).toBe(1);
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(seenFor('/api/v1/raffles/busy-1')).toBe(1);
  });

  it('is passed to every page of a list: aborting stops the walk', async () => {
    const recording = headerRecordingFetch();
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl, fetch: recording.fetch });
    const controller = new AbortController();
    const walked: string[] = [];
    const walk = (async () => {
      for await (const raffle of client.raffles.list({ limit: 1 }, { signal: controller.signal })) {
        walked.push(raffle.slug);
        if (walked.length === 2) controller.abort();
      }
    })();
    await expect(walk).rejects.toMatchObject({ name: 'AbortError' });
    expect(walked).toHaveLength(2);
    expect(recording.sent).toHaveLength(2);
  });
});

describe('RequestOptions.timeoutMs', () => {
  it('overrides the client timeout for one call', async () => {
    const client = new RaffleClient({ apiKey: 'k', baseUrl: scripted.baseUrl, timeoutMs: 30_000, maxRetries: 0 });
    await expect(client.raffles.get('slow-3', { timeoutMs: 100 })).rejects.toBeInstanceOf(RaffleTimeoutError);
  });
});

describe('RequestOptions.maxRetries', () => {
  it('overrides the client retries for one call', async () => {
    const client = new RaffleClient({ apiKey: 'k', baseUrl: scripted.baseUrl, maxRetries: 2 });
    await expect(client.raffles.get('down-1', { maxRetries: 0 })).rejects.toBeInstanceOf(RaffleApiError);
    expect(seenFor('/api/v1/raffles/down-1')).toBe(1);
    await expect(client.raffles.get('down-2', { maxRetries: 1 })).rejects.toBeInstanceOf(RaffleApiError);
    expect(seenFor('/api/v1/raffles/down-2')).toBe(2);
  });
});

describe('RequestOptions.headers', () => {
  it('reach the server, on every page of a list; Authorization stays the client key', async () => {
    const recording = headerRecordingFetch();
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl, fetch: recording.fetch });
    const raffles = await collectAll(client.raffles.list({ limit: 1 }, { headers: { 'X-Trace-Tag': 'walk-7', Authorization: 'Bearer stolen' } }));
    expect(raffles.length).toBeGreaterThanOrEqual(2);
    expect(recording.sent).toHaveLength(raffles.length);
    for (const headers of recording.sent) {
      expect(headers.get('x-trace-tag')).toBe('walk-7');
      expect(headers.get('authorization')).toBe(`Bearer ${tenant.keys.personal}`);
    }
  });

  it('a well-formed X-Request-Id is kept by the server and comes back as lastResponse.requestId', async () => {
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl });
    const me = await client.me.get({ headers: { 'X-Request-Id': 'sdk-options-test-1' } });
    expect(me.lastResponse.requestId).toBe('sdk-options-test-1');
  });
});

describe('RequestOptions.idempotencyKey', () => {
  it('is sent as Idempotency-Key: the same key enters once and replays the entry', async () => {
    const recording = headerRecordingFetch();
    const client = new RaffleClient({ apiKey: tenant.keys.personal, baseUrl: dataPlane.baseUrl, fetch: recording.fetch });
    const key = `sdk-${crypto.randomUUID()}`;
    const first = await client.raffles.enter(tenant.entrable.slug, { idempotencyKey: key });
    const again = await client.raffles.enter(tenant.entrable.slug, { idempotencyKey: key });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers.get('idempotent-replayed')).toBe('true');
    expect(recording.sent.map((h) => h.get('idempotency-key'))).toEqual([key, key]);
  });
});
