import { ERROR_CODES, type ErrorBody, type ErrorCode } from '@raffle/contracts';

type ErrorExtras = Partial<Pick<ErrorBody, 'failedRequirements' | 'evaluation'>>;

/**
 * The one error type handlers throw. Its status comes from the contracts catalogue, so a
 * code can never be answered with two different statuses. It carries no stack trace: these
 * are expected outcomes answered to the client, and capturing a stack cost 10% of the CPU of
 * refusing a bad key in profiles.
 */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly extras: ErrorExtras;

  constructor(code: ErrorCode, message: string, extras: ErrorExtras = {}) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'ApiError';
    this.code = code;
    this.extras = extras;
    this.statusCode = ERROR_CODES[code];
  }
}
