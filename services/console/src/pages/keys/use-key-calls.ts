import type { ApiKey, CreateApiKeyParams, CreatedApiKey, RaffleManagementClient } from '@raffle/sdk';
import { useManagement } from '../../api/clients.js';
import { useScope } from '../../scope/scope.js';

export type KeyKind = 'personal' | 'workspace';

/** The four key calls bound to the current scope, so the page never branches on it again. */
export type KeyCalls = {
  kind: KeyKind;
  /** The workspace whose keys these are; null for personal keys. */
  workspaceId: string | null;
  /** TanStack Query key of this scope's list: invalidated after every mutation. */
  listKey: readonly unknown[];
  list(): Promise<ApiKey[]>;
  create(params: CreateApiKeyParams): Promise<CreatedApiKey>;
  roll(keyId: string, expireOldInSeconds: number): Promise<CreatedApiKey>;
  revoke(keyId: string): Promise<ApiKey>;
};

export function keyCallsFor(mgmt: RaffleManagementClient, scope: ReturnType<typeof useScope>['scope']): KeyCalls {
  if (scope.kind === 'personal') {
    const keys = mgmt.personal.apiKeys;
    return {
      kind: 'personal',
      workspaceId: null,
      listKey: ['api-keys', 'personal'],
      list: () => keys.list(),
      create: (params) => keys.create(params),
      roll: (keyId, expireOldInSeconds) => keys.roll(keyId, { expireOldInSeconds }),
      revoke: (keyId) => keys.revoke(keyId),
    };
  }
  const keys = mgmt.workspaces.apiKeys;
  const { workspaceId } = scope;
  return {
    kind: 'workspace',
    workspaceId,
    listKey: ['api-keys', 'workspace', workspaceId],
    list: () => keys.list(workspaceId),
    create: (params) => keys.create(workspaceId, params),
    roll: (keyId, expireOldInSeconds) => keys.roll(workspaceId, keyId, { expireOldInSeconds }),
    revoke: (keyId) => keys.revoke(workspaceId, keyId),
  };
}

export function useKeyCalls(): KeyCalls {
  const mgmt = useManagement();
  const { scope } = useScope();
  return keyCallsFor(mgmt, scope);
}
