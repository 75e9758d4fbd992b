import type { RequestOptions } from '../../http/request-options.js';
import type { HttpClient, PagedList } from '../../http/http-client.js';
import type { ListItem } from '../operation-types.js';

/** A webhook event type: what it means, which owners can receive it, and the JSON Schema of the body an endpoint receives. */
export type WebhookEventTypeRecord = ListItem<'listWebhookEventTypes'>;

/** The catalogue of webhook event types (`GET /api/developer/event-types`). */
export class EventTypes {
  constructor(private readonly http: HttpClient) {}

  /** Every event type; the catalogue is fixed and comes in one page, but it is a list like any other. */
  list(options?: RequestOptions): PagedList<WebhookEventTypeRecord> {
    return this.http.list({ method: 'GET', path: '/api/developer/event-types', options });
  }
}
