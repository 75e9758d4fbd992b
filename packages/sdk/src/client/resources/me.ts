import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient } from '../../http/http-client.js';
import type { Profile } from '../api-types.js';

/** The key's own user (`GET /api/v1/me`). */
export class MeResource {
  constructor(private readonly http: HttpClient) {}

  get(options?: RequestOptions): Promise<WithResponse<Profile>> {
    return this.http.request({ method: 'GET', path: '/api/v1/me', options });
  }
}
