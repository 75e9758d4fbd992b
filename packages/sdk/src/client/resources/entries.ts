import type { RequestOptions } from '../../http/request-options.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import type { Entry, EntryListParams } from '../api-types.js';

/** The key's user's entries across raffles (personal key). */
export class EntriesResource {
  constructor(private readonly http: HttpClient) {}

  list(params: EntryListParams = {}, options?: RequestOptions): PagedList<Entry> {
    return this.http.list({ method: 'GET', path: '/api/v1/entries', query: { ...params }, options });
  }
}
