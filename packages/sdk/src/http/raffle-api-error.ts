/**
 * Every failure the SDK throws. `RaffleApiError` means the API answered with a non-2xx status;
 * `RaffleConnectionError` means no answer arrived at all (DNS, refused or reset connection,
 * aborted), and `RaffleTimeoutError` is the case of that where an attempt outlived `timeoutMs`.
 * All three extend `RaffleError`, so one `instanceof` catches everything the SDK raises.
 */
export class RaffleError extends Error {
  override name = 'RaffleError';
}

export type RaffleApiErrorInit = {
  status: number;
  code: string | null;
  message: string;
  requestId: string | null;
  retryAfter: number | null;
  body: unknown;
  headers: Headers;
};

export class RaffleApiError extends RaffleError {
  override name = 'RaffleApiError';
  /** The HTTP status. */
  readonly status: number;
  /** The machine-readable error code (`RAFFLE_NOT_FOUND`, `RATE_LIMITED`, …), or `null` when the body carries none. */
  readonly code: string | null;
  /** The body's `requestId`, else the `X-Request-Id` response header: quote it to support. */
  readonly requestId: string | null;
  /** Seconds the server asked to wait (`Retry-After`), when it sent one. */
  readonly retryAfter: number | null;
  /** The parsed JSON body, or its text when it is not JSON. */
  readonly body: unknown;
  /** The response headers. */
  readonly headers: Headers;

  constructor(init: RaffleApiErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.body = init.body;
    this.headers = init.headers;
  }
}

export class RaffleConnectionError extends RaffleError {
  override name = 'RaffleConnectionError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export class RaffleTimeoutError extends RaffleConnectionError {
  override name = 'RaffleTimeoutError';
}
