import type { RequestOptions } from '../../http/request-options.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import type { Win, WinListParams } from '../api-types.js';

/** The key's user's wins (personal key). */
export class WinsResource {
  constructor(private readonly http: HttpClient) {}

  list(params: WinListParams = {}, options?: RequestOptions): PagedList<Win> {
    return this.http.list({ method: 'GET', path: '/api/v1/wins', query: { ...params }, options });
  }
}
