import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient } from '../../http/http-client.js';
import { encodePath } from '../encode-path.js';
import type { ManagementSchemas, RequestBody } from '../operation-types.js';

/** A Discord or X account the signed-in user linked (never its tokens). */
export type Connection = ManagementSchemas['Connection'];
/** The user's connections, and the providers this deployment offers. */
export type ConnectionList = ManagementSchemas['ConnectionList'];
/** The provider's consent URL, and until when the flow may be completed. */
export type ConnectionStart = ManagementSchemas['ConnectionStart'];
export type ConnectionProvider = Connection['provider'];
/** What the provider sent back to the callback: `state`, and `code` or `error` (and `errorDescription`). */
export type CompleteConnectionParams = RequestBody<'completeConnection'>;

/**
 * The signed-in user's Discord and X accounts, linked by OAuth 2.0 with PKCE: `start()`, send the
 * browser to `authorizationUrl`, then `complete()` with what the provider sent back to the
 * console's `/connections/{provider}/callback`.
 */
export class ManagementConnections {
  constructor(private readonly http: HttpClient) {}

  /** A consent URL for the provider; the flow is single-use and lasts 10 minutes (404 PROVIDER_NOT_CONFIGURED when the deployment has no client for it). */
  start(provider: ConnectionProvider, options?: RequestOptions): Promise<WithResponse<ConnectionStart>> {
    return this.http.request({ method: 'POST', path: encodePath`/api/dashboard/me/connections/${provider}/start`, options });
  }

  /** Links the account the provider's callback names; each refusal has its own code (`OAUTH_*`, 503 `PROVIDER_UNAVAILABLE`). */
  complete(provider: ConnectionProvider, params: CompleteConnectionParams, options?: RequestOptions): Promise<WithResponse<Connection>> {
    return this.http.request({ method: 'POST', path: encodePath`/api/dashboard/me/connections/${provider}/callback`, body: params, options });
  }

  /** The user's connections by provider, and `providers`: those an account can be linked with here. */
  list(options?: RequestOptions): Promise<WithResponse<ConnectionList>> {
    return this.http.request({ method: 'GET', path: '/api/dashboard/me/connections', options });
  }

  /** Unlinks the provider's account and revokes its grant there (404 CONNECTION_NOT_FOUND when none is linked). */
  unlink(provider: ConnectionProvider, options?: RequestOptions): Promise<void> {
    return this.http.request({ method: 'DELETE', path: encodePath`/api/dashboard/me/connections/${provider}`, options });
  }
}
