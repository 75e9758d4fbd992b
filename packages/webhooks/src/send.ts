import { request, type Agent } from 'undici';
import { readBodyPrefix, truncateUtf8 } from './response-body.js';
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

/**
 * POSTs `body` with the signed headers on `agent` (undici.request: redirects are never followed).
 * 2xx = success; 3xx = 'redirect'; other statuses = 'http_status' (410 sets gone). At most
 * RESPONSE_BODY_LIMIT_BYTES of the answer is read. One deadline covers connect, headers and body.
 * Never throws: every outcome is a result the dispatcher records.
 */
export async function sendWebhook(args: {
  agent: Agent;
  url: string;
  headers: SignedHeaders;
  body: string;
  timeoutMs?: number;
  now?: () => number;
}): Promise<SendResult> {
  const timeoutMs = args.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const now = args.now ?? (() => performance.now());
  const started = now();
  const deadline = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    deadline.abort();
  }, timeoutMs);
  const latency = () => Math.max(0, Math.round(now() - started));

  try {
    const response = await request(args.url, {
      method: 'POST',
      dispatcher: args.agent,
      headers: { ...args.headers, 'content-type': 'application/json', 'user-agent': USER_AGENT },
      body: args.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: deadline.signal,
    });
    const status = response.statusCode;
    const body = truncateUtf8(await readBodyPrefix(response.body, RESPONSE_BODY_LIMIT_BYTES), RESPONSE_BODY_LIMIT_BYTES);
    const latencyMs = latency();
    if (status >= 200 && status < 300) return { kind: 'success', status, body, latencyMs };
    const failureKind = status >= 300 && status < 400 ? 'redirect' : 'http_status';
    return { kind: 'failure', failureKind, status, body, latencyMs, gone: status === 410 };
  } catch (error) {
    const failureKind = hasCode(error, BLOCKED_ADDRESS_CODE)
      ? 'blocked_address'
      : timedOut || [...TIMEOUT_CODES].some((code) => hasCode(error, code))
        ? 'timeout'
        : 'network';
    return { kind: 'failure', failureKind, status: null, body: null, latencyMs: latency(), gone: false };
  } finally {
    clearTimeout(timer);
  }
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
