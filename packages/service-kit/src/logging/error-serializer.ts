/**
 * Errors are logged without the values they were computed from. A failed database write is the
 * dangerous case: drizzle's `DrizzleQueryError` puts every query parameter into its message (a
 * draw seed, a webhook secret, a key hash), and Postgres' own `detail` repeats whole rows
 * ("Failing row contains …"). So a database error is logged as its statement text, SQLSTATE and
 * the names Postgres gives (table, column, constraint) — never its parameters or detail.
 */
export function serializeError(error: unknown): Record<string, unknown> {
  return serialize(error, 0);
}

const MAX_CAUSE_DEPTH = 5;

type ErrorLike = Error & Record<string, unknown>;

function serialize(error: unknown, depth: number): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error, message: '[not an Error]' };
  const err = error as ErrorLike;
  const cause = depth < MAX_CAUSE_DEPTH && err.cause !== undefined ? { cause: serialize(err.cause, depth + 1) } : {};
  if (isDrizzleQueryError(err)) {
    return { type: 'DrizzleQueryError', message: 'database query failed', statement: err.query, stack: framesOnly(err.stack), ...cause };
  }
  if (isPostgresError(err)) {
    return {
      type: 'PostgresError',
      code: err.code,
      severity: err.severity,
      // Values sit after the first ": " ('invalid input syntax for type uuid: "…"'); names before it.
      message: String(err.message).split(': ')[0],
      ...pick(err, ['routine', 'schema_name', 'table_name', 'column_name', 'constraint_name', 'data_type']),
      statement: typeof err.query === 'string' ? err.query : undefined,
      stack: framesOnly(err.stack),
      ...cause,
    };
  }
  // Not pino's own serializer: it folds every cause's message and stack into the outer ones,
  // which would carry a wrapped query error's parameters past the rules above.
  const plain: Record<string, unknown> = { type: err.constructor?.name ?? err.name, message: err.message, stack: err.stack };
  for (const [name, value] of Object.entries(err)) {
    if (name === 'cause' || HIDDEN_FIELDS.has(name)) continue;
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) plain[name] = value;
  }
  return { ...plain, ...cause };
}

/** postgres.js keeps a query's values on these (non-enumerable today); never log them. */
const HIDDEN_FIELDS = new Set(['parameters', 'params', 'args', 'types', 'detail']);

const isDrizzleQueryError = (err: ErrorLike) => typeof err.query === 'string' && 'params' in err && err.message.startsWith('Failed query:');

/** postgres.js' server errors: a five-character SQLSTATE and a severity. */
const isPostgresError = (err: ErrorLike) =>
  err.name === 'PostgresError' || (typeof err.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code) && typeof err.severity === 'string');

/** A stack's frames without its first line, which repeats the message. */
function framesOnly(stack: string | undefined): string | undefined {
  if (!stack) return undefined;
  const firstFrame = stack.indexOf('\n    at ');
  return firstFrame === -1 ? undefined : stack.slice(firstFrame + 1);
}

function pick(source: ErrorLike, names: string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const name of names) if (typeof source[name] === 'string') picked[name] = source[name];
  return picked;
}
