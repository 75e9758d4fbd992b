import { isDomainError } from '@raffle/domain';
import { PARSER_FAILURE_CODES, type ServiceErrors } from '@raffle/service-kit';
import { codedErrorBody, MANAGEMENT_STATUS_OF, withCode } from './error-codes.js';
import { describeValidation } from './plugins/validation-failure.js';

/**
 * How management answers errors: the management body, which has no `code` field, so every
 * message leads with its code (error-codes.ts), at the status management gives that code. The
 * requirements a refusal names go in its message; a body that is not JSON is a 400 here.
 */
export const managementErrors: ServiceErrors = {
  statusOf: MANAGEMENT_STATUS_OF,
  body: (request, _status, { code, message, failedRequirements }) => {
    const failed = failedRequirements?.map((f) => (f.detail ? `${f.label}: ${f.detail}` : f.label)).join('; ');
    return codedErrorBody(request, code, failed ? `${message} (${failed})` : message);
  },
  describeValidation: (error) => {
    const { code, messages } = describeValidation(error);
    return { code, message: messages };
  },
  dependencyCodes: { 404: 'NOT_FOUND', 405: 'METHOD_NOT_ALLOWED', 413: 'PAYLOAD_TOO_LARGE' },
  isRefusal: isDomainError,
  // Requests Node's HTTP parser refused: the message leads with the code, as every other.
  parserFailure: (failure, base) => ({ ...base, message: withCode(PARSER_FAILURE_CODES[failure], base.message) }),
};
