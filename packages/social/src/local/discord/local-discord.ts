import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProviderEndpoints } from '../../endpoints.js';
import { DISCORD_SCOPES } from '../../oauth/oauth-provider.js';
import { DEMO_ACCOUNTS, DEMO_NEBULA_MEMBERS, NEBULA, type DemoAccountName } from '../demo-accounts.js';
import { LocalAuthorizationServer, type Grant, type LocalOAuthClient } from '../shared/authorization-server.js';
import { LocalFaults } from '../shared/faults.js';
import { registerOAuthRoutes, type OAuthRouteName } from '../shared/oauth-routes.js';
import { RateLimitBuckets, type OverLimitRequest, type RouteLimit } from '../shared/rate-limit-buckets.js';
import { createStandInApp, listenStandIn, type StandInOptions } from '../shared/stand-in-app.js';
import { currentUserBody, DISCORD_ERRORS, guildMemberBody, rateLimitedBody, rateLimitHeaders } from './discord-responses.js';

export type LocalDiscordApiRoute = 'currentUser' | 'guildMember';
export type LocalDiscordRoute = LocalDiscordApiRoute | OAuthRouteName;

/** The client a deployment would register with Discord; the stand-in knows this one unless given others. */
export const LOCAL_DISCORD_CLIENT: LocalOAuthClient = { clientId: 'raffle-local-discord', clientSecret: 'raffle-local-discord-secret' };

export type LocalDiscordOptions = StandInOptions<LocalDiscordRoute> & {
  clients?: LocalOAuthClient[];
  /** Per route and token; default 10 requests per 10 s. */
  limits?: Partial<Record<LocalDiscordApiRoute, RouteLimit>>;
  /** Epoch ms; tests move the clock (token and code expiry, rate-limit windows). */
  now?: () => number;
};

export type LocalDiscord = {
  /** The stand-in's origin. */
  url: string;
  /** To give `createDiscordOAuth({ endpoints })`; `apiBaseUrl` also to `createDiscordClient`. */
  endpoints: ProviderEndpoints;
  faults: LocalFaults<LocalDiscordRoute>;
  /** Adds the user to the guild, or replaces their roles. */
  setMemberRoles(guildId: string, userId: string, roleIds: string[]): void;
  removeMember(guildId: string, userId: string): void;
  /** The user removes the app in Discord's settings: their tokens stop working. */
  revokeAuthorizations(account: DemoAccountName): void;
  /** Requests sent while the stand-in had told their sender to wait (a 429, or none remaining before the reset). */
  overLimitRequests(): OverLimitRequest[];
  close(): Promise<void>;
};

/** Discord's code lifetime is not documented; ten minutes is generous for any redirect. Access tokens live 7 days (`expires_in: 604800`). */
const CODE_TTL_SECONDS = 600;
const ACCESS_TOKEN_TTL_SECONDS = 604_800;
const DEFAULT_LIMIT: RouteLimit = { limit: 10, windowSeconds: 10 };

/**
 * A stand-in for Discord: the OAuth2 endpoints (`/oauth2/authorize`, `/api/oauth2/token`,
 * `/api/oauth2/token/revoke`) and the two REST reads requirements use (`/api/v10/users/@me`,
 * `/api/v10/users/@me/guilds/{guild.id}/member`), with the demo accounts, Discord's rate-limit
 * headers and 429s, and fault hooks. Answers match Discord's published OpenAPI document.
 */
