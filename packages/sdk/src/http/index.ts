export { createHttpClient, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, type HttpClientOptions } from './create-http-client.js';
export { clientIdentity } from './client-identity.js';
export type { ErrorCodeSource } from './error-from-response.js';
export type { HttpClient, Page, PagedList, QueryValue, RequestSpec } from './http-client.js';
export { RaffleApiError, RaffleConnectionError, RaffleError, RaffleTimeoutError } from './raffle-api-error.js';
export { newIdempotencyKey, type RequestOptions } from './request-options.js';
export { rateLimitOf, type RateLimitState, type ResponseInfo, type WithResponse } from './response-info.js';
export { MAX_RETRY_AFTER_SECONDS } from './retry-policy.js';
export type { CsvDownload } from './csv-download.js';
