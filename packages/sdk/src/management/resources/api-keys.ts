import { newIdempotencyKey, type RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient } from '../../http/http-client.js';
import { encodePath } from '../encode-path.js';
import type { ManagementSchemas, RequestBody, ResponseBody } from '../operation-types.js';

export type ApiKey = ManagementSchemas['ApiKeyRecord'];
/** A key as created or rolled: the only time its plaintext `apiKey` is shown. */
export type CreatedApiKey = ManagementSchemas['CreatedApiKey'];
export type CreateApiKeyParams = ManagementSchemas['CreateApiKeyBody'];
export type RollApiKeyParams = RequestBody<'rollPersonalApiKey'>;

/**
 * The four key calls, the same for personal and workspace keys; only the base path differs.
 * A create carries an Idempotency-Key (a random one unless the caller passes theirs), so it is
 * retried like a GET: the server replays the first answer, plaintext key included, to the same
 * user (decision 0020). Rolling takes no key and is never retried: a repeat would roll again.
 */
function keyCalls(http: HttpClient, base: string) {
  return {
    create: (params: CreateApiKeyParams, options?: RequestOptions): Promise<WithResponse<CreatedApiKey>> => http.request({ method: 'POST', path: base, body: params, idempotencyKey: newIdempotencyKey(), options }),
    list: (options?: RequestOptions): Promise<WithResponse<ApiKey[]>> => http.request({ method: 'GET', path: base, options }),
    revoke: (keyId: string, options?: RequestOptions): Promise<WithResponse<ApiKey>> => http.request({ method: 'DELETE', path: `${base}${encodePath`/${keyId}`}`, options }),
    roll: (keyId: string, params: RollApiKeyParams = {}, options?: RequestOptions): Promise<WithResponse<CreatedApiKey>> =>
      http.request({ method: 'POST', path: `${base}${encodePath`/${keyId}/roll`}`, body: params, options }),
  };
}

/** The caller's own API keys: `/api/developer/personal/api-keys`. */
export class PersonalApiKeys {
  private readonly calls: ReturnType<typeof keyCalls>;

  constructor(http: HttpClient) {
    this.calls = keyCalls(http, '/api/developer/personal/api-keys');
  }

  /** Creates a key; the answer's `apiKey` is the plaintext, shown this once. */
  create(params: CreateApiKeyParams, options?: RequestOptions): Promise<WithResponse<CreatedApiKey>> {
    return this.calls.create(params, options);
  }

  /** Every key, newest first, revoked ones included (never the plaintext). The service answers a plain array, not a page. */
  list(options?: RequestOptions): Promise<WithResponse<ResponseBody<'listPersonalApiKeys'>>> {
    return this.calls.list(options);
  }

  /** Revokes a key; revoking a revoked key answers it again. */
  revoke(keyId: string, options?: RequestOptions): Promise<WithResponse<ApiKey>> {
    return this.calls.revoke(keyId, options);
  }

  /** Replaces a key with a new one of the same name and scopes; the old one works for `expireOldInSeconds` more (0 by default). */
  roll(keyId: string, params?: RollApiKeyParams, options?: RequestOptions): Promise<WithResponse<CreatedApiKey>> {
    return this.calls.roll(keyId, params, options);
  }
}

/** A workspace's API keys (owners and admins): `/api/developer/workspaces/{workspaceId}/api-keys`. */
export class WorkspaceApiKeys {
  constructor(private readonly http: HttpClient) {}

  private calls(workspaceId: string) {
    return keyCalls(this.http, encodePath`/api/developer/workspaces/${workspaceId}/api-keys`);
  }

  /** Creates a key; the answer's `apiKey` is the plaintext, shown this once. */
  create(workspaceId: string, params: CreateApiKeyParams, options?: RequestOptions): Promise<WithResponse<CreatedApiKey>> {
    return this.calls(workspaceId).create(params, options);
  }

  /** Every key of the workspace, newest first, revoked ones included. The service answers a plain array, not a page. */
  list(workspaceId: string, options?: RequestOptions): Promise<WithResponse<ResponseBody<'listWorkspaceApiKeys'>>> {
    return this.calls(workspaceId).list(options);
  }

  /** Revokes a key; revoking a revoked key answers it again. */
  revoke(workspaceId: string, keyId: string, options?: RequestOptions): Promise<WithResponse<ApiKey>> {
    return this.calls(workspaceId).revoke(keyId, options);
  }

  /** Replaces a key with a new one of the same name and scopes; the old one works for `expireOldInSeconds` more (0 by default). */
  roll(workspaceId: string, keyId: string, params?: RollApiKeyParams, options?: RequestOptions): Promise<WithResponse<CreatedApiKey>> {
    return this.calls(workspaceId).roll(keyId, params, options);
  }
}
