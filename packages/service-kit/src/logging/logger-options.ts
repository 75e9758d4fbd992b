import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import { pathOf } from '../request-path.js';
import { serializeError } from './error-serializer.js';

/**
 * Wherever a secret could surface in a log line, it is censored. Headers that carry a client's
 * IP are censored too: the platform keeps entrants' IPs only as keyed hashes, and its logs do
 * no less.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'req.headers["x-forwarded-for"]',
  'req.headers["x-real-ip"]',
  'req.headers.forwarded',
  'req.headers["true-client-ip"]',
  'req.headers["cf-connecting-ip"]',
  'res.headers["set-cookie"]',
  'apiKey',
  '*.apiKey',
  'secret',
  '*.secret',
  'token',
  '*.jwt',
  '*.token',
];

export type LoggerOptions = { level: string; stream?: DestinationStream; pretty?: boolean };

type LoggedRequest = { method: string; url: string; headers: Record<string, unknown> };

export function loggerOptions(options: LoggerOptions): FastifyServerOptions['logger'] {
  return {
    level: options.level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(options.stream ? { stream: options.stream } : {}),
    ...(options.pretty && !options.stream ? { transport: { target: 'pino-pretty' } } : {}),
    serializers: {
      // No remote address: a raw client IP is personal data the platform does not keep.
      req: (request: LoggedRequest) => ({ method: request.method, url: pathOf(request.url), headers: request.headers }),
      err: serializeError,
      error: serializeError,
    },
  } as unknown as FastifyServerOptions['logger'];
}
