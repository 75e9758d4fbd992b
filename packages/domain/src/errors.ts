import { ERROR_CODES, type ErrorCode, type RequirementFailure } from '@raffle/contracts';

/**
 * An expected refusal by a domain rule: the caller asked for something the platform's state
 * does not allow. Each service turns it into its own error body (the data plane keeps `code`;
 * management, whose body has no `code`, leads the message with it). No stack trace: these are
 * answers, not bugs.
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
