// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
type Document = { paths?: Record<string, Record<string, Json>> };

/** A management message that leads with a code: `RAFFLE_NOT_OPEN: the raffle is not open`. */
const LEADING_CODE = /^([A-Z][A-Z0-9_]{1,63}): /;

/** The code an error body carries: the data plane's `code` field, or the code management's message leads with. */
function codeOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { code, message } = body as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return code;
  return typeof message === 'string' ? LEADING_CODE.exec(message)?.[1] : undefined;
}

/**
 * Whether an error answer is one its operation documents: the status's response lists the codes
 * the operation answers with it (`x-error-codes`, see service-kit's openapi/error-codes.ts), and
 * the body's code must be one of them. A status documented with no code (the spec reserves it on
 * every route) must not be answered at all. `request` is the fuzzer's: `operation` names the template.
 */
export function documentedErrorCodeViolations(document: Document, request: { operation: string; method: string }, status: number, body: unknown): string[] {
  // The fuzzer sometimes sends another method than the operation's: the answer is that method's.
  const path = request.operation.slice(request.operation.indexOf(' ') + 1);
  const operation = `${request.method} ${path}`;
  const response: Json | undefined = document.paths?.[path]?.[request.method.toLowerCase()]?.responses?.[String(status)];
  const codes: unknown = response?.['x-error-codes'];
  if (!Array.isArray(codes)) return [];
  const code = codeOf(body);
  // A `code` field is always there, so a status without codes is one the operation never answers;
  // a message may carry no code at all, so there only a code that is there must be listed.
  const hasCodeField = typeof body === 'object' && body !== null && 'code' in body;
  if (codes.length === 0 && hasCodeField) return [`${operation} answered ${status}, which its document reserves but never answers (code ${code})`];
  if (code !== undefined && !codes.includes(code)) return [`${operation} answered ${status} with code ${code}, not among its documented ${codes.join(', ') || '(none)'}`];
  return [];
}
