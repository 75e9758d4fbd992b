// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
type Document = { paths?: Record<string, Record<string, Json>> };

/** A management message that leads with a code: `RAFFLE_NOT_OPEN: the raffle is not open`. */
const LEADING_CODE = /^([A-Z][A-Z0-9_]{1,63}): /;

/**
 * The codes an error body carries: the data plane's `code` field, or the code each of
 * management's messages leads with (`null` for a message that leads with none).
 */
function codesOf(body: unknown): Array<string | null> {
  if (typeof body !== 'object' || body === null) return [];
  const { code, message } = body as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return [code];
  const messages = Array.isArray(message) ? message : typeof message === 'string' ? [message] : [];
  return messages.map((m) => (typeof m === 'string' ? (LEADING_CODE.exec(m)?.[1] ?? null) : null));
}

export type ErrorCodeCheckOptions = {
  /**
   * Every message must lead with a code (management, where the message is the only carrier):
   * with a status this catalogue gives that code, even where the operation documents no list
   * for the status (a 405 for a method the path does not have, say).
   */
  messageCodeRequired?: { statusOf: Readonly<Record<string, number>> };
};

/**
 * Whether an error answer is one its operation documents: the status's response lists the codes
 * the operation answers with it (`x-error-codes`, see service-kit's openapi/error-codes.ts), and
 * the body's code must be one of them. A status documented with no code (the spec reserves it on
 * every route) must not be answered at all. `request` is the fuzzer's: `operation` names the template.
 */
export function documentedErrorCodeViolations(
  document: Document,
  request: { operation: string; method: string },
  status: number,
  body: unknown,
  options: ErrorCodeCheckOptions = {},
): string[] {
  // The fuzzer sometimes sends another method than the operation's: the answer is that method's.
  const path = request.operation.slice(request.operation.indexOf(' ') + 1);
  const operation = `${request.method} ${path}`;
  const response: Json | undefined = document.paths?.[path]?.[request.method.toLowerCase()]?.responses?.[String(status)];
  const listed: unknown = response?.['x-error-codes'];
  const codes = codesOf(body);
  const violations: string[] = [];
  const required = options.messageCodeRequired;
  if (required) {
    if (codes.length === 0) violations.push(`${operation} answered ${status} with no message`);
    if (codes.includes(null)) violations.push(`${operation} answered ${status} with a message that does not start with a code`);
    for (const code of new Set(codes)) {
      if (code !== null && required.statusOf[code] !== status) violations.push(`${operation} answered ${status} with code ${code}, whose status is ${required.statusOf[code] ?? '(not in the catalogue)'}`);
    }
  }
  if (!Array.isArray(listed)) return violations;
  // A `code` field is always there, so a status without codes is one the operation never answers;
  // a message may carry no code (where none is required), so there only a code that is there must be listed.
  const hasCodeField = typeof body === 'object' && body !== null && 'code' in body;
  if (listed.length === 0 && (hasCodeField || required)) return [...violations, `${operation} answered ${status}, which its document reserves but never answers (${codes.join(', ')})`];
  for (const code of new Set(codes)) {
    if (code !== null && !listed.includes(code)) violations.push(`${operation} answered ${status} with code ${code}, not among its documented ${listed.join(', ') || '(none)'}`);
  }
  return violations;
}
