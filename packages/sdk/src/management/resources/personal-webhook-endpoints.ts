import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import {
  webhookEndpointCalls,
  type CreateWebhookEndpointParams,
  type ListWebhookDeliveryAttemptsParams,
  type ListWebhookEndpointsParams,
  type RecoveredWebhookDeliveries,
  type RecoverWebhookDeliveriesParams,
  type UpdateWebhookEndpointParams,
  type WebhookDelivery,
  type WebhookDeliveryAttempt,
  type WebhookEndpoint,
  type WebhookEndpointCalls,
  type WebhookEndpointWithSecret,
  type WebhookTestEvent,
} from './webhook-endpoints.js';

/** The delivery log of the caller's own endpoints. */
export class PersonalWebhookDeliveries {
  constructor(private readonly calls: WebhookEndpointCalls) {}

  /** The endpoint's delivery attempts, newest first, each with its delivery's state; `deliveryId` narrows to one delivery. */
  listAttempts(endpointId: string, params?: ListWebhookDeliveryAttemptsParams, options?: RequestOptions): PagedList<WebhookDeliveryAttempt> {
    return this.calls.listAttempts(endpointId, params, options);
  }

  /** Sends a delivery again now (202); a pending one is brought forward. 409 when the endpoint is disabled. */
  retry(endpointId: string, deliveryId: string, options?: RequestOptions): Promise<WithResponse<WebhookDelivery>> {
    return this.calls.retry(endpointId, deliveryId, options);
  }

  /** Sends again every failed delivery created since `since` (at most 30 days back); answers how many were requeued. */
  recover(endpointId: string, params: RecoverWebhookDeliveriesParams, options?: RequestOptions): Promise<WithResponse<RecoveredWebhookDeliveries>> {
    return this.calls.recover(endpointId, params, options);
  }
}

/** The caller's own webhook endpoints: `/api/developer/personal/webhook-endpoints`. */
export class PersonalWebhookEndpoints {
  private readonly calls: WebhookEndpointCalls;
  readonly deliveries: PersonalWebhookDeliveries;

  constructor(http: HttpClient) {
    this.calls = webhookEndpointCalls(http, '/api/developer/personal/webhook-endpoints');
    this.deliveries = new PersonalWebhookDeliveries(this.calls);
  }

  /** Registers an endpoint; the answer's `secret` is shown this once. */
  create(params: CreateWebhookEndpointParams, options?: RequestOptions): Promise<WithResponse<WebhookEndpointWithSecret>> {
    return this.calls.create(params, options);
  }

  /** The caller's endpoints, newest first (never a secret). */
  list(params?: ListWebhookEndpointsParams, options?: RequestOptions): PagedList<WebhookEndpoint> {
    return this.calls.list(params, options);
  }

  get(endpointId: string, options?: RequestOptions): Promise<WithResponse<WebhookEndpoint>> {
    return this.calls.get(endpointId, options);
  }

  /** Changes the URL, description, event types or enabled state; `enabled: true` re-enables a disabled endpoint. */
  update(endpointId: string, params: UpdateWebhookEndpointParams, options?: RequestOptions): Promise<WithResponse<WebhookEndpoint>> {
    return this.calls.update(endpointId, params, options);
  }

  /** Deletes the endpoint with its delivery log. */
  delete(endpointId: string, options?: RequestOptions): Promise<void> {
    return this.calls.delete(endpointId, options);
  }

  /** Replaces the signing secret; the previous one keeps signing alongside for 24 hours. */
  rotateSecret(endpointId: string, options?: RequestOptions): Promise<WithResponse<WebhookEndpointWithSecret>> {
    return this.calls.rotateSecret(endpointId, options);
  }

  /** Sends a `webhook.test` event to this endpoint alone (202). 409 when it is disabled. */
  sendTest(endpointId: string, options?: RequestOptions): Promise<WithResponse<WebhookTestEvent>> {
    return this.calls.sendTest(endpointId, options);
  }
}
