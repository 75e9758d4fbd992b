import { createHttpClient } from '../http/create-http-client.js';
import { AllowlistResource } from './resources/allowlist.js';
import { EntriesResource } from './resources/entries.js';
import { MeResource } from './resources/me.js';
import { RafflesResource } from './resources/raffles.js';
import { WinsResource } from './resources/wins.js';
import { WorkspaceProjectsResource } from './resources/workspace-projects.js';
import { WorkspaceRafflesResource } from './resources/workspace-raffles.js';

export type RaffleClientOptions = {
  /** A personal or workspace API key; sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
  /** Where the data plane listens (default `http://localhost:3000`, the local platform). */
  baseUrl?: string;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
  /** Per attempt (default 30 000 ms). */
  timeoutMs?: number;
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
  /**
   * Send the `Raffle-Read-After` token of this client's latest entry or withdrawal on its reads
   * (default true): where the platform reads from a replica, your reads never miss your own writes.
   */
  readYourWrites?: boolean;
};

export const DEFAULT_DATA_PLANE_URL = 'http://localhost:3000';

/** The data-plane API (`/api/v1`) with an API key. */
export class RaffleClient {
  readonly me: MeResource;
  readonly raffles: RafflesResource;
  readonly entries: EntriesResource;
  readonly wins: WinsResource;
  /** Allowlists: a winner's proof and wallet (personal key), a raffle's allowlist and leaves (workspace key). */
  readonly allowlist: AllowlistResource;
  readonly workspaces: { readonly raffles: WorkspaceRafflesResource; readonly projects: WorkspaceProjectsResource };

  constructor(options: RaffleClientOptions) {
    if (typeof options?.apiKey !== 'string' || options.apiKey === '') throw new TypeError('RaffleClient needs an apiKey');
    const http = createHttpClient({
      baseUrl: options.baseUrl ?? DEFAULT_DATA_PLANE_URL,
      authorization: `Bearer ${options.apiKey}`,
      maxRetries: options.maxRetries,
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
      errorCodeSource: 'body',
      readYourWrites: options.readYourWrites,
    });
    this.me = new MeResource(http);
    this.raffles = new RafflesResource(http);
    this.entries = new EntriesResource(http);
    this.wins = new WinsResource(http);
    this.allowlist = new AllowlistResource(http);
    this.workspaces = { raffles: new WorkspaceRafflesResource(http), projects: new WorkspaceProjectsResource(http) };
  }
}
