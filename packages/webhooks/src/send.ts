import type { Agent, Dispatcher } from 'undici';
import { truncateUtf8 } from './response-body.js';
import { DELIVERY_TIMEOUT_MS, RESPONSE_BODY_LIMIT_BYTES } from './retry-schedule.js';
import { BLOCKED_ADDRESS_CODE } from './safe-dispatcher.js';
import type { SignedHeaders } from './signing.js';

export type SendResult =
  | { kind: 'success'; status: number; body: string; latencyMs: number }
  | {
      kind: 'failure';
      failureKind: 'timeout' | 'network' | 'redirect' | 'blocked_address' | 'http_status';
      status: number | null;
      body: string | null;
      latencyMs: number;
      /** 410 Gone: the receiver asks us to stop; product.md disables the endpoint at once. */
      gone: boolean;
    };

const USER_AGENT = 'Raffle-Webhooks/1.0';
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Origin and path of each endpoint URL, parsed once: a busy endpoint is posted to thousands of times a second. */
const targets = new Map<string, { origin: string; path: string }>();
function targetOf(url: string): { origin: string; path: string } {
  let target = targets.get(url);
  if (!target) {
    const parsed = new URL(url);
    target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    if (targets.size >= 10_000) targets.clear();
    targets.set(url, target);
  }
  return target;
}

/**
 * POSTs `body` with the signed headers on `agent` (redirects are never followed: no redirect
 * interceptor is composed). 2xx = success; 3xx = 'redirect'; other statuses = 'http_status' (410
 * sets gone). At most RESPONSE_BODY_LIMIT_BYTES of the answer is read, then the connection is cut.
 * One deadline covers connect, headers and body. Never throws: every outcome is a result the
 * dispatcher records.
 *
 * Written against undici's dispatch handler rather than `request()`: no response stream, abort
 * signal or async iterator per POST. At thousands of deliveries a second that is most of the
 * dispatcher's CPU (see bench/README.md, `pnpm bench:webhooks`).
 */
export function sendWebhook(args: {
  agent: Agent;
  url: string;
  headers: SignedHeaders;
  body: string;
  /** The W3C `traceparent` of the delivery's span (tracing on): the receiver may continue the trace. */
  traceparent?: string;
  timeoutMs?: number;
  now?: () => number;
}): Promise<SendResult> {
  const timeoutMs = args.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const now = args.now ?? (() => performance.now());
  const started = now();
  const latency = () => Math.max(0, Math.round(now() - started));

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let timedOut = false;
    let controller: Dispatcher.DispatchController | null = null;
    let status = 0;
    let chunks: Buffer[] | null = null;
    let size = 0;

    const settle = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const answered = (): SendResult => {
      const bytes = chunks ? Buffer.concat(chunks, Math.min(size, RESPONSE_BODY_LIMIT_BYTES)) : Buffer.alloc(0);
      const body = truncateUtf8(bytes, RESPONSE_BODY_LIMIT_BYTES);
      const latencyMs = latency();
      if (status >= 200 && status < 300) return { kind: 'success', status, body, latencyMs };
      const failureKind = status >= 300 && status < 400 ? 'redirect' : 'http_status';
      return { kind: 'failure', failureKind, status, body, latencyMs, gone: status === 410 };
    };
    const failed = (error: unknown): SendResult => {
      const failureKind = hasCode(error, BLOCKED_ADDRESS_CODE)
        ? 'blocked_address'
        : timedOut || [...TIMEOUT_CODES].some((code) => hasCode(error, code))
          ? 'timeout'
          : 'network';
      return { kind: 'failure', failureKind, status: null, body: null, latencyMs: latency(), gone: false };
    };

    const timer = setTimeout(() => {
      timedOut = true;
      // A request still queued in the pool has no controller yet: onRequestStart aborts it.
      controller?.abort(new Error('webhook delivery timed out'));
      // As with a body cut short: once the status is in, the status decides.
      settle(status > 0 ? answered() : failed(null));
    }, timeoutMs);

    try {
      const { origin, path } = targetOf(args.url);
      args.agent.dispatch(
        {
          origin,
          path,
          method: 'POST',
          headers: { ...args.headers, ...(args.traceparent ? { traceparent: args.traceparent } : {}), 'content-type': 'application/json', 'user-agent': USER_AGENT },
          body: args.body,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        },
        {
          onRequestStart(started) {
            controller = started;
            if (timedOut) started.abort(new Error('webhook delivery timed out'));
          },
          onResponseStart(_controller, statusCode) {
            status = statusCode;
          },
          onResponseData(current, chunk) {
            if (size < RESPONSE_BODY_LIMIT_BYTES) {
              (chunks ??= []).push(chunk);
              size += chunk.length;
            }
            if (size >= RESPONSE_BODY_LIMIT_BYTES) {
              // Enough: the rest is never downloaded (the connection is closed).
              settle(answered());
              current.abort(new Error('response body limit reached'));
            }
          },
          onResponseEnd() {
            settle(answered());
          },
          onResponseError(_controller, error) {
            // A body cut short after the status still tells the user what the endpoint started to say.
            settle(status > 0 && !timedOut ? answered() : failed(error));
          },
        },
      );
    } catch (error) {
      settle(failed(error));
    }
  });
}

/** Looks through `cause` chains: Node and undici sometimes wrap the error that explains the failure. */
function hasCode(error: unknown, code: string): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return false;
    if ((current as { code?: unknown }).code === code) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
