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
  listAttempts(endpointId: string, params?: ListWebhookDeliveryAttemptsParams): PagedList<WebhookDeliveryAttempt> {
    return this.calls.listAttempts(endpointId, params);
  }

  /** Sends a delivery again now (202); a pending one is brought forward. 409 when the endpoint is disabled. */
  retry(endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
    return this.calls.retry(endpointId, deliveryId);
  }

  /** Sends again every failed delivery created since `since` (at most 30 days back); answers how many were requeued. */
  recover(endpointId: string, params: RecoverWebhookDeliveriesParams): Promise<RecoveredWebhookDeliveries> {
    return this.calls.recover(endpointId, params);
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
  create(params: CreateWebhookEndpointParams): Promise<WebhookEndpointWithSecret> {
    return this.calls.create(params);
  }

  /** The caller's endpoints, newest first (never a secret). */
  list(params?: ListWebhookEndpointsParams): PagedList<WebhookEndpoint> {
    return this.calls.list(params);
  }

  get(endpointId: string): Promise<WebhookEndpoint> {
    return this.calls.get(endpointId);
  }

  /** Changes the URL, description, event types or enabled state; `enabled: true` re-enables a disabled endpoint. */
  update(endpointId: string, params: UpdateWebhookEndpointParams): Promise<WebhookEndpoint> {
    return this.calls.update(endpointId, params);
  }

  /** Deletes the endpoint with its delivery log. */
  delete(endpointId: string): Promise<void> {
    return this.calls.delete(endpointId);
  }

  /** Replaces the signing secret; the previous one keeps signing alongside for 24 hours. */
  rotateSecret(endpointId: string): Promise<WebhookEndpointWithSecret> {
    return this.calls.rotateSecret(endpointId);
  }

  /** Sends a `webhook.test` event to this endpoint alone (202). 409 when it is disabled. */
  sendTest(endpointId: string): Promise<WebhookTestEvent> {
    return this.calls.sendTest(endpointId);
  }
}
