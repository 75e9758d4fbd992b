import type { HttpClient } from '../../http/http-client.js';
import type { Profile } from '../api-types.js';

/** The key's own user (`GET /api/v1/me`). */
export class MeResource {
  constructor(private readonly http: HttpClient) {}

  get(): Promise<Profile> {
    return this.http.request({ method: 'GET', path: '/api/v1/me' });
  }
}
