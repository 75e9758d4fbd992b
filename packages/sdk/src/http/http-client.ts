/**
 * The seam between the SDK's resource classes and the HTTP machinery (retries, errors, paging).
 * Resource methods describe a request; an HttpClient sends it. Both the data-plane client and
 * the management client are built on one implementation of this interface.
 */

import type { RequestOptions } from './request-options.js';
import type { WithResponse } from './response-info.js';

export type QueryValue = string | number | boolean | null | undefined;

export type RequestSpec = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path with every dynamic segment already encoded (`encodeURIComponent`). */
  path: string;
  /** Query parameters; `undefined` and `null` values are left out. */
  query?: Record<string, QueryValue>;
  /** Sent as JSON when present. */
  body?: unknown;
  /** Sent as `Idempotency-Key`; a non-GET request is retried only when it carries one. */
  idempotencyKey?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** The caller's options for this call; its `idempotencyKey` wins over the spec's. */
  options?: RequestOptions;
};

/** `{ data, pagination }`, the envelope of every list on both APIs. */
export type Page<T> = {
  data: T[];
  pagination: { nextCursor: string | null; hasMore: boolean };
};

/** A list call: iterate it with `for await` to walk every page, or ask for one page. */
export interface PagedList<T> extends AsyncIterable<T> {
  /** One page; `options` are this call's, the list's own (given to the list method) when absent. */
  page(page?: { cursor?: string }, options?: RequestOptions): Promise<WithResponse<Page<T>>>;
}

export interface HttpClient {
  /** Sends the request (with retries) and resolves to the parsed JSON body, or `undefined` for 204. Throws RaffleApiError for any non-2xx. */
  request<T>(spec: RequestSpec): Promise<WithResponse<T>>;
  /** A lazily fetched list: `spec.query` carries the filters and `limit`; the cursor is added per page, `spec.options` go with every page. */
  list<T>(spec: RequestSpec): PagedList<T>;
  /**
   * Sends the request as `request` does (retries and errors alike, until a 2xx answer starts) and
   * resolves to that answer's body unread, as a stream of bytes: a download of any length. The
   * timeout covers the wait for the answer to start; `options.signal` aborts the download too.
   */
  download(spec: RequestSpec): Promise<WithResponse<ReadableStream<Uint8Array>>>;
}
