import type { ErrorCode } from '@raffle/contracts';
import { createClientErrorHandler, type ParserFailure } from '@raffle/service-kit';

const CODES: Record<ParserFailure, ErrorCode> = {
  timeout: 'REQUEST_TIMEOUT',
  headers_too_large: 'HEADERS_TOO_LARGE',
  malformed: 'MALFORMED_REQUEST',
};

/** HTTP-parser failures in the spec's error body, with a code. */
export const clientErrorHandler = createClientErrorHandler((failure, base) => ({ ...base, code: CODES[failure] }));