export async function startLocalDiscord(options: LocalDiscordOptions = {}): Promise<LocalDiscord> {
  const now = options.now ?? Date.now;
  const server = new LocalAuthorizationServer({
    clients: options.clients ?? [LOCAL_DISCORD_CLIENT],
    scopes: [...DISCORD_SCOPES, 'email', 'guilds'],
    accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS,
    codeTtlSeconds: CODE_TTL_SECONDS,
    requirePkce: false,
    refreshTokenScope: null,
    tokenType: 'Bearer',
    now,
  });
  const faults = new LocalFaults<LocalDiscordRoute>(now);
  const buckets = new RateLimitBuckets<LocalDiscordApiRoute>(
    { currentUser: options.limits?.currentUser ?? DEFAULT_LIMIT, guildMember: options.limits?.guildMember ?? DEFAULT_LIMIT },
    now,
  );
  const guilds = new Map<string, Map<string, { roleIds: string[]; joinedAt: string }>>([
    [NEBULA.discord.guildId, new Map(DEMO_NEBULA_MEMBERS.map((m) => [DEMO_ACCOUNTS[m.account].discord.id, { roleIds: [...m.roleIds], joinedAt: m.joinedAt }]))],
  ]);

  const { app, withFaults } = createStandInApp<LocalDiscordRoute>(options.onAnswer);
  registerOAuthRoutes(app, {
    providerName: 'Discord',
    paths: { authorize: '/oauth2/authorize', token: '/api/oauth2/token', revoke: '/api/oauth2/token/revoke' },
    server,
    faults,
    withFaults,
    accountLabel: (account) => DEMO_ACCOUNTS[account].discord.username,
    revokedBody: {},
  });

  /** Discord's order: the bucket first (its headers are on every answer), then the token, then the scope. */
  const apiRoute = (route: LocalDiscordApiRoute, scope: string, answer: (grant: Grant, request: FastifyRequest, reply: FastifyReply) => unknown) =>
    withFaults(faults, route, async (request, reply) => {
      const bucket = buckets.take(route, request.headers.authorization, faults.rateLimitedUntil(route));
      reply.headers(rateLimitHeaders(route, bucket, now()));
      if (bucket.retryAfterMs !== null) return reply.code(429).send(rateLimitedBody(bucket.retryAfterMs));
      const token = /^Bearer\s+(\S+)$/.exec(request.headers.authorization ?? '')?.[1];
      const grant = token ? server.grantFor(token) : null;
      if (!grant) return reply.code(DISCORD_ERRORS.unauthorized.status).send(DISCORD_ERRORS.unauthorized.body);
      if (!grant.scopes.includes(scope)) return reply.code(DISCORD_ERRORS.missingAccess.status).send(DISCORD_ERRORS.missingAccess.body);
      return answer(grant, request, reply);
    });

  app.get(
    '/api/v10/users/@me',
    apiRoute('currentUser', 'identify', (grant) => currentUserBody(DEMO_ACCOUNTS[grant.account].discord)),
  );

  app.get(
    '/api/v10/users/@me/guilds/:guildId/member',
    apiRoute('guildMember', 'guilds.members.read', (grant, request, reply) => {
      const { guildId } = request.params as { guildId: string };
      const account = DEMO_ACCOUNTS[grant.account].discord;
      const member = guilds.get(guildId)?.get(account.id);
      // Discord answers Unknown Guild both for a guild that does not exist and for one the user is not in.
      if (!member) return reply.code(DISCORD_ERRORS.unknownGuild.status).send(DISCORD_ERRORS.unknownGuild.body);
      return guildMemberBody(account, member);
    }),
  );

  app.setNotFoundHandler((_request, reply) => reply.code(DISCORD_ERRORS.notFound.status).send(DISCORD_ERRORS.notFound.body));

  const url = await listenStandIn(app, options);
  return {
    url,
    endpoints: { webBaseUrl: url, apiBaseUrl: `${url}/api` },
    faults,
    setMemberRoles(guildId, userId, roleIds) {
      const guild = guilds.get(guildId) ?? new Map();
      guilds.set(guildId, guild);
      const joinedAt = guild.get(userId)?.joinedAt ?? new Date(now()).toISOString().replace('Z', '000+00:00');
      guild.set(userId, { roleIds: [...roleIds], joinedAt });
    },
    removeMember(guildId, userId) {
      guilds.get(guildId)?.delete(userId);
    },
    revokeAuthorizations: (account) => server.revokeAccount(account),
    overLimitRequests: () => buckets.overLimitRequests(),
    close: () => app.close(),
  };
}
