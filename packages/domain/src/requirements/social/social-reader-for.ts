import type { Db } from '@raffle/db';
import { createDiscordClient, createXClient, type ProviderEndpoints, type SocialProvider } from '@raffle/social';
import type { ConnectionTokens } from '../../connections/connection-tokens.js';
import { providerWaitsIn } from './connection-access.js';
import { createSocialReader, type SocialReader } from './social-reader.js';

/**
 * The reader a service evaluates Discord and X requirements with: the providers' REST clients at
 * their configured base URLs (only for the providers accounts can be linked with here), the
 * linked accounts' tokens, and the waits kept in the database.
 */
export function socialReaderFor(args: {
  db: Db;
  tokens: ConnectionTokens;
  /** The providers with a client configured. */
  providers: readonly SocialProvider[];
  endpoints: Record<SocialProvider, Pick<ProviderEndpoints, 'apiBaseUrl'>>;
  /** SOCIAL_READ_TIMEOUT_MS: the bound on one read. */
  timeoutMs: number;
}): SocialReader {
  const offered = (provider: SocialProvider) => args.providers.includes(provider);
  return createSocialReader({
    tokens: args.tokens,
    discord: offered('discord') ? createDiscordClient({ apiBaseUrl: args.endpoints.discord.apiBaseUrl, timeoutMs: args.timeoutMs }) : null,
    x: offered('x') ? createXClient({ apiBaseUrl: args.endpoints.x.apiBaseUrl, timeoutMs: args.timeoutMs }) : null,
    waits: providerWaitsIn(args.db),
    timeoutMs: args.timeoutMs,
  });
}
