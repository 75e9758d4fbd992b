import type {
  CreateWebhookEndpointParams,
  PagedList,
  RaffleManagementClient,
  RecoveredWebhookDeliveries,
  UpdateWebhookEndpointParams,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookTestEvent,
} from '@raffle/sdk';

export type WebhookScope = { kind: 'personal' } | { kind: 'workspace'; workspaceId: string };

/**
 * The endpoint calls of one owner with one signature: personal and workspace endpoints are the
 * same routes, but the SDK takes the workspace id as a first argument, so the pages would
 * otherwise branch on the scope at every call.
 */
export type WebhookApi = {
  create(params: CreateWebhookEndpointParams): Promise<WebhookEndpointWithSecret>;
  list(): PagedList<WebhookEndpoint>;
  get(endpointId: string): Promise<WebhookEndpoint>;
  update(endpointId: string, params: UpdateWebhookEndpointParams): Promise<WebhookEndpoint>;
  delete(endpointId: string): Promise<void>;
  rotateSecret(endpointId: string): Promise<WebhookEndpointWithSecret>;
  sendTest(endpointId: string): Promise<WebhookTestEvent>;
  listAttempts(endpointId: string): PagedList<WebhookDeliveryAttempt>;
  retry(endpointId: string, deliveryId: string): Promise<WebhookDelivery>;
  recover(endpointId: string, since: string): Promise<RecoveredWebhookDeliveries>;
};

export function webhookApiFor(mgmt: RaffleManagementClient, scope: WebhookScope): WebhookApi {
  if (scope.kind === 'personal') {
    const endpoints = mgmt.personal.webhookEndpoints;
    return {
      create: (params) => endpoints.create(params),
      list: () => endpoints.list(),
      get: (id) => endpoints.get(id),
      update: (id, params) => endpoints.update(id, params),
      delete: (id) => endpoints.delete(id),
      rotateSecret: (id) => endpoints.rotateSecret(id),
      sendTest: (id) => endpoints.sendTest(id),
      listAttempts: (id) => endpoints.deliveries.listAttempts(id),
      retry: (id, deliveryId) => endpoints.deliveries.retry(id, deliveryId),
      recover: (id, since) => endpoints.deliveries.recover(id, { since }),
    };
  }
  const { workspaceId } = scope;
  const endpoints = mgmt.workspaces.webhookEndpoints;
  return {
    create: (params) => endpoints.create(workspaceId, params),
    list: () => endpoints.list(workspaceId),
    get: (id) => endpoints.get(workspaceId, id),
    update: (id, params) => endpoints.update(workspaceId, id, params),
    delete: (id) => endpoints.delete(workspaceId, id),
    rotateSecret: (id) => endpoints.rotateSecret(workspaceId, id),
    sendTest: (id) => endpoints.sendTest(workspaceId, id),
    listAttempts: (id) => endpoints.deliveries.listAttempts(workspaceId, id),
    retry: (id, deliveryId) => endpoints.deliveries.retry(workspaceId, id, deliveryId),
    recover: (id, since) => endpoints.deliveries.recover(workspaceId, id, { since }),
  };
}

/** Query keys, prefixed by the owner so switching workspace never shows another owner's cache. */
export const webhookKeys = {
  all: (scope: WebhookScope) => ['webhooks', scope.kind === 'personal' ? 'personal' : scope.workspaceId] as const,
  endpoints: (scope: WebhookScope) => [...webhookKeys.all(scope), 'endpoints'] as const,
  endpoint: (scope: WebhookScope, endpointId: string) => [...webhookKeys.all(scope), 'endpoint', endpointId] as const,
  attempts: (scope: WebhookScope, endpointId: string) => [...webhookKeys.all(scope), 'attempts', endpointId] as const,
};

/** Where the pages live: `/personal/webhooks` or `/w/{workspaceId}/webhooks`. */
export function webhooksPath(scope: WebhookScope, endpointId?: string): string {
  const base = scope.kind === 'personal' ? '/personal/webhooks' : `/w/${encodeURIComponent(scope.workspaceId)}/webhooks`;
  return endpointId ? `${base}/${encodeURIComponent(endpointId)}` : base;
}
