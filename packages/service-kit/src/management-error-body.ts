import { STATUS_CODES } from 'node:http';
import type { ManagementErrorBody } from '@raffle/contracts';
import type { FastifyRequest } from 'fastify';
import { pathOf } from './request-path.js';

/**
 * The error body without `code` (the spec's management body), which management and the webhook
 * dispatcher answer with; `path` is the request path without its query string.
 */
export function managementErrorBody(request: FastifyRequest, statusCode: number, message: string | string[]): ManagementErrorBody {
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    message,
    requestId: request.id ?? null,
    timestamp: new Date().toISOString(),
    path: pathOf(request.url),
  };
}
