import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { inputCausedFailure, isConnectionError, isTransientTransactionFailure } from '@raffle/db';
import { isDomainError } from '@raffle/domain';
import { ManagementError } from '../errors.js';
import { managementErrorBody as errorBody } from '@raffle/service-kit';

/** Fastify's own client errors, by the code Fastify gives them. */
const FRAMEWORK_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'request body is too large' },
  // The management statuses are 400/401/403/404/409/500: a body that is not JSON is a bad request.
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 400, message: 'send request bodies as application/json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'request body is empty but declared as JSON' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'request body is not valid JSON' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'content-length does not match the body' },
};

function validationMessages(error: FastifyError): string[] {
  const context = error.validationContext ?? 'request';
  const messages = (error.validation ?? []).map((i) => {
    const where = i.instancePath ? `${context}${i.instancePath.replaceAll('/', '.')}` : context;
    const extra = i.keyword === 'additionalProperties' ? ` (${String(i.params.additionalProperty)})` : '';
    return `${where} ${i.message ?? 'is invalid'}${extra}`;
  });
  return messages.length > 0 ? messages : [error.message];
}

/** Errors the router raises before any route (and so before setErrorHandler) is involved. */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_BAD_URL') {
    return reply.status(400).send(errorBody(request, 400, 'the URL is not valid percent-encoded UTF-8'));
  }
  return reply.status(404).send(errorBody(request, 404, 'no route matches'));
}

/**
 * One handler turns every failure into the management error body: ManagementErrors, validation
 * errors, Fastify's parser errors, and anything unexpected (logged, answered 500 with no detail).
 */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (request.is404) return app.answerUnmatched(request, reply);
    if (error instanceof ManagementError) {
      if (error.statusCode === 401) reply.header('www-authenticate', 'Bearer');
      return reply.status(error.statusCode).send(errorBody(request, error.statusCode, error.message));
    }
    if (isDomainError(error)) {
      // The management body has no `code`: the message leads with it so clients can still branch
      // on it. Its statuses stop at 409, so a 422 (requirements not met) is answered as a conflict.
      const status = error.statusCode === 422 ? 409 : error.statusCode;
      const failed = error.failedRequirements?.map((f) => f.label).join('; ');
      const message = `${error.code}: ${error.message}${failed ? ` (${failed})` : ''}`;
      return reply.status(status).send(errorBody(request, status, message));
    }
    if (error.validation) {
      return reply.status(400).send(errorBody(request, 400, validationMessages(error)));
    }
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) return reply.status(known.status).send(errorBody(request, known.status, known.message));
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return reply.status(400).send(errorBody(request, 400, 'request body is not valid JSON'));
    }
    const status = error.statusCode ?? 500;
    if (status === 404 || status === 405 || status === 413) {
      return reply.status(status).send(errorBody(request, status, error.message));
    }
    if (status < 500) {
      // A client error from a dependency (e.g. the docs' static files): its message is not ours to pass on.
      return reply.status(400).send(errorBody(request, 400, 'the request was rejected'));
    }
    if (isConnectionError(error)) {
      request.log.error({ err: error }, 'dependency unavailable');
      reply.header('retry-after', '1');
      return reply.status(503).send(errorBody(request, 503, 'a dependency is unavailable; retry shortly'));
    }
    if (isTransientTransactionFailure(error)) {
      request.log.warn({ err: error }, 'transaction rolled back by a concurrent one');
      reply.header('retry-after', '1');
      return reply.status(503).send(errorBody(request, 503, 'the request collided with a concurrent one and did nothing; retry shortly'));
    }
    const refused = inputCausedFailure(error);
    if (refused) {
      request.log.warn({ err: error }, 'the database refused input that validation let through');
      return reply.status(refused.status).send(errorBody(request, refused.status, `${refused.status === 409 ? 'CONFLICT' : 'VALIDATION_FAILED'}: ${refused.message}`));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody(request, 500, 'internal error'));
  });
}

export default fp(errorsPlugin, { name: 'errors' });
