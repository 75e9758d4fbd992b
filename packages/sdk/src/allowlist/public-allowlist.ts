import type { Allowlist, AllowlistLeafListParams } from '../client/api-types.js';
import { allowlistLeafList, type AllowlistLeafList } from '../client/resources/allowlist.js';
import { publicHttpClient, type PublicRouteOptions } from '../draw/public-http-client.js';
import type { WithResponse } from '../http/response-info.js';

// The keyless public allowlist routes (issue 35), as the SDK reaches the public draw routes: no
// key is sent, and the data plane's origin comes from `baseUrl`.

export type PublicAllowlistOptions = PublicRouteOptions;

const publicAllowlistPath = (slug: string) => `/public/v1/raffles/${encodeURIComponent(slug)}/allowlist`;

/** `GET /public/v1/raffles/{slug}/allowlist`: a public or unlisted raffle's roots, versions and leaf encoding. */
export function fetchPublicAllowlist(slug: string, options: PublicAllowlistOptions = {}): Promise<WithResponse<Allowlist>> {
  return publicHttpClient(options).request<Allowlist>({ method: 'GET', path: publicAllowlistPath(slug) });
}

/**
 * `GET /public/v1/raffles/{slug}/allowlist/leaves`: every leaf with its proof, when the raffle made
 * its leaves public (404 `NOT_FOUND` otherwise). `for await` walks them; `.page()` fetches one page.
 */
export function publicAllowlistLeaves(slug: string, params: AllowlistLeafListParams = {}, options: PublicAllowlistOptions = {}): AllowlistLeafList {
  return allowlistLeafList(publicHttpClient(options), `${publicAllowlistPath(slug)}/leaves`, params);
}
