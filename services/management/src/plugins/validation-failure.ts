import type { ErrorCode } from '@raffle/contracts';
import type { FastifyError, FastifySchemaValidationError } from 'fastify';

/** A page query's own codes, as on the data plane: the field that failed names the code. */
const PAGE_QUERY_CODES: ReadonlyArray<[string, ErrorCode]> = [
  ['/limit', 'INVALID_LIMIT'],
  ['/cursor', 'INVALID_CURSOR'],
];

/**
 * A schema refusal as a code and one message per problem, naming where it is
 * (`body.spots must be >= 1`). A bad `limit` or `cursor` answers its own code with only its
 * own messages; everything else is VALIDATION_FAILED.
 */
export function describeValidation(error: FastifyError): { code: ErrorCode; messages: string[] } {
  const issues = error.validation ?? [];
  const context = error.validationContext ?? 'request';
  const describe = (i: FastifySchemaValidationError) => {
    const where = i.instancePath ? `${context}${i.instancePath.replaceAll('/', '.')}` : context;
    const extra = i.keyword === 'additionalProperties' ? ` (${String(i.params.additionalProperty)})` : '';
    return `${where} ${i.message ?? 'is invalid'}${extra}`;
  };
  if (context === 'querystring') {
    for (const [field, code] of PAGE_QUERY_CODES) {
      const own = issues.filter((i) => i.instancePath === field);
      if (own.length > 0) return { code, messages: own.map(describe) };
    }
  }
  const messages = issues.map(describe);
  return { code: 'VALIDATION_FAILED', messages: messages.length > 0 ? messages : [error.message] };
}
