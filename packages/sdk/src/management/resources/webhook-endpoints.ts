import type { HttpClient, PagedList } from '../../http/http-client.js';
import { encodePath } from '../encode-path.js';
import type { ListItem, ListParams, ManagementSchemas, RequestBody, ResponseBody } from '../operation-types.js';

export type WebhookEndpoint = ManagementSchemas['WebhookEndpoint'];
/** An endpoint as created or after a rotation: the only time its `whsec_` signing `secret` is shown. */
export type WebhookEndpointWithSecret = ManagementSchemas['CreatedWebhookEndpoint'];
type CreateBody = RequestBody<'createPersonalWebhookEndpoint'>;
/**
 * `enabled` defaults to true on the server; the generator marks a property with a default as
 * required, so it is made optional again here.
 */
export type CreateWebhookEndpointParams = Omit<CreateBody, 'enabled'> & Partial<Pick<CreateBody, 'enabled'>>;
export type UpdateWebhookEndpointParams = RequestBody<'updatePersonalWebhookEndpoint'>;
export type ListWebhookEndpointsParams = ListParams<'listPersonalWebhookEndpoints'>;
export type WebhookTestEvent = ResponseBody<'testPersonalWebhookEndpoint'>;
export type WebhookDeliveryAttempt = ListItem<'listPersonalWebhookDeliveryAttempts'>;
export type ListWebhookDeliveryAttemptsParams = ListParams<'listPersonalWebhookDeliveryAttempts'>;
export type WebhookDelivery = ResponseBody<'retryPersonalWebhookDelivery'>;
export type RecoverWebhookDeliveriesParams = RequestBody<'recoverPersonalWebhookDeliveries'>;
export type RecoveredWebhookDeliveries = ResponseBody<'recoverPersonalWebhookDeliveries'>;

/**
 * Every endpoint call under one base path: personal and workspace endpoints are the same routes
 * under different owners. None of the POSTs is retried automatically (management takes no
 * Idempotency-Key): a repeated create registers a second endpoint, a repeated rotate replaces
 * the secret it just returned, a repeated test sends a second event.
 */
export function webhookEndpointCalls(http: HttpClient, base: string) {
  const one = (endpointId: string) => `${base}${encodePath`/${endpointId}`}`;
  return {
    create: (params: CreateWebhookEndpointParams): Promise<WebhookEndpointWithSecret> => http.request({ method: 'POST', path: base, body: params }),
    list: (params: ListWebhookEndpointsParams = {}): PagedList<WebhookEndpoint> => http.list({ method: 'GET', path: base, query: { ...params } }),
    get: (endpointId: string): Promise<WebhookEndpoint> => http.request({ method: 'GET', path: one(endpointId) }),
    update: (endpointId: string, params: UpdateWebhookEndpointParams): Promise<WebhookEndpoint> =>
      http.request({ method: 'PATCH', path: one(endpointId), body: params }),
    delete: (endpointId: string): Promise<void> => http.request({ method: 'DELETE', path: one(endpointId) }),
    rotateSecret: (endpointId: string): Promise<WebhookEndpointWithSecret> =>
      http.request({ method: 'POST', path: `${one(endpointId)}/rotate-secret` }),
    sendTest: (endpointId: string): Promise<WebhookTestEvent> => http.request({ method: 'POST', path: `${one(endpointId)}/test` }),
    listAttempts: (endpointId: string, params: ListWebhookDeliveryAttemptsParams = {}): PagedList<WebhookDeliveryAttempt> =>
      http.list({ method: 'GET', path: `${one(endpointId)}/deliveries`, query: { ...params } }),
    retry: (endpointId: string, deliveryId: string): Promise<WebhookDelivery> =>
      http.request({ method: 'POST', path: `${one(endpointId)}${encodePath`/deliveries/${deliveryId}/retry`}` }),
    recover: (endpointId: string, params: RecoverWebhookDeliveriesParams): Promise<RecoveredWebhookDeliveries> =>
      http.request({ method: 'POST', path: `${one(endpointId)}/recover`, body: params }),
  };
}

export type WebhookEndpointCalls = ReturnType<typeof webhookEndpointCalls>;
