import { createHttpClient } from '../http/create-http-client.js';
import type { HttpClient } from '../http/http-client.js';
import { DEFAULT_MANAGEMENT_BASE_URL, type RaffleManagementClientOptions } from './client-options.js';
import { CapabilitiesResource } from './resources/capabilities.js';
import { Chains } from './resources/chains.js';
import { EventTypes } from './resources/event-types.js';
import { ManagementMe } from './resources/me.js';
import { Personal } from './resources/personal.js';
import { Workspaces } from './resources/workspaces.js';

/**
 * The management API (`/api/developer/…` and `/api/dashboard/…`), signed in as a dashboard user.
 * Resources follow the paths: `mgmt.me` is the signed-in user, `mgmt.personal.*` what they own,
 * `mgmt.workspaces.*` a workspace's, and ids are positional arguments in path order, then the
 * body or filters.
 *
 * Errors are `RaffleApiError`s; the management error body has no `code` field, so `code` is
 * read from the `CODE: …` prefix of its message. Management honours Idempotency-Key on its
 * creates (API keys, webhook endpoints, raffles): they are sent with a random key unless the call
 * passes one, and retried like GETs; any other write is repeated only after a 429 (refused before
 * it ran). Every method takes `RequestOptions` last.
 */
export class RaffleManagementClient {
  readonly capabilities: CapabilitiesResource;
  readonly chains: Chains;
  readonly eventTypes: EventTypes;
  readonly me: ManagementMe;
  readonly personal: Personal;
  readonly workspaces: Workspaces;

  constructor(options: RaffleManagementClientOptions) {
    if (typeof options?.token !== 'string' || options.token.length === 0) throw new TypeError('RaffleManagementClient needs a dashboard session token');
    const http: HttpClient = createHttpClient({
      baseUrl: options.baseUrl ?? DEFAULT_MANAGEMENT_BASE_URL,
      authorization: `Bearer ${options.token}`,
      maxRetries: options.maxRetries,
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
      errorCodeSource: 'message-prefix',
    });
    this.capabilities = new CapabilitiesResource(http);
    this.chains = new Chains(http);
    this.eventTypes = new EventTypes(http);
    this.me = new ManagementMe(http);
    this.personal = new Personal(http);
    this.workspaces = new Workspaces(http);
  }
}
