import { STATUS_CODES } from 'node:http';

/**
 * The one error type management handlers throw. The management error body has no `code`,
 * so the status and message are all a failure carries. No stack trace: these are expected
 * outcomes answered to the client.
 */
export class ManagementError extends Error {
  readonly statusCode: number;

  constructor(statusCode: 400 | 401 | 403 | 404 | 409 | 413 | 429, message: string) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'ManagementError';
    this.statusCode = statusCode;
  }

  get reason(): string {
    return STATUS_CODES[this.statusCode] ?? 'Error';
  }
}

export const badRequest = (message: string) => new ManagementError(400, message);
export const unauthorized = (message: string) => new ManagementError(401, message);
export const forbidden = (message: string) => new ManagementError(403, message);
export const notFound = (message: string) => new ManagementError(404, message);
export const conflict = (message: string) => new ManagementError(409, message);
/** The management body has no `code`, so the message leads with it, as domain errors' do. */
export const rateLimited = (message: string) => new ManagementError(429, `RATE_LIMITED: ${message}`);
