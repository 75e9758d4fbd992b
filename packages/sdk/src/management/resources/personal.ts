import type { HttpClient } from '../../http/http-client.js';
import { PersonalApiKeys } from './api-keys.js';
import { PersonalEntries } from './personal-entries.js';
import { PersonalWebhookEndpoints } from './personal-webhook-endpoints.js';

/** What belongs to the signed-in user alone: personal API keys, personal webhook endpoints, their own raffle entries. */
export class Personal {
  readonly apiKeys: PersonalApiKeys;
  readonly webhookEndpoints: PersonalWebhookEndpoints;
  readonly entries: PersonalEntries;

  constructor(http: HttpClient) {
    this.apiKeys = new PersonalApiKeys(http);
    this.webhookEndpoints = new PersonalWebhookEndpoints(http);
    this.entries = new PersonalEntries(http);
  }
}
