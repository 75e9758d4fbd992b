import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient } from '../../http/http-client.js';
import type { ResponseBody } from '../operation-types.js';

/** A chain on-chain requirements can read: its name (`params.chain`) and its EIP-155 id, null when its RPC did not answer. */
export type PlatformChain = ResponseBody<'listChains'>['data'][number];

/** The chains this deployment reads (`GET /api/dashboard/chains`). */
export class Chains {
  constructor(private readonly http: HttpClient) {}

  /** Every configured chain, in one answer (it is the deployment's configuration, not a growing list). */
  list(options?: RequestOptions): Promise<WithResponse<ResponseBody<'listChains'>>> {
    return this.http.request({ method: 'GET', path: '/api/dashboard/chains', options });
  }
}
