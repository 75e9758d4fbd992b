import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient } from '../../http/http-client.js';
import type { ResponseBody } from '../operation-types.js';

export type Capabilities = ResponseBody<'getCapabilities'>;

/** The scopes and webhook event types that can be chosen, per owner kind. */
export class CapabilitiesResource {
  constructor(private readonly http: HttpClient) {}

  /** `GET /api/developer/capabilities`. */
  get(options?: RequestOptions): Promise<WithResponse<Capabilities>> {
    return this.http.request({ method: 'GET', path: '/api/developer/capabilities', options });
  }
}
