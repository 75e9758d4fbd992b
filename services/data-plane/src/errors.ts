import { ERROR_CODES, type ErrorBody, type ErrorCode } from '@raffle/contracts';

type ErrorExtras = Partial<Pick<ErrorBody, 'failedRequirements' | 'evaluation'>>;

/**
 * The one error type handlers throw. Its status comes from the contracts catalogue, so a
 * code can never be answered with two different statuses.
 */
export class ApiError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extras: ErrorExtras = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = ERROR_CODES[code];
  }
}
