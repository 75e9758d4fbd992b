/**
 * Codes that mean "the database could not be reached or went away", not "the statement was wrong":
 * Node's socket errnos, postgres.js's own connection codes, and the SQLSTATEs Postgres sends while
 * it shuts down, restarts or is out of connections. Callers answer these with 503 and Retry-After.
 */
const CONNECTION_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  // postgres.js's connect_timeout, and this package's wait-for-a-connection deadline.
  'CONNECT_TIMEOUT',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '08000', // connection_exception
  '08003', // connection_does_not_exist
  '08006', // connection_failure
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08004', // sqlserver_rejected_establishment_of_sqlconnection
  '53300', // too_many_connections
]);

/** Enough for drizzle's wrapper over the driver's error, with room for a caller's own wrapping. */
const MAX_CAUSE_DEPTH = 8;

/**
 * True when `error`, or anything in its `cause` chain (drizzle wraps driver errors in
 * `DrizzleQueryError`), is a connection-class failure. An AggregateError (Node's connect to every
 * address of a host) counts when any of its errors does.
 */
export function isConnectionError(error: unknown): boolean {
  return hasCode(error, CONNECTION_ERROR_CODES, MAX_CAUSE_DEPTH);
}

/**
 * Postgres rolled the transaction back to break a deadlock or a serialization conflict with a
 * concurrent one: nothing was written, and the same request is expected to succeed when retried.
 * Callers answer these with 503 and Retry-After, like a connection failure, never with a 500.
 */
const TRANSIENT_TRANSACTION_CODES: ReadonlySet<string> = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);

export function isTransientTransactionFailure(error: unknown): boolean {
  return hasCode(error, TRANSIENT_TRANSACTION_CODES, MAX_CAUSE_DEPTH);
}

/** lock_not_available: a `lock_timeout` ran out (or a NOWAIT lock was taken): nothing was done. */
const LOCK_NOT_AVAILABLE = '55P03';
/** query_canceled: a `statement_timeout`, but also a cancel request (postgres.js's `query.cancel()`, `pg_cancel_backend`). */
const QUERY_CANCELED = '57014';
/** What Postgres says when the cancel was its `statement_timeout` (the driver's own cancel says "due to user request"). */
const STATEMENT_TIMEOUT_MESSAGE = /due to statement timeout/;

/**
 * A statement ran past its bound (STATEMENT_BOUNDS): it waited too long for a lock, or ran too
 * long. Postgres cancelled it and its transaction rolled back, so nothing was written, and the
 * same request may succeed once the lock is gone. Callers answer these with 503 and Retry-After.
 * A cancel for any other reason keeps its 57014 and is not one of these: it is ours to explain,
 * not the database's to retry. The statement-timeout text is Postgres' English message
 * (`lc_messages` must stay English or C, the default; SQLSTATE alone cannot tell the two apart).
 */
export function isDatabaseTimeout(error: unknown): boolean {
  return findError(error, (e) => e.code === LOCK_NOT_AVAILABLE || (e.code === QUERY_CANCELED && STATEMENT_TIMEOUT_MESSAGE.test(e.message ?? '')), MAX_CAUSE_DEPTH);
}

function hasCode(error: unknown, codes: ReadonlySet<string>, depthLeft: number): boolean {
  return findError(error, ({ code }) => code !== undefined && codes.has(code), depthLeft);
}

type CodedError = { code?: string; message?: string };

/** True when `error`, an error it aggregates, or one in its `cause` chain, passes `test`. */
function findError(error: unknown, test: (error: CodedError) => boolean, depthLeft: number): boolean {
  if (depthLeft === 0 || typeof error !== 'object' || error === null) return false;
  const { code, message, errors, cause } = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string' && test({ code, message: typeof message === 'string' ? message : undefined })) return true;
  if (Array.isArray(errors) && errors.some((inner) => findError(inner, test, depthLeft - 1))) return true;
  return findError(cause, test, depthLeft - 1);
}
