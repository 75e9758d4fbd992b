import { RaffleApiError } from './raffle-api-error.js';
import { parseRetryAfter } from './retry-after.js';

export type ErrorCodeSource = 'body' | 'message-prefix';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The management API's bodies carry no `code`; its messages start with one instead (`RAFFLE_NOT_FOUND: …`). */
const MESSAGE_CODE_PREFIX = /^([A-Z][A-Z0-9_]+): /;

/** Builds the error for a non-2xx answer from its status, headers and body (JSON-parsed when it parses). */
export function errorFromResponse(status: number, headers: Headers, body: unknown, codeSource: ErrorCodeSource): RaffleApiError {
  const record = isRecord(body) ? body : {};
  const rawMessage = record.message;
  const message = Array.isArray(rawMessage)
    ? rawMessage.map(String).join('; ')
    : typeof rawMessage === 'string' && rawMessage !== ''
      ? rawMessage
      : typeof body === 'string' && body !== ''
        ? body.slice(0, 500)
        : `HTTP ${status}`;
  let code: string | null = null;
  if (codeSource === 'body') code = typeof record.code === 'string' ? record.code : null;
  else code = MESSAGE_CODE_PREFIX.exec(message)?.[1] ?? null;
  const requestId = typeof record.requestId === 'string' && record.requestId !== '' ? record.requestId : headers.get('x-request-id');
  return new RaffleApiError({ status, code, message, requestId, retryAfter: parseRetryAfter(headers.get('retry-after')), body, headers });
}
