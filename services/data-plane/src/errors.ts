import { STATUS_CODES } from 'node:http';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '@raffle/contracts';
import { isDomainError } from '@raffle/domain';
import { PARSER_FAILURE_CODES, pathOf, type ServiceErrors } from '@raffle/service-kit';
import type { FastifyError, FastifyRequest } from 'fastify';

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

/** A schema refusal: a bad `limit`, `cursor` or `Idempotency-Key` names its own code and one message; anything else lists every problem. */
function describeValidation(error: FastifyError): { code: ErrorCode; message: string | string[] } {
  const issues = error.validation ?? [];
  const context = error.validationContext ?? 'request';
  const limitIssue = context === 'querystring' && issues.some((i) => i.instancePath === '/limit');
  if (limitIssue) return { code: 'INVALID_LIMIT', message: 'limit must be an integer within the endpoint\'s page-size range' };
  const cursorIssue = context === 'querystring' && issues.some((i) => i.instancePath === '/cursor');
  if (cursorIssue) return { code: 'INVALID_CURSOR', message: 'cursor must be the single nextCursor value of the previous page' };
  const idempotencyKeyIssue = context === 'headers' && issues.some((i) => i.instancePath === '/idempotency-key');
  if (idempotencyKeyIssue) return { code: 'INVALID_IDEMPOTENCY_KEY', message: 'Idempotency-Key must be 1 to 255 printable ASCII characters' };
  const messages = issues.map((i) => {
    const where = i.instancePath ? `${context}${i.instancePath.replaceAll('/', '.')}` : context;
    const extra = i.keyword === 'additionalProperties' ? ` (${String(i.params.additionalProperty)})` : '';
    return `${where} ${i.message ?? 'is invalid'}${extra}`;
  });
  return { code: 'VALIDATION_FAILED', message: messages.length > 0 ? messages : [error.message] };
}

/**
 * How the data plane answers errors: the spec's body with `code`, at the catalogue's status, with
 * the requirements a refusal names; a dependency's client error keeps its status under that
 * status's generic code.
 */
export const dataPlaneErrors: ServiceErrors = {
  statusOf: ERROR_CODES,
  body: (request, status, { code, message, failedRequirements }) =>
    errorBody(request, status, code, message, failedRequirements ? { failedRequirements: failedRequirements.map(({ type, label, detail }) => ({ type, label, ...(detail ? { detail } : {}) })) } : {}),
  describeValidation,
  dependencyCodes: {
    400: 'VALIDATION_FAILED',
    403: 'FORBIDDEN',
    404: 'NOT_FOUND',
    405: 'METHOD_NOT_ALLOWED',
    406: 'NOT_ACCEPTABLE',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    416: 'RANGE_NOT_SATISFIABLE',
    429: 'RATE_LIMITED',
  },
  isRefusal: isDomainError,
  // Requests Node's HTTP parser refused: the same body, with `code` after the base fields.
  parserFailure: (failure, base) => ({ ...base, code: PARSER_FAILURE_CODES[failure] }),
};
