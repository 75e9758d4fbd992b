import { describe, expect, it } from 'vitest';
import { createHttpClient } from '../src/http/create-http-client.js';
import { errorFromResponse } from '../src/http/error-from-response.js';
import { RaffleApiError } from '../src/http/raffle-api-error.js';
import { parseRetryAfter } from '../src/http/retry-after.js';
import { backoffDelayMs, delayAfterStatus, isRetryableAnswer, isRetryableRequest, MAX_RETRY_AFTER_SECONDS } from '../src/http/retry-policy.js';

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-3', now)).toBeNull();
  });
});

describe('retry policy', () => {
  it('retries GETs and writes with an Idempotency-Key only', () => {
    expect(isRetryableRequest({ method: 'GET', path: '/' })).toBe(true);
    expect(isRetryableRequest({ method: 'POST', path: '/', idempotencyKey: 'k' })).toBe(true);
    expect(isRetryableRequest({ method: 'POST', path: '/' })).toBe(false);
    expect(isRetryableRequest({ method: 'DELETE', path: '/' })).toBe(false);
  });

  it('retries 429, 502, 503, 504 and an idempotency key still in progress; nothing else', () => {
    for (const status of [429, 502, 503, 504]) expect(isRetryableAnswer(status, null)).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 422, 500, 501]) expect(isRetryableAnswer(status, null)).toBe(false);
    expect(isRetryableAnswer(409, 'IDEMPOTENCY_KEY_IN_PROGRESS')).toBe(true);
    expect(isRetryableAnswer(409, 'IDEMPOTENCY_KEY_REUSED')).toBe(false);
  });

  it('backs off exponentially with full jitter, capped', () => {
    expect(backoffDelayMs(0, () => 0.999)).toBe(499);
    expect(backoffDelayMs(1, () => 0.999)).toBe(999);
    expect(backoffDelayMs(3, () => 0.5)).toBe(2000);
    expect(backoffDelayMs(20, () => 0.999)).toBe(7992);
    expect(backoffDelayMs(2, () => 0)).toBe(0);
  });

  it('waits what Retry-After says up to the cap, and gives up past it', () => {
    expect(delayAfterStatus(0, 3)).toBe(3000);
    expect(delayAfterStatus(0, MAX_RETRY_AFTER_SECONDS)).toBe(MAX_RETRY_AFTER_SECONDS * 1000);
    expect(delayAfterStatus(0, MAX_RETRY_AFTER_SECONDS + 1)).toBeNull();
    expect(delayAfterStatus(1, null)).toBeLessThan(1000);
  });

  it('throws at once, without sleeping, when Retry-After is past the cap', async () => {
    let calls = 0;
    const http = createHttpClient({
      baseUrl: 'http://api.test',
      authorization: 'Bearer k',
      errorCodeSource: 'body',
      fetch: (async () => {
        calls++;
        return new Response('{"code":"RATE_LIMITED","message":"slow down"}', { status: 429, headers: { 'retry-after': '3600' } });
      }) as typeof fetch,
    });
    const started = Date.now();
    await expect(http.request({ method: 'GET', path: '/x' })).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 3600 });
    expect(calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('which requests repeat', () => {
  const answering = (statuses: number[]) => {
    const methods: string[] = [];
    const fetchFn = (async (_url: string, init: RequestInit) => {
      methods.push(init.method ?? 'GET');
      const status = statuses[methods.length - 1] ?? 204;
      if (status === 204) return new Response(null, { status });
      return new Response(`{"code":"X","message":"m"}`, { status, headers: { 'retry-after': '0' } });
    }) as typeof fetch;
    return { methods, http: createHttpClient({ baseUrl: 'http://api.test', authorization: 'Bearer k', errorCodeSource: 'body', fetch: fetchFn }) };
  };

  it('repeats a write without an Idempotency-Key after a 429: the limiter refused it before anything ran', async () => {
    const { methods, http } = answering([429, 204]);
    await expect(http.request({ method: 'DELETE', path: '/x' })).resolves.toBeUndefined();
    expect(methods).toEqual(['DELETE', 'DELETE']);
  });

  it('does not repeat a write without an Idempotency-Key after a 503: it may have acted', async () => {
    const { methods, http } = answering([503, 204]);
    await expect(http.request({ method: 'POST', path: '/x', body: {} })).rejects.toMatchObject({ status: 503 });
    expect(methods).toEqual(['POST']);
  });
});

describe('a key in progress on the server', () => {
  const inProgress = () =>
    new Response('{"statusCode":409,"code":"IDEMPOTENCY_KEY_IN_PROGRESS","message":"still being processed"}', { status: 409, headers: { 'retry-after': '1' } });
  const clientAnswering = (answer: (call: number) => Response) => {
    const sentAt: number[] = [];
    const fetchFn = (async () => {
      sentAt.push(performance.now());
      return answer(sentAt.length - 1);
    }) as typeof fetch;
    return { sentAt, http: createHttpClient({ baseUrl: 'http://api.test', authorization: 'Bearer k', errorCodeSource: 'body', fetch: fetchFn }) };
  };

  it('sends the same keyed write again after the Retry-After of a 409 IDEMPOTENCY_KEY_IN_PROGRESS, not after a backoff', async () => {
    const { sentAt, http } = clientAnswering((call) => (call === 0 ? inProgress() : new Response('{"id":"ent_1"}', { status: 201 })));
    await expect(http.request({ method: 'POST', path: '/x', idempotencyKey: 'k' })).resolves.toEqual({ id: 'ent_1' });
    expect(sentAt).toHaveLength(2);
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(950);
  });

  it('hands over the 409 with its retryAfter once the retries are spent', async () => {
    const { sentAt, http } = clientAnswering(inProgress);
    await expect(http.request({ method: 'POST', path: '/x', idempotencyKey: 'k' })).rejects.toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_IN_PROGRESS', retryAfter: 1 });
    expect(sentAt).toHaveLength(3);
  });
});

describe('errors from answers', () => {
  it('takes the code from the body on the data plane', () => {
    const error = errorFromResponse(404, new Headers({ 'x-request-id': 'hdr' }), { code: 'RAFFLE_NOT_FOUND', message: 'no raffle', requestId: 'req_1' }, 'body');
    expect(error).toBeInstanceOf(RaffleApiError);
    expect(error).toMatchObject({ status: 404, code: 'RAFFLE_NOT_FOUND', message: 'no raffle', requestId: 'req_1', retryAfter: null });
  });

  it('parses the code from the message prefix on the management API', () => {
    const body = { statusCode: 409, message: 'SLUG_TAKEN: the slug "x" is taken', requestId: null };
    const error = errorFromResponse(409, new Headers({ 'x-request-id': 'req_h', 'retry-after': '2' }), body, 'message-prefix');
    expect(error).toMatchObject({ code: 'SLUG_TAKEN', message: 'SLUG_TAKEN: the slug "x" is taken', requestId: 'req_h', retryAfter: 2, body });
    expect(errorFromResponse(400, new Headers(), { message: 'lowercase: not a code' }, 'message-prefix').code).toBeNull();
    expect(errorFromResponse(400, new Headers(), { code: 'IGNORED', message: 'plain' }, 'message-prefix').code).toBeNull();
    // Management's validation answers a list, every message led by the code.
    const list = { message: ['VALIDATION_FAILED: body.spots must be >= 1', 'VALIDATION_FAILED: body.title must be string'] };
    expect(errorFromResponse(400, new Headers(), list, 'message-prefix').code).toBe('VALIDATION_FAILED');
  });

  it('joins a message array, and falls back to the text or the status', () => {
    expect(errorFromResponse(400, new Headers(), { code: 'VALIDATION_FAILED', message: ['limit too big', 'cursor bad'] }, 'body').message).toBe('limit too big; cursor bad');
    expect(errorFromResponse(502, new Headers(), '<html>bad gateway</html>', 'body')).toMatchObject({ message: '<html>bad gateway</html>', code: null });
    expect(errorFromResponse(500, new Headers(), undefined, 'body').message).toBe('HTTP 500');
  });
});

describe('requests', () => {
  it('sends JSON with the auth header, leaves out empty query values, and reads a 204 as undefined', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const http = createHttpClient({
      baseUrl: 'http://api.test/prefix/',
      authorization: 'Bearer tok',
      errorCodeSource: 'body',
      fetch: (async (url: string, init: RequestInit) => {
        seen.push({ url, init });
        return new Response(null, { status: 204 });
      }) as typeof fetch,
    });
    expect(await http.request({ method: 'PATCH', path: '/a', query: { x: 1, y: undefined, z: null, w: 'a b' }, body: { n: 1 }, idempotencyKey: 'k1' })).toBeUndefined();
    expect(seen[0]!.url).toBe('http://api.test/prefix/a?x=1&w=a+b');
    expect(seen[0]!.init.body).toBe('{"n":1}');
    expect(seen[0]!.init.headers).toMatchObject({ authorization: 'Bearer tok', 'content-type': 'application/json', 'idempotency-key': 'k1', accept: 'application/json' });
  });

  it('sends no Authorization header when given none (the public routes)', async () => {
    let headers: Record<string, string> = {};
    const http = createHttpClient({
      baseUrl: 'http://api.test',
      authorization: '',
      errorCodeSource: 'body',
      fetch: (async (_url: string, init: RequestInit) => {
        headers = init.headers as Record<string, string>;
        return new Response('{}');
      }) as typeof fetch,
    });
    await http.request({ method: 'GET', path: '/public/v1/x' });
    expect(headers).not.toHaveProperty('authorization');
  });
});
