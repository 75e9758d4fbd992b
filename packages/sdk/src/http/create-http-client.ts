import { clientIdentityHeaders } from './client-identity.js';
import { errorFromResponse, type ErrorCodeSource } from './error-from-response.js';
import type { HttpClient, Page, PagedList, RequestSpec } from './http-client.js';
import { RaffleConnectionError, RaffleTimeoutError } from './raffle-api-error.js';
import type { RequestOptions } from './request-options.js';
import { createReadAfterTokens } from './read-after-token.js';
import { attachResponse, responseInfoOf, type WithResponse } from './response-info.js';
import { backoffDelayMs, delayAfterStatus, isRefusedBeforeActing, isRetryableRequest, isRetryableAnswer } from './retry-policy.js';

export type HttpClientOptions = {
  baseUrl: string;
  /** The whole Authorization header value, e.g. `Bearer rk_live_…`; `''` sends none (the keyless /public/v1 routes). */
  authorization: string;
  /** Retries after the first attempt (default 2); see retry-policy.ts for which requests and errors. */
  maxRetries?: number;
  /** Per attempt, including reading the body (default 30 000 ms). */
  timeoutMs?: number;
  /** A fetch to use instead of the global one (tests, proxies, instrumented clients). */
  fetch?: typeof fetch;
  /** Where the error code lives: the data plane's `code` field, or the management API's `CODE: …` message prefix. */
  errorCodeSource: ErrorCodeSource;
  /**
   * Send the `Raffle-Read-After` token of this client's latest write on its reads (default true),
   * so a deployment that reads from a replica never answers them without that write.
   */
  readYourWrites?: boolean;
};

export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** An answer, its body parsed; or, for a successful download, left unread in `stream`. */
type Answer = { status: number; headers: Headers; body: unknown; ok: boolean; stream?: ReadableStream<Uint8Array> };

/** How an attempt treats a successful answer's body: read and parsed, or handed over unread (a download). */
type BodyUse = 'parse' | 'stream';

const retriesOf = (value: number | undefined) => Math.max(0, Math.floor(value ?? DEFAULT_MAX_RETRIES));

