import type { HttpClient } from './http-client.js';
import type { RequestOptions } from './request-options.js';
import type { WithResponse } from './response-info.js';

/** A CSV file as it downloads: its bytes, and `lastResponse.headers` with its name (`Content-Disposition`). */
export type CsvDownload = WithResponse<ReadableStream<Uint8Array>>;

/** GETs a CSV export; a refusal still comes as the JSON error body, so both are accepted. */
export const downloadCsv = (http: HttpClient, path: string, options: RequestOptions | undefined): Promise<CsvDownload> =>
  http.download({ method: 'GET', path, headers: { accept: 'text/csv, application/json' }, options });
