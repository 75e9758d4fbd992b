import { STATUS_CODES } from 'node:http';
import type { ErrorBody, ErrorCode } from '@raffle/contracts';
import { pathOf } from '@raffle/service-kit';
import type { FastifyRequest } from 'fastify';

/** The spec's error body; `path` is the request path without its query string. */
export function errorBody(
  request: FastifyRequest,
  statusCode: number,
  code: ErrorCode,
  message: string | string[],
  extras: Partial<ErrorBody> = {},
): ErrorBody {
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    code,
    message,
    requestId: request.id ?? null,
    timestamp: new Date().toISOString(),
    path: pathOf(request.url),
    ...extras,
  };
}
