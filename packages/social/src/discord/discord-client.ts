import { DiscordAPIError, RateLimitError, REST } from '@discordjs/rest';
import { RESTJSONErrorCodes, Routes, type RESTGetAPICurrentUserResult, type RESTGetCurrentUserGuildMemberResult } from 'discord-api-types/v10';
import { DISCORD_ENDPOINTS, trimTrailingSlash } from '../endpoints.js';
import { ok, rateLimited, tokenRejected, unavailable, type ProviderOutcome } from '../provider-outcome.js';
import { TokenKeyedCache } from '../token-keyed-cache.js';
import { ToldToWait } from './told-to-wait.js';

export type DiscordUser = RESTGetAPICurrentUserResult;
export type DiscordGuildMember = RESTGetCurrentUserGuildMemberResult;

export type DiscordClientOptions = {
  /** Discord's API root without the version: `https://discord.com/api` (default) or a stand-in's. */
  apiBaseUrl?: string;
  /** Bound on one read, queueing behind the same token's earlier reads included; default 3 s. */
  timeoutMs?: number;
  /** How many users' rate-limit buckets to remember; default 10 000. */
  rememberedTokens?: number;
};

export type DiscordClient = {
  /** `GET /users/@me` (scope `identify`). */
  currentUser(accessToken: string): Promise<ProviderOutcome<DiscordUser>>;
  /**
   * `GET /users/@me/guilds/{guildId}/member` (scope `guilds.members.read`): the user's member
   * object with its `roles`, or null when the user is not in the guild (or the guild does not exist
   * for them: Discord answers 10004 Unknown Guild or 10007 Unknown Member).
   */
  guildMember(accessToken: string, guildId: string): Promise<ProviderOutcome<DiscordGuildMember | null>>;
};

/**
 * Discord reads with a user's OAuth2 access token, through `@discordjs/rest`.
 *
 * Discord counts rate limits per token and route bucket, and `@discordjs/rest` keeps those buckets
 * per REST instance; so each token gets its own instance (remembered, least recently used first
 * out), and one user's spent bucket never holds another's reads back. The library would sleep out
 * a limit (minutes, at times); `rejectOnRateLimit` makes it throw instead, both when it knows the
 * bucket is spent before sending and on a 429, and that becomes a `rate_limited` outcome carrying
 * Discord's own reset (`ToldToWait` covers the one case the library would still send). No retries:
 * a slow or failing Discord is reported within `timeoutMs`.
 */
export function createDiscordClient(options: DiscordClientOptions = {}): DiscordClient {
  const api = trimTrailingSlash(options.apiBaseUrl ?? DISCORD_ENDPOINTS.apiBaseUrl);
  const timeoutMs = options.timeoutMs ?? 3000;
  const clients = new TokenKeyedCache<{ rest: REST; toldToWait: ToldToWait }>(options.rememberedTokens ?? 10_000);

  const clientFor = (accessToken: string) =>
    clients.getOrCreate(accessToken, () => {
      const rest = new REST({
        api,
        authPrefix: 'Bearer',
        rejectOnRateLimit: () => true,
        retries: 0,
        timeout: timeoutMs,
        // No sweeper timers per instance: an instance holds one user's few buckets and is dropped whole.
        hashSweepInterval: 0,
        handlerSweepInterval: 0,
      }).setToken(accessToken);
      const toldToWait = new ToldToWait();
      rest.on('response', (request, response) => toldToWait.remember(request.path, response));
      return { rest, toldToWait };
    });

  async function read<T>(accessToken: string, route: `/${string}`, whenNotFound?: (error: DiscordAPIError) => T | undefined): Promise<ProviderOutcome<T>> {
    const { rest, toldToWait } = clientFor(accessToken);
    const waitMs = toldToWait.remainingWait(route);
    if (waitMs > 0) return rateLimited(waitMs);
    try {
      return ok((await rest.get(route, { signal: AbortSignal.timeout(timeoutMs) })) as T);
    } catch (error) {
      if (error instanceof DiscordAPIError && error.status === 404 && whenNotFound) {
        const value = whenNotFound(error);
        if (value !== undefined) return ok(value);
      }
      if (error instanceof DiscordAPIError && (error.status === 401 || error.status === 403)) {
        // The instance forgets its token on a 401 (it is no good to anyone after that).
        if (error.status === 401) clients.forget(accessToken);
        return tokenRejected(error.status, `Discord refused the token (${error.status}, code ${error.code}: ${error.message})`);
      }
      return failure(error);
    }
  }

  return {
    currentUser: (accessToken) => read<DiscordUser>(accessToken, Routes.user('@me')),
    guildMember: async (accessToken, guildId) =>
      read<DiscordGuildMember | null>(accessToken, Routes.userGuildMember(snowflake(guildId)), (error) => (NOT_A_MEMBER.has(error.code) ? null : undefined)),
  };
}

/** The id goes into the path as is: anything but a snowflake is a caller's bug, never a request. */
function snowflake(id: string): string {
  if (!/^(0|[1-9][0-9]{0,19})$/.test(id)) throw new RangeError(`not a Discord snowflake: ${JSON.stringify(id)}`);
  return id;
}

/** Discord's answers for "not in this guild": the guild is unknown to the user, or the user is not its member. */
const NOT_A_MEMBER = new Set<unknown>([RESTJSONErrorCodes.UnknownGuild, RESTJSONErrorCodes.UnknownMember]);

function failure(error: unknown): ProviderOutcome<never> {
  if (error instanceof RateLimitError) {
    return rateLimited(Math.max(error.retryAfter, error.timeToReset, error.sublimitTimeout));
  }
  if (error instanceof DiscordAPIError) {
    return unavailable(`Discord answered ${error.status} (code ${error.code}: ${error.message})`);
  }
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return unavailable('Discord did not answer in time');
  }
  return unavailable(`Discord could not be reached (${error instanceof Error ? error.message : String(error)})`);
}