/** The one HttpClient both API clients are built on: JSON in and out (or a download's bytes), typed errors, retries and paging. */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const identityHeaders = clientIdentityHeaders();
  const readAfter = createReadAfterTokens();
  const readYourWrites = options.readYourWrites ?? true;
  // Resolved per call rather than captured: a polyfill may install globalThis.fetch later. Called
  // as a plain function, never as `options.fetch(…)`: a browser's fetch throws "Illegal invocation"
  // when `this` is another object.
  const fetchFn = (input: string, init: RequestInit) => {
    const send = options.fetch ?? globalThis.fetch;
    return send(input, init);
  };

  function urlOf(spec: RequestSpec): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined && value !== null) params.append(name, String(value));
    }
    const query = params.toString();
    return `${baseUrl}${spec.path}${query ? `?${query}` : ''}`;
  }

  function headersOf(spec: RequestSpec, idempotencyKey: string | undefined): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json', ...identityHeaders };
    // Lowercased, so a caller's `User-Agent` replaces ours instead of joining it.
    for (const [name, value] of Object.entries({ ...spec.headers, ...spec.options?.headers })) headers[name.toLowerCase()] = value;
    if (options.authorization !== '') headers.authorization = options.authorization;
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
    const token = readYourWrites && spec.method === 'GET' ? readAfter.latest() : null;
    if (token !== null && headers['raffle-read-after'] === undefined) headers['raffle-read-after'] = token;
    return headers;
  }

  /** One attempt: an answer (any status), the caller's abort reason, or a RaffleConnectionError when no answer arrived in time. */
  async function attempt(url: string, init: RequestInit, timeoutMs: number, signal: AbortSignal | undefined, use: BodyUse): Promise<Answer> {
    if (signal?.aborted) throw signal.reason;
    const controller = new AbortController();
    let timedOut = false;
    let handedOver = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await fetchFn(url, { ...init, signal: controller.signal });
      if (use === 'stream' && response.ok) {
        // The caller reads the body at its own pace: the timeout is over, their signal still aborts it.
        handedOver = true;
        return { status: response.status, headers: response.headers, body: undefined, ok: true, stream: response.body ?? emptyBody() };
      }
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: parseBody(text), ok: response.ok };
    } catch (error) {
      // The caller's abort is theirs to handle, as fetch reports it: not a connection failure, never retried.
      if (signal?.aborted) throw signal.reason;
      if (timedOut) throw new RaffleTimeoutError(`${init.method} ${url} timed out after ${timeoutMs} ms`, { cause: error });
      throw new RaffleConnectionError(`${init.method} ${url} failed: ${(error as Error)?.message ?? String(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
      if (!handedOver) signal?.removeEventListener('abort', onAbort);
    }
  }

  async function send<T>(spec: RequestSpec, use: BodyUse): Promise<WithResponse<T>> {
    const callOptions: RequestOptions = spec.options ?? {};
    const idempotencyKey = callOptions.idempotencyKey ?? spec.idempotencyKey;
    const maxRetries = retriesOf(callOptions.maxRetries ?? options.maxRetries);
    const timeoutMs = callOptions.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const signal = callOptions.signal;
    const url = urlOf(spec);
    // Built once, so every retry sends the same bytes and the same Idempotency-Key.
    const init: RequestInit = {
      method: spec.method,
      headers: headersOf(spec, idempotencyKey),
      body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
    };
    const retryable = isRetryableRequest({ ...spec, idempotencyKey });
    for (let retry = 0; ; retry++) {
      const canRetry = retryable && retry < maxRetries;
      let answer: Answer;
      try {
        answer = await attempt(url, init, timeoutMs, signal, use);
      } catch (error) {
        if (!canRetry || signal?.aborted) throw error;
        await sleep(backoffDelayMs(retry), signal);
        continue;
      }
      readAfter.saw(answer.headers.get('raffle-read-after'));
      if (answer.ok) return attachResponse((answer.stream ?? answer.body) as T, responseInfoOf(answer.status, answer.headers));
      const error = errorFromResponse(answer.status, answer.headers, answer.body, options.errorCodeSource);
      // Refused before anything ran (a 429, a draw waiting for its beacon round): any request may be sent again.
      const mayRetry = retry < maxRetries && (retryable || isRefusedBeforeActing(answer.status, error.code)) && isRetryableAnswer(answer.status, error.code);
      const delay = mayRetry ? delayAfterStatus(retry, error.retryAfter) : null;
      if (delay === null) throw error;
      await sleep(delay, signal);
    }
  }

  const request = <T>(spec: RequestSpec) => send<T>(spec, 'parse');
  const download = (spec: RequestSpec) => send<ReadableStream<Uint8Array>>(spec, 'stream');

  function list<T>(spec: RequestSpec): PagedList<T> {
    const page = (pageOptions: { cursor?: string } = {}, callOptions: RequestOptions | undefined = spec.options) =>
      request<Page<T>>({ ...spec, method: 'GET', query: { ...spec.query, cursor: pageOptions.cursor }, options: callOptions });
    return {
      page,
      async *[Symbol.asyncIterator]() {
        let cursor: string | undefined;
        do {
          const current = await page({ cursor });
          yield* current.data;
          // Spec: a page with hasMore false has nextCursor null; both are checked so neither alone can loop.
          cursor = current.pagination.hasMore ? (current.pagination.nextCursor ?? undefined) : undefined;
        } while (cursor !== undefined);
      },
    };
  }

  return { request, list, download };
}

/** The body of a successful answer that has none (a 204 where a download was expected): no bytes. */
const emptyBody = () => new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });

/** JSON when it parses, the text when it does not (an HTML error page from a proxy), `undefined` when empty (204). */
function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
