import { ERROR_CODES, type ErrorCode, type ManagementErrorBody } from '@raffle/contracts';
import { managementErrorBody } from '@raffle/service-kit';
import type { FastifyRequest } from 'fastify';

/**
 * The status management answers each catalogue code with: the catalogue's, except where
 * management's statuses (400, 401, 403, 404, 409, 429, 500 in product.md) have no room for it.
 * Requirements not met (422) is a conflict here, and a body that is not JSON (415) a bad request.
 */
export const MANAGEMENT_STATUS_OF: Readonly<Record<ErrorCode, number>> = {
  ...ERROR_CODES,
  REQUIREMENTS_NOT_MET: 409,
  UNSUPPORTED_MEDIA_TYPE: 400,
};

/** How a management message leads with its code (the SDK parses the same prefix). */
export const LEADING_CODE = /^([A-Z][A-Z0-9_]{1,63}): /;

/**
 * The management body has no `code` field (the spec), so every message leads with the code
 * instead, `RAFFLE_NOT_FOUND: …`; each message of a list does, so none is read without it.
 */
export function withCode(code: ErrorCode, message: string | string[]): string | string[] {
  return Array.isArray(message) ? message.map((m) => `${code}: ${m}`) : `${code}: ${message}`;
}

/** The management error body for `code`, its status the one management answers that code with. */
export function codedErrorBody(request: FastifyRequest, code: ErrorCode, message: string | string[]): ManagementErrorBody {
  return managementErrorBody(request, MANAGEMENT_STATUS_OF[code], withCode(code, message));
}
