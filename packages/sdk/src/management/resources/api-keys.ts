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
 * Creating and rolling are never retried automatically: management takes no Idempotency-Key,
 * and a retried create could mint a second key.
 */
function keyCalls(http: HttpClient, base: string) {
  return {
    create: (params: CreateApiKeyParams): Promise<CreatedApiKey> => http.request({ method: 'POST', path: base, body: params }),
    list: (): Promise<ApiKey[]> => http.request({ method: 'GET', path: base }),
    revoke: (keyId: string): Promise<ApiKey> => http.request({ method: 'DELETE', path: `${base}${encodePath`/${keyId}`}` }),
    roll: (keyId: string, params: RollApiKeyParams = {}): Promise<CreatedApiKey> =>
      http.request({ method: 'POST', path: `${base}${encodePath`/${keyId}/roll`}`, body: params }),
  };
}

/** The caller's own API keys: `/api/developer/personal/api-keys`. */
export class PersonalApiKeys {
  private readonly calls: ReturnType<typeof keyCalls>;

  constructor(http: HttpClient) {
    this.calls = keyCalls(http, '/api/developer/personal/api-keys');
  }

  /** Creates a key; the answer's `apiKey` is the plaintext, shown this once. */
  create(params: CreateApiKeyParams): Promise<CreatedApiKey> {
    return this.calls.create(params);
  }

  /** Every key, newest first, revoked ones included (never the plaintext). The service answers a plain array, not a page. */
  list(): Promise<ResponseBody<'listPersonalApiKeys'>> {
    return this.calls.list();
  }

  /** Revokes a key; revoking a revoked key answers it again. */
  revoke(keyId: string): Promise<ApiKey> {
    return this.calls.revoke(keyId);
  }

  /** Replaces a key with a new one of the same name and scopes; the old one works for `expireOldInSeconds` more (0 by default). */
  roll(keyId: string, params?: RollApiKeyParams): Promise<CreatedApiKey> {
    return this.calls.roll(keyId, params);
  }
}

/** A workspace's API keys (owners and admins): `/api/developer/workspaces/{workspaceId}/api-keys`. */
export class WorkspaceApiKeys {
  constructor(private readonly http: HttpClient) {}

  private calls(workspaceId: string) {
    return keyCalls(this.http, encodePath`/api/developer/workspaces/${workspaceId}/api-keys`);
  }

  /** Creates a key; the answer's `apiKey` is the plaintext, shown this once. */
  create(workspaceId: string, params: CreateApiKeyParams): Promise<CreatedApiKey> {
    return this.calls(workspaceId).create(params);
  }

  /** Every key of the workspace, newest first, revoked ones included. The service answers a plain array, not a page. */
  list(workspaceId: string): Promise<ResponseBody<'listWorkspaceApiKeys'>> {
    return this.calls(workspaceId).list();
  }

  /** Revokes a key; revoking a revoked key answers it again. */
  revoke(workspaceId: string, keyId: string): Promise<ApiKey> {
    return this.calls(workspaceId).revoke(keyId);
  }

  /** Replaces a key with a new one of the same name and scopes; the old one works for `expireOldInSeconds` more (0 by default). */
  roll(workspaceId: string, keyId: string, params?: RollApiKeyParams): Promise<CreatedApiKey> {
    return this.calls(workspaceId).roll(keyId, params);
  }
}
