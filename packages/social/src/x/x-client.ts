import { Agent as HttpAgent } from 'node:http';
import { TwitterApiRateLimitPlugin } from '@twitter-api-v2/plugin-rate-limit';
import { ApiRequestError, ApiResponseError, TwitterApi, type TwitterRateLimit, type UserV2, type UserV2Result } from 'twitter-api-v2';
import { trimTrailingSlash, X_ENDPOINTS } from '../endpoints.js';
import { ok, rateLimited, tokenRejected, unavailable, type ProviderOutcome } from '../provider-outcome.js';
import { TokenKeyedCache } from '../token-keyed-cache.js';

export type XAccount = { id: string; username: string; name: string; createdAt: Date };

export type XClientOptions = {
  /** X's API origin: `https://api.x.com` (default) or a stand-in's. */
  apiBaseUrl?: string;
  /** Bound on one read; default 3 s. */
  timeoutMs?: number;
  /** How many users' rate-limit states to remember; default 10 000. */
  rememberedTokens?: number;
};

export type XClient = {
  /** `GET /2/users/me?user.fields=created_at` (scopes `tweet.read users.read`). */
  me(accessToken: string): Promise<ProviderOutcome<XAccount>>;
  /**
   * Whether the token's user follows `targetUserId`: `GET /2/users/{targetUserId}?user.fields=connection_status`
   * and `following` among the connection statuses (scopes `tweet.read users.read`). False too when
   * X knows no such user.
   */
  follows(accessToken: string, targetUserId: string): Promise<ProviderOutcome<boolean>>;
};

/** Seconds to wait after a 429 that came without X's reset header. */
const FALLBACK_RETRY_AFTER_MS = 60_000;

/**
 * X API v2 reads with a user's OAuth 2.0 access token, through `twitter-api-v2`.
 *
 * "Does this user follow that account" is one lookup of the account with the `connection_status`
 * field (the authenticated user's relationship to it), not a walk through the user's following
 * list: that list is limited to 15 requests per 15 minutes per app, shared by every user of the
 * platform, and a user can follow thousands of accounts; the user lookup's limit is per user.
 *
 * X limits are per user token and endpoint. Each token keeps `twitter-api-v2`'s rate-limit plugin
 * (what the last answer's `x-rate-limit-*` headers said); a read whose endpoint has nothing left
 * until the reset is answered `rate_limited` without sending anything.
 */
export function createXClient(options: XClientOptions = {}): XClient {
  const apiBaseUrl = trimTrailingSlash(options.apiBaseUrl ?? X_ENDPOINTS.apiBaseUrl);
  const prefix = `${apiBaseUrl}/2/`;
  const timeoutMs = options.timeoutMs ?? 3000;
  const rateLimits = new TokenKeyedCache<TwitterApiRateLimitPlugin>(options.rememberedTokens ?? 10_000);
  // twitter-api-v2 sends through `https.request`, which takes http: URLs (a local stand-in) only with an http agent.
  const httpAgent = apiBaseUrl.startsWith('http:') ? new HttpAgent({ keepAlive: true }) : undefined;

  async function get<T>(accessToken: string, endpoint: string, query: Record<string, string>, params?: Record<string, string>): Promise<ProviderOutcome<T>> {
    const plugin = rateLimits.getOrCreate(accessToken, () => new TwitterApiRateLimitPlugin());
    const known = (await plugin.getRateLimit(prefix + endpoint, 'GET')) ?? undefined;
    if (known && plugin.hasHitRateLimit(known)) return untilReset(known);
    const client = new TwitterApi(accessToken, { plugins: [plugin], ...(httpAgent ? { httpAgent } : {}) });
    try {
      return ok(await client.v2.get<T>(endpoint, query, { prefix, params, timeout: timeoutMs }));
    } catch (error) {
      return failure(error);
    }
  }

  return {
    async me(accessToken) {
      const outcome = await get<UserV2Result>(accessToken, 'users/me', { 'user.fields': 'created_at' });
      if (outcome.status !== 'ok') return outcome;
      const account = accountOf(outcome.value.data);
      return account ? ok(account) : unavailable('X answered users/me without the user, or without its created_at');
    },
    async follows(accessToken, targetUserId) {
      // X's `UserId`; anything else is a caller's bug (a requirement saved without its check), never a request.
      if (!/^[0-9]{1,19}$/.test(targetUserId)) throw new RangeError(`not an X user id: ${JSON.stringify(targetUserId)}`);
      const outcome = await get<Partial<UserV2Result>>(accessToken, 'users/:id', { 'user.fields': 'connection_status' }, { id: targetUserId });
      if (outcome.status !== 'ok') return outcome;
      return ok(outcome.value.data?.connection_status?.includes('following') ?? false);
    },
  };
}

function accountOf(user: UserV2 | undefined): XAccount | null {
  if (!user?.created_at) return null;
  const createdAt = new Date(user.created_at);
  if (Number.isNaN(createdAt.getTime())) return null;
  return { id: user.id, username: user.username, name: user.name, createdAt };
}

const untilReset = (rateLimit: TwitterRateLimit) => rateLimited(rateLimit.reset * 1000 - Date.now());

function failure(error: unknown): ProviderOutcome<never> {
  if (error instanceof ApiResponseError) {
    if (error.code === 429) return error.rateLimit ? untilReset(error.rateLimit) : rateLimited(FALLBACK_RETRY_AFTER_MS);
    if (error.code === 401 || error.code === 403) return tokenRejected(error.code, `X refused the token (${error.code})`);
    return unavailable(`X answered ${error.code}`);
  }
  // No answer at all: refused, dropped, or past the timeout (twitter-api-v2 1.29 does not expose which).
  if (error instanceof ApiRequestError) return unavailable('X could not be reached, or did not answer in time');
  return unavailable(`X could not be read (${error instanceof Error ? error.message : String(error)})`);
}
