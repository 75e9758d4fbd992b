import { ERROR_CODES, type ErrorCode } from '@raffle/contracts';
import type { HttpServerConfig, Refusal, ServiceErrors } from '../../src/index.js';

/** A refusal of the kit tests' own (the services use the domain's DomainError). */
export class TestRefusal extends Error {
  constructor(readonly code: ErrorCode, message: string) {
    super(message);
  }
}

/** The HTTP settings every test service runs with (no drain: the tests close at once). */
export const TEST_HTTP_SETTINGS: HttpServerConfig = {
  HTTP_HEADERS_TIMEOUT_MS: 10_000,
  HTTP_REQUEST_TIMEOUT_MS: 30_000,
  HTTP_KEEP_ALIVE_TIMEOUT_MS: 72_000,
  HTTP_SHUTDOWN_DRAIN_MS: 0,
  HTTP_MAX_CONNECTIONS: 123,
};

/** A body that shows what the kit decided: the status, the code and the message. */
export const testErrors: ServiceErrors = {
  statusOf: ERROR_CODES,
  body: (request, status, { code, message }) => ({ status, code, message, requestId: request.id }),
  describeValidation: () => ({ code: 'VALIDATION_FAILED', message: 'the input is invalid' }),
  dependencyCodes: {},
  isRefusal: (error): error is Refusal => error instanceof TestRefusal,
  parserFailure: (_failure, base) => base,
};
