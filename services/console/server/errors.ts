import { ERROR_CODES, type ErrorCode } from '@raffle/contracts';
import { managementErrorBody, PARSER_FAILURE_CODES, pathOf, type Refusal, type ServiceErrors } from '@raffle/service-kit';
import type { FastifyRequest } from 'fastify';
import { errorStyleOf } from './upstream-routes.js';

/**
 * The console's error body: management's (the message leads with the code), plus `code` on the
 * data plane's paths, as the data plane's own body has it.
 */
export function consoleErrorBody(request: FastifyRequest, status: number, code: ErrorCode, message: string | string[]) {
  const body = managementErrorBody(request, status, `${code}: ${[message].flat().join('; ')}`);
  return errorStyleOf(pathOf(request.url)) === 'data-plane' ? { ...body, code } : body;
}

/**
 * How the console answers its own errors (404/405, shutdown 503, the unexpected 500, what the
 * HTTP parser refuses). It validates nothing of its own and refuses nothing by rule: the APIs
 * behind it do both, in their own bodies.
 */
export const consoleErrors: ServiceErrors = {
  statusOf: ERROR_CODES,
  body: (request, status, { code, message }) => consoleErrorBody(request, status, code, message),
  describeValidation: () => ({ code: 'VALIDATION_FAILED', message: 'the request was rejected' }),
  // The static files' own 404/405 (a file removed since start, a method they do not serve).
  dependencyCodes: { 404: 'ROUTE_NOT_FOUND', 405: 'METHOD_NOT_ALLOWED' },
  isRefusal: (_error): _error is Refusal => false,
  parserFailure: (failure, base) => ({ ...base, message: `${PARSER_FAILURE_CODES[failure]}: ${base.message}` }),
};
