/** Options of `new RaffleManagementClient(…)`. */
export type RaffleManagementClientOptions = {
  /** The dashboard session JWT, sent as `Authorization: Bearer <token>`. API keys are refused by management. */
  token: string;
  /**
   * Where the management service answers; `http://localhost:3001` (its default port) when absent.
   * In a browser, `''` sends same-origin requests (`/api/…`), for a console served beside the API.
   */
  baseUrl?: string;
  /**
   * Retries of a GET, or a create carrying an Idempotency-Key, after a network error, 429, 502, 503
   * or 504; 2 when absent. Other writes are repeated only after a 429 (refused before it ran).
   */
  maxRetries?: number;
  /** Per-attempt timeout in milliseconds. */
  timeoutMs?: number;
  /** A fetch to use instead of `globalThis.fetch` (a test double, a proxy, an instrumented fetch). */
  fetch?: typeof fetch;
};

export const DEFAULT_MANAGEMENT_BASE_URL = 'http://localhost:3001';
