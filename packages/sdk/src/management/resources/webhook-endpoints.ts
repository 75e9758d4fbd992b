import { newIdempotencyKey, type RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
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
 * under different owners. A create carries an Idempotency-Key (random unless the caller passes
 * theirs), so it is retried and replayed, secret included, to the same user (decision 0020). The
 * other POSTs take none and are never retried automatically: a repeated rotate replaces the
 * secret it just returned, a repeated test sends a second event.
 */
export function webhookEndpointCalls(http: HttpClient, base: string) {
  const one = (endpointId: string) => `${base}${encodePath`/${endpointId}`}`;
  return {
    create: (params: CreateWebhookEndpointParams, options?: RequestOptions): Promise<WithResponse<WebhookEndpointWithSecret>> => http.request({ method: 'POST', path: base, body: params, idempotencyKey: newIdempotencyKey(), options }),
    list: (params: ListWebhookEndpointsParams = {}, options?: RequestOptions): PagedList<WebhookEndpoint> => http.list({ method: 'GET', path: base, query: { ...params }, options }),
    get: (endpointId: string, options?: RequestOptions): Promise<WithResponse<WebhookEndpoint>> => http.request({ method: 'GET', path: one(endpointId), options }),
    update: (endpointId: string, params: UpdateWebhookEndpointParams, options?: RequestOptions): Promise<WithResponse<WebhookEndpoint>> =>
      http.request({ method: 'PATCH', path: one(endpointId), body: params, options }),
    delete: (endpointId: string, options?: RequestOptions): Promise<void> => http.request({ method: 'DELETE', path: one(endpointId), options }),
    rotateSecret: (endpointId: string, options?: RequestOptions): Promise<WithResponse<WebhookEndpointWithSecret>> =>
      http.request({ method: 'POST', path: `${one(endpointId)}/rotate-secret`, options }),
    sendTest: (endpointId: string, options?: RequestOptions): Promise<WithResponse<WebhookTestEvent>> => http.request({ method: 'POST', path: `${one(endpointId)}/test`, options }),
    listAttempts: (endpointId: string, params: ListWebhookDeliveryAttemptsParams = {}, options?: RequestOptions): PagedList<WebhookDeliveryAttempt> =>
      http.list({ method: 'GET', path: `${one(endpointId)}/deliveries`, query: { ...params }, options }),
    retry: (endpointId: string, deliveryId: string, options?: RequestOptions): Promise<WithResponse<WebhookDelivery>> =>
      http.request({ method: 'POST', path: `${one(endpointId)}${encodePath`/deliveries/${deliveryId}/retry`}`, options }),
    recover: (endpointId: string, params: RecoverWebhookDeliveriesParams, options?: RequestOptions): Promise<WithResponse<RecoveredWebhookDeliveries>> =>
      http.request({ method: 'POST', path: `${one(endpointId)}/recover`, body: params, options }),
  };
}

export type WebhookEndpointCalls = ReturnType<typeof webhookEndpointCalls>;
