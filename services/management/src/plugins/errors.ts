import type { ErrorCode } from '@raffle/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { inputCausedFailure, isConnectionError, isTransientTransactionFailure } from '@raffle/db';
import { isDomainError } from '@raffle/domain';
import { codedErrorBody, MANAGEMENT_STATUS_OF } from '../error-codes.js';
import { ManagementError } from '../errors.js';
import { describeValidation } from './validation-failure.js';

/**
 * Fastify's own client errors, by the code Fastify gives them. The data plane's codes for the
 * same conditions; a body that is not JSON is a 400 here (management has no 415).
 */
const FRAMEWORK_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'send request bodies as application/json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'MALFORMED_JSON', message: 'request body is empty but declared as JSON' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'MALFORMED_JSON', message: 'request body is not valid JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'VALIDATION_FAILED', message: 'content-length does not match the body' },
};

/** Client errors raised by a dependency with a status of their own, which keep it. */
const CODE_OF_STATUS: Record<number, ErrorCode> = { 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED', 413: 'PAYLOAD_TOO_LARGE' };

/** Answers `code` with the status management gives it and the message led by the code. */
function answer(request: FastifyRequest, reply: FastifyReply, code: ErrorCode, message: string | string[]) {
  return reply.status(MANAGEMENT_STATUS_OF[code]).send(codedErrorBody(request, code, message));
}

/** Errors the router raises before any route (and so before setErrorHandler) is involved. */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_BAD_URL') return answer(request, reply, 'MALFORMED_URL', 'the URL is not valid percent-encoded UTF-8');
  return answer(request, reply, 'ROUTE_NOT_FOUND', 'no route matches');
}

/**
 * One handler turns every failure into the management error body, its message led by a code of
 * the catalogue (the body has no `code` field): ManagementErrors, the domain's refusals,
 * validation errors, Fastify's parser errors, and anything unexpected (logged, answered 500
 * with no detail).
 */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (request.is404) return app.answerUnmatched(request, reply);
    if (error instanceof ManagementError) {
      if (error.statusCode === 401) reply.header('www-authenticate', 'Bearer');
      return answer(request, reply, error.code, error.message);
    }
    if (isDomainError(error)) {
      // Requirements not met is a conflict here (MANAGEMENT_STATUS_OF): its labels go in the message.
      const failed = error.failedRequirements?.map((f) => f.label).join('; ');
      return answer(request, reply, error.code, `${error.message}${failed ? ` (${failed})` : ''}`);
    }
    if (error.validation) {
      const { code, messages } = describeValidation(error);
      return answer(request, reply, code, messages);
    }
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) return answer(request, reply, known.code, known.message);
    if (error instanceof SyntaxError && error.statusCode === 400) return answer(request, reply, 'MALFORMED_JSON', 'request body is not valid JSON');
    const status = error.statusCode ?? 500;
    const ofStatus = CODE_OF_STATUS[status];
    if (ofStatus) return answer(request, reply, ofStatus, error.message);
    if (status < 500) {
      // A client error from a dependency (e.g. the docs' static files): its message is not ours to pass on.
      return answer(request, reply, 'VALIDATION_FAILED', 'the request was rejected');
    }
    if (isConnectionError(error)) {
      request.log.error({ err: error }, 'dependency unavailable');
      reply.header('retry-after', '1');
      return answer(request, reply, 'SERVICE_UNAVAILABLE', 'a dependency is unavailable; retry shortly');
    }
    if (isTransientTransactionFailure(error)) {
      request.log.warn({ err: error }, 'transaction rolled back by a concurrent one');
      reply.header('retry-after', '1');
      return answer(request, reply, 'SERVICE_UNAVAILABLE', 'the request collided with a concurrent one and did nothing; retry shortly');
    }
    const refused = inputCausedFailure(error);
    if (refused) {
      request.log.warn({ err: error }, 'the database refused input that validation let through');
      return answer(request, reply, refused.status === 409 ? 'CONFLICT' : 'VALIDATION_FAILED', refused.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return answer(request, reply, 'INTERNAL_ERROR', 'internal error');
  });
}

export default fp(errorsPlugin, { name: 'errors' });
