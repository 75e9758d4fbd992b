import { DEFAULT_DATA_PLANE_URL } from '../client/raffle-client.js';
import { createHttpClient } from '../http/create-http-client.js';
import type { HttpClient } from '../http/http-client.js';

/** How a verifier reaches the keyless `/public/v1` routes: the data plane's origin and the transport. */
export type PublicRouteOptions = { baseUrl?: string; fetch?: typeof fetch; maxRetries?: number; timeoutMs?: number };

/** A client for the keyless public routes (no credentials sent; error codes read from the body). */
export function publicHttpClient(options: PublicRouteOptions): HttpClient {
  return createHttpClient({
    baseUrl: options.baseUrl ?? DEFAULT_DATA_PLANE_URL,
    authorization: '',
    maxRetries: options.maxRetries,
    timeoutMs: options.timeoutMs,
    fetch: options.fetch,
    errorCodeSource: 'body',
  });
}
