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
  return hasConnectionCode(error, MAX_CAUSE_DEPTH);
}

function hasConnectionCode(error: unknown, depthLeft: number): boolean {
  if (depthLeft === 0 || typeof error !== 'object' || error === null) return false;
  const { code, errors, cause } = error as { code?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) return true;
  if (Array.isArray(errors) && errors.some((inner) => hasConnectionCode(inner, depthLeft - 1))) return true;
  return hasConnectionCode(cause, depthLeft - 1);
}
