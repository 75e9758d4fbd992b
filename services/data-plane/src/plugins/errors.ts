import type { ErrorCode } from '@raffle/contracts';
import { inputCausedFailure, isConnectionError, isTransientTransactionFailure } from '@raffle/db';
import { isDomainError } from '@raffle/domain';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';
import { errorBody } from './error-body.js';

/** Fastify's own client errors, by the code Fastify gives them. */
const FRAMEWORK_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'send request bodies as application/json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'MALFORMED_JSON', message: 'request body is empty but declared as JSON' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'MALFORMED_JSON', message: 'request body is not valid JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'VALIDATION_FAILED', message: 'content-length does not match the body' },
};

const GENERIC_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'RANGE_NOT_SATISFIABLE',
  429: 'RATE_LIMITED',
};

function describeValidation(error: FastifyError): { code: ErrorCode; messages: string[] } {
  const issues = error.validation ?? [];
  const context = error.validationContext ?? 'request';
  const limitIssue = context === 'querystring' && issues.some((i) => i.instancePath === '/limit');
  if (limitIssue) return { code: 'INVALID_LIMIT', messages: ['limit must be an integer within the endpoint\'s page-size range'] };
  const cursorIssue = context === 'querystring' && issues.some((i) => i.instancePath === '/cursor');
  if (cursorIssue) return { code: 'INVALID_CURSOR', messages: ['cursor must be the single nextCursor value of the previous page'] };
  const idempotencyKeyIssue = context === 'headers' && issues.some((i) => i.instancePath === '/idempotency-key');
  if (idempotencyKeyIssue) return { code: 'INVALID_IDEMPOTENCY_KEY', messages: ['Idempotency-Key must be 1 to 255 printable ASCII characters'] };
  const messages = issues.map((i) => {
    const where = i.instancePath ? `${context}${i.instancePath.replaceAll('/', '.')}` : context;
    const extra = i.keyword === 'additionalProperties' ? ` (${String(i.params.additionalProperty)})` : '';
    return `${where} ${i.message ?? 'is invalid'}${extra}`;
  });
  return { code: 'VALIDATION_FAILED', messages: messages.length > 0 ? messages : [error.message] };
}

/** Errors the router raises before any route (and so before setErrorHandler) is involved. */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_BAD_URL') {
    return reply.status(400).send(errorBody(request, 400, 'MALFORMED_URL', 'the URL is not valid percent-encoded UTF-8'));
  }
  return reply.status(404).send(errorBody(request, 404, 'ROUTE_NOT_FOUND', 'no route matches'));
}

/**
 * One handler turns every failure into the spec's error body: typed ApiErrors, the domain's
 * refusals (DomainError, with the requirements that failed), validation errors, Fastify's parser
 * errors, and anything unexpected (logged, answered 500 with no detail).
 */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // An unmatched request whose body failed to parse is still an unknown route (404/405).
    if (request.is404) return app.answerUnmatched(request, reply);
    if (error instanceof ApiError) {
      if (error.statusCode === 401) reply.header('www-authenticate', 'Bearer');
      return reply.status(error.statusCode).send(errorBody(request, error.statusCode, error.code, error.message, error.extras));
    }
    if (isDomainError(error)) {
      const extras = error.failedRequirements ? { failedRequirements: error.failedRequirements.map(({ type, label }) => ({ type, label })) } : {};
      return reply.status(error.statusCode).send(errorBody(request, error.statusCode, error.code, error.message, extras));
    }
    if (error.validation) {
      const { code, messages } = describeValidation(error);
      return reply.status(400).send(errorBody(request, 400, code, code === 'VALIDATION_FAILED' ? messages : messages[0]!));
    }
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) {
      const status = known.code === 'ROUTE_NOT_FOUND' ? 404 : (error.statusCode ?? 400);
      return reply.status(status).send(errorBody(request, status, known.code, known.message));
    }
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return reply.status(400).send(errorBody(request, 400, 'MALFORMED_JSON', 'request body is not valid JSON'));
    }
    const status = error.statusCode ?? 500;
    const generic = GENERIC_BY_STATUS[status];
    if (status < 500 && generic) {
      return reply.status(status).send(errorBody(request, status, generic, error.message));
    }
    if (status < 500) {
      // A client error from a dependency (e.g. the docs' static files) with no code of ours;
      // its message is the dependency's, so it is not passed on.
      return reply.status(400).send(errorBody(request, 400, 'VALIDATION_FAILED', 'the request was rejected'));
    }
    if (isConnectionError(error)) {
      request.log.error({ err: error }, 'dependency unavailable');
      reply.header('retry-after', '1');
      return reply.status(503).send(errorBody(request, 503, 'SERVICE_UNAVAILABLE', 'a dependency is unavailable; retry shortly'));
    }
    if (isTransientTransactionFailure(error)) {
      request.log.warn({ err: error }, 'transaction rolled back by a concurrent one');
      reply.header('retry-after', '1');
      return reply.status(503).send(errorBody(request, 503, 'SERVICE_UNAVAILABLE', 'the request collided with a concurrent one and did nothing; retry shortly'));
    }
    const refused = inputCausedFailure(error);
    if (refused) {
      request.log.warn({ err: error }, 'the database refused input that validation let through');
      return reply.status(refused.status).send(errorBody(request, refused.status, refused.status === 409 ? 'CONFLICT' : 'VALIDATION_FAILED', refused.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody(request, 500, 'INTERNAL_ERROR', 'internal error'));
  });
}

export default fp(errorsPlugin, { name: 'errors' });
