import { useMemo } from 'react';
import { useManagement } from '../../api/clients.js';
import { useScope, type Permission } from '../../scope/scope.js';
import { webhookApiFor, type WebhookApi, type WebhookScope } from './webhook-api.js';

export type WebhookContext = {
  scope: WebhookScope;
  api: WebhookApi;
  /** Which event types this owner can subscribe to: the catalogue's audience of the same name. */
  audience: 'personal' | 'workspace';
  /**
   * A workspace's endpoints are its owners' and admins' alone: the API answers 403 to members
   * even for reading, so a member gets the reason instead of the pages.
   */
  access: Permission;
  /** The caller's role is still being fetched: neither the pages nor the refusal yet. */
  roleLoading: boolean;
  ownerLabel: string;
};

export function useWebhookContext(): WebhookContext {
  const mgmt = useManagement();
  const { scope, can, workspacesLoading } = useScope();
  const workspaceId = scope.kind === 'workspace' ? scope.workspaceId : undefined;
  const workspaceName = scope.kind === 'workspace' ? scope.workspaceName : undefined;
  const { allowed, reason } = can('manage');
  return useMemo(() => {
    const webhookScope: WebhookScope = workspaceId ? { kind: 'workspace', workspaceId } : { kind: 'personal' };
    return {
      scope: webhookScope,
      api: webhookApiFor(mgmt, webhookScope),
      audience: webhookScope.kind,
      access: reason === undefined ? { allowed } : { allowed, reason },
      roleLoading: workspaceId !== undefined && workspacesLoading,
      ownerLabel: workspaceName ? `the ${workspaceName} workspace` : 'your personal space',
    };
  }, [mgmt, workspaceId, workspaceName, allowed, reason, workspacesLoading]);
}
