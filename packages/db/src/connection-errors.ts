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

function hasCode(error: unknown, codes: ReadonlySet<string>, depthLeft: number): boolean {
  if (depthLeft === 0 || typeof error !== 'object' || error === null) return false;
  const { code, errors, cause } = error as { code?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string' && codes.has(code)) return true;
  if (Array.isArray(errors) && errors.some((inner) => hasCode(inner, codes, depthLeft - 1))) return true;
  return hasCode(cause, codes, depthLeft - 1);
}
