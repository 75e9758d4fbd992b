import type { ErrorCode } from '@raffle/contracts';
import { MANAGEMENT_STATUS_OF } from './error-codes.js';

/**
 * The one error type management handlers throw. The management error body has no `code`, so
 * the error handler writes the code at the start of the message; the status is the one
 * management answers that code with, so the two cannot disagree. No stack trace: these are
 * expected outcomes answered to the client.
 */
export class ManagementError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;

  constructor(code: ErrorCode, message: string) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'ManagementError';
    this.code = code;
    this.statusCode = MANAGEMENT_STATUS_OF[code];
  }
}

export const managementError = (code: ErrorCode, message: string) => new ManagementError(code, message);
