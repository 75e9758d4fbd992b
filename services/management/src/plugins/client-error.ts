import type { ErrorCode } from '@raffle/contracts';
import { createClientErrorHandler, type ParserFailure } from '@raffle/service-kit';
import { withCode } from '../error-codes.js';

/** The data plane's codes for the same failures; their statuses are the catalogue's. */
const CODES: Record<ParserFailure, ErrorCode> = {
  timeout: 'REQUEST_TIMEOUT',
  headers_too_large: 'HEADERS_TOO_LARGE',
  malformed: 'MALFORMED_REQUEST',
};

/** HTTP-parser failures in the management error body: no `code` field, the message leads with it. */
export const clientErrorHandler = createClientErrorHandler((failure, base) => ({ ...base, message: withCode(CODES[failure], base.message) }));
