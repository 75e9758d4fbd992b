import type { ErrorCode } from '@raffle/contracts';
import { inputCausedFailure, isConnectionError, isDatabaseTimeout, isTransientTransactionFailure } from '@raffle/db';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ErrorAnswer, ServiceErrors } from './service-errors.js';

/** Fastify's own client errors, by the code Fastify gives them. */
const FASTIFY_CLIENT_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'send request bodies as application/json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'MALFORMED_JSON', message: 'request body is empty but declared as JSON' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'MALFORMED_JSON', message: 'request body is not valid JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'VALIDATION_FAILED', message: 'content-length does not match the body' },
};

/** Answers `answer` with the status the service gives its code, in the service's body. */
export function sendErrorAnswer(errors: ServiceErrors, request: FastifyRequest, reply: FastifyReply, answer: ErrorAnswer) {
  const status = errors.statusOf[answer.code];
  return reply.status(status).send(errors.body(request, status, answer));
}

/**
 * The answer for every failure, in the service's body: its refusals (with a Bearer challenge on
 * 401), validation errors, Fastify's parser errors, a dependency's client errors, an unreachable
 * database (503), a transaction rolled back by a concurrent one (503), a statement past its bound
 * (a lock held too long: 503), input the database refused (400/409), and anything unexpected
 * (logged, answered 500 with no detail).
 */
function createErrorHandler(app: FastifyInstance, errors: ServiceErrors) {
  const answer = (request: FastifyRequest, reply: FastifyReply, code: ErrorCode, message: string | string[]) =>
    sendErrorAnswer(errors, request, reply, { code, message });

  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // An unmatched request whose body failed to parse is still an unknown route (404/405).
    if (request.is404) return app.answerUnmatched(request, reply);
    if (errors.isRefusal(error)) {
      const status = errors.statusOf[error.code];
      if (status === 401) reply.header('www-authenticate', 'Bearer');
      if (status === 401 || status === 403) app.serviceMetrics?.authFailures.inc({ code: error.code });
      return sendErrorAnswer(errors, request, reply, { code: error.code, message: error.message, failedRequirements: error.failedRequirements });
    }
    if (error.validation) {
      const { code, message } = errors.describeValidation(error);
      return answer(request, reply, code, message);
    }
    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (known) return answer(request, reply, known.code, known.message);
    if (error instanceof SyntaxError && error.statusCode === 400) return answer(request, reply, 'MALFORMED_JSON', 'request body is not valid JSON');
    const status = error.statusCode ?? 500;
    const ofStatus = errors.dependencyCodes[status];
    if (status < 500 && ofStatus) return answer(request, reply, ofStatus, error.message);
    if (status < 500) return answer(request, reply, 'VALIDATION_FAILED', 'the request was rejected');
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
    if (isDatabaseTimeout(error)) {
      request.log.warn({ err: error }, 'a database statement ran past its bound (a lock held too long, or a slow statement)');
      reply.header('retry-after', '1');
      return answer(request, reply, 'SERVICE_UNAVAILABLE', 'the database did not answer in time and nothing was done; retry shortly');
    }
    const refused = inputCausedFailure(error);
    if (refused) {
      request.log.warn({ err: error }, 'the database refused input that validation let through');
      return answer(request, reply, refused.status === 409 ? 'CONFLICT' : 'VALIDATION_FAILED', refused.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return answer(request, reply, 'INTERNAL_ERROR', 'internal error');
  };
}

/** The one error handler, given how the service words its answers. Needs the not-found plugin (unmatched requests). */
async function errorHandlerPlugin(app: FastifyInstance, errors: ServiceErrors) {
  app.setErrorHandler(createErrorHandler(app, errors));
}

export default fp(errorHandlerPlugin, { name: 'errors' });

/** Errors the router raises before any route (and so before the error handler) is involved. */
export function routerErrorHandler(errors: ServiceErrors) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    reply.header('x-request-id', request.id);
    if (error.code === 'FST_ERR_BAD_URL') return sendErrorAnswer(errors, request, reply, { code: 'MALFORMED_URL', message: 'the URL is not valid percent-encoded UTF-8' });
    return sendErrorAnswer(errors, request, reply, { code: 'ROUTE_NOT_FOUND', message: 'no route matches' });
  };
}
