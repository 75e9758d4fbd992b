import { ERROR_CODES } from '@raffle/contracts';
import { managementErrorBody, type Refusal, type ServiceErrors } from '@raffle/service-kit';

/**
 * How the dispatcher answers errors. It serves no API, only its probes, metrics and OpenAPI
 * document: the management body without a code, every client error "the request was rejected"
 * (400), and what Node's HTTP parser or the router refuse left to their own answers.
 */
export const dispatcherErrors: ServiceErrors = {
  statusOf: ERROR_CODES,
  body: (request, status, { message }) => managementErrorBody(request, status, message),
  describeValidation: () => ({ code: 'VALIDATION_FAILED', message: 'the request was rejected' }),
  dependencyCodes: {},
  // Nothing here refuses a request on purpose.
  isRefusal: (_error: unknown): _error is Refusal => false,
};
