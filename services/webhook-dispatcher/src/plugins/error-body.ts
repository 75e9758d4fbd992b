import { STATUS_CODES } from 'node:http';
import type { ManagementErrorBody } from '@raffle/contracts';
import type { FastifyRequest } from 'fastify';

/** The dispatcher serves only operations routes; its errors use the management body (no `code`). */
export function errorBody(request: FastifyRequest, statusCode: number, message: string): ManagementErrorBody {
  const q = request.url.indexOf('?');
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    message,
    requestId: request.id ?? null,
    timestamp: new Date().toISOString(),
    path: q === -1 ? request.url : request.url.slice(0, q),
  };
}
