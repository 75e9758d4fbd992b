import type { ErrorCode, RequirementFailure } from '@raffle/contracts';
import type { FastifyError, FastifyRequest } from 'fastify';
import type { ClientErrorBody } from '../client-error.js';

/** What a request is told when it fails: a code of the catalogue and the message(s) for it. */
export type ErrorAnswer = {
  code: ErrorCode;
  message: string | string[];
  /** The requirements a refusal names (REQUIREMENTS_NOT_MET); each service shows them its own way. */
  failedRequirements?: readonly RequirementFailure[];
};

/** An expected refusal a handler or the domain throws (the domain's `DomainError`): answered with its code and message. */
export type Refusal = Error & { code: ErrorCode; failedRequirements?: readonly RequirementFailure[] };

/**
 * How one service words its error answers. Which answer an error gets is decided once, for every
 * service, by the kit's error handler (errors/error-handler.ts); the service says with which
 * status it answers each code and in which body.
 */
export type ServiceErrors = {
  /** The status this service answers each code with. */
  statusOf: Readonly<Record<ErrorCode, number>>;
  /** The service's error body for an answer. */
  body: (request: FastifyRequest, status: number, answer: ErrorAnswer) => unknown;
  /** A schema validation failure, in the service's words. */
  describeValidation: (error: FastifyError) => Pick<ErrorAnswer, 'code' | 'message'>;
  /**
   * Client errors a dependency raises with a status of its own (such as the docs' static files)
   * that keep it, under this code and with the dependency's message; any other is answered
   * VALIDATION_FAILED "the request was rejected" (its message is not ours to pass on).
   */
  dependencyCodes: Readonly<Partial<Record<number, ErrorCode>>>;
  /** Recognises the service's refusals (the domain's `isDomainError`). */
  isRefusal: (error: unknown) => error is Refusal;
  /**
   * The body of a request refused before any route could see it: by Node's HTTP parser, or by
   * the router (a malformed URL). A service without one (the dispatcher, which serves no API)
   * leaves those answers to Node and Fastify.
   */
  parserFailure?: ClientErrorBody;
};
