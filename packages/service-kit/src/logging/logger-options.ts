import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';

/** Wherever a secret could surface in a log line, it is censored. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
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

export function loggerOptions(options: LoggerOptions): FastifyServerOptions['logger'] {
  return {
    level: options.level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(options.stream ? { stream: options.stream } : {}),
    ...(options.pretty && !options.stream ? { transport: { target: 'pino-pretty' } } : {}),
    serializers: {
      req: (request: { method: string; url: string; headers: Record<string, unknown>; ip?: string }) => ({
        method: request.method,
        url: request.url,
        headers: request.headers,
        remoteAddress: request.ip,
      }),
    },
  } as FastifyServerOptions['logger'];
}
