import { ERROR_CODES, type ErrorCode, type RequirementFailure } from '@raffle/contracts';

/**
 * The one error type for an expected refusal, whoever refuses: a domain rule (the platform's state
 * does not allow what was asked), or a service's own check before the domain is reached (a bad API
 * key, a missing session, a rate limit). Its status comes from the contracts' catalogue, so a code
 * is never answered with two statuses. Each service turns it into its own error body (the data
 * plane keeps `code`; management, whose body has no `code`, leads the message with it).
 *
 * No stack trace: these are answers, not bugs, and capturing one cost 10% of the CPU of refusing
 * a bad API key in profiles.
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly failedRequirements?: RequirementFailure[];

  constructor(code: ErrorCode, message: string, extra: { failedRequirements?: RequirementFailure[] } = {}) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'DomainError';
    this.code = code;
    this.statusCode = ERROR_CODES[code];
    if (extra.failedRequirements) this.failedRequirements = extra.failedRequirements;
  }
}

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;
