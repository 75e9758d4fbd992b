import type { RequestOptions } from '../../http/request-options.js';
import type { WithResponse } from '../../http/response-info.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import { encodePath } from '../encode-path.js';
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
  type WebhookEndpointWithSecret,
  type WebhookTestEvent,
} from './webhook-endpoints.js';

const callsFor = (http: HttpClient, workspaceId: string) =>
  webhookEndpointCalls(http, encodePath`/api/developer/workspaces/${workspaceId}/webhook-endpoints`);

/** The delivery log of a workspace's endpoints (owners and admins). */
export class WorkspaceWebhookDeliveries {
  constructor(private readonly http: HttpClient) {}

  /** The endpoint's delivery attempts, newest first, each with its delivery's state; `deliveryId` narrows to one delivery. */
  listAttempts(workspaceId: string, endpointId: string, params?: ListWebhookDeliveryAttemptsParams, options?: RequestOptions): PagedList<WebhookDeliveryAttempt> {
    return callsFor(this.http, workspaceId).listAttempts(endpointId, params, options);
  }

  /** Sends a delivery again now (202); a pending one is brought forward. 409 when the endpoint is disabled. */
  retry(workspaceId: string, endpointId: string, deliveryId: string, options?: RequestOptions): Promise<WithResponse<WebhookDelivery>> {
    return callsFor(this.http, workspaceId).retry(endpointId, deliveryId, options);
  }

  /** Sends again every failed delivery created since `since` (at most 30 days back); answers how many were requeued. */
  recover(workspaceId: string, endpointId: string, params: RecoverWebhookDeliveriesParams, options?: RequestOptions): Promise<WithResponse<RecoveredWebhookDeliveries>> {
    return callsFor(this.http, workspaceId).recover(endpointId, params, options);
  }
}

/** A workspace's webhook endpoints (owners and admins): `/api/developer/workspaces/{workspaceId}/webhook-endpoints`. */
export class WorkspaceWebhookEndpoints {
  readonly deliveries: WorkspaceWebhookDeliveries;

  constructor(private readonly http: HttpClient) {
    this.deliveries = new WorkspaceWebhookDeliveries(http);
  }

  /** Registers an endpoint; the answer's `secret` is shown this once. */
  create(workspaceId: string, params: CreateWebhookEndpointParams, options?: RequestOptions): Promise<WithResponse<WebhookEndpointWithSecret>> {
    return callsFor(this.http, workspaceId).create(params, options);
  }

  /** The workspace's endpoints, newest first (never a secret). */
  list(workspaceId: string, params?: ListWebhookEndpointsParams, options?: RequestOptions): PagedList<WebhookEndpoint> {
    return callsFor(this.http, workspaceId).list(params, options);
  }

  get(workspaceId: string, endpointId: string, options?: RequestOptions): Promise<WithResponse<WebhookEndpoint>> {
    return callsFor(this.http, workspaceId).get(endpointId, options);
  }

  /** Changes the URL, description, event types or enabled state; `enabled: true` re-enables a disabled endpoint. */
  update(workspaceId: string, endpointId: string, params: UpdateWebhookEndpointParams, options?: RequestOptions): Promise<WithResponse<WebhookEndpoint>> {
    return callsFor(this.http, workspaceId).update(endpointId, params, options);
  }

  /** Deletes the endpoint with its delivery log. */
  delete(workspaceId: string, endpointId: string, options?: RequestOptions): Promise<void> {
    return callsFor(this.http, workspaceId).delete(endpointId, options);
  }

  /** Replaces the signing secret; the previous one keeps signing alongside for 24 hours. */
  rotateSecret(workspaceId: string, endpointId: string, options?: RequestOptions): Promise<WithResponse<WebhookEndpointWithSecret>> {
    return callsFor(this.http, workspaceId).rotateSecret(endpointId, options);
  }

  /** Sends a `webhook.test` event to this endpoint alone (202). 409 when it is disabled. */
  sendTest(workspaceId: string, endpointId: string, options?: RequestOptions): Promise<WithResponse<WebhookTestEvent>> {
    return callsFor(this.http, workspaceId).sendTest(endpointId, options);
  }
}
