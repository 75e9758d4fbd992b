import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ProviderEndpoints } from '../../endpoints.js';
import { X_SCOPES } from '../../oauth/oauth-provider.js';
import { DEMO_ACCOUNT_NAMES, DEMO_ACCOUNTS, DEMO_X_FOLLOWS, NEBULA, type DemoAccountName } from '../demo-accounts.js';
import { LocalAuthorizationServer, type Grant, type LocalOAuthClient } from '../shared/authorization-server.js';
import { LocalFaults } from '../shared/faults.js';
import { registerOAuthRoutes, type OAuthRouteName } from '../shared/oauth-routes.js';
import { RateLimitBuckets, type OverLimitRequest, type RouteLimit } from '../shared/rate-limit-buckets.js';
import { createStandInApp, listenStandIn, queryOf, type StandInOptions } from '../shared/stand-in-app.js';
import { invalidRequestBody, rateLimitHeaders, userBody, userNotFoundBody, X_ERRORS, type XUserRecord } from './x-responses.js';

export type LocalXApiRoute = 'me' | 'user';
export type LocalXRoute = LocalXApiRoute | OAuthRouteName;

/** The client a deployment would register with X; the stand-in knows this one unless given others. */
export const LOCAL_X_CLIENT: LocalOAuthClient = { clientId: 'raffle-local-x', clientSecret: 'raffle-local-x-secret' };

export type LocalXOptions = StandInOptions<LocalXRoute> & {
  clients?: LocalOAuthClient[];
  /** Per route and token; default X's own user limits: `/2/users/me` 75 and `/2/users/{id}` 900 per 15 minutes. */
  limits?: Partial<Record<LocalXApiRoute, RouteLimit>>;
  /** Epoch ms; tests move the clock (token and code expiry, rate-limit windows). Account ages count from the start. */
  now?: () => number;
};

export type LocalX = {
  url: string;
  /** To give `createXOAuth({ endpoints })`; `apiBaseUrl` also to `createXClient`. One origin serves both. */
  endpoints: ProviderEndpoints;
  faults: LocalFaults<LocalXRoute>;
  /** The demo accounts as the stand-in serves them (ids, usernames, creation times). */
  users: ReadonlyMap<DemoAccountName | 'nebula', Readonly<XUserRecord>>;
  setFollowing(account: DemoAccountName, targetUserId: string, follows: boolean): void;
  /** The user removes the app in X's settings: their tokens stop working. */
  revokeAuthorizations(account: DemoAccountName): void;
  /** Requests sent while the stand-in had told their sender to wait (a 429, or none remaining before the reset). */
  overLimitRequests(): OverLimitRequest[];
  close(): Promise<void>;
};

/** X documents a 30-second authorization code and two-hour access tokens. */
const CODE_TTL_SECONDS = 30;
const ACCESS_TOKEN_TTL_SECONDS = 7200;
const FIFTEEN_MINUTES = 900;
const DAY_MS = 86_400_000;
/** X user ids, as the document's `UserId`. */
const USER_ID = /^[0-9]{1,19}$/;

/**
 * A stand-in for X: the OAuth 2.0 endpoints (`/i/oauth2/authorize`, `/2/oauth2/token`,
 * `/2/oauth2/revoke`) and the two v2 reads requirements use (`/2/users/me`, `/2/users/{id}` with
 * `connection_status`), with the demo accounts, X's `x-rate-limit-*` headers and 429s, and fault
 * hooks. Answers match X's published OpenAPI document.
 */
export async function startLocalX(options: LocalXOptions = {}): Promise<LocalX> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const server = new LocalAuthorizationServer({
    clients: options.clients ?? [LOCAL_X_CLIENT],
    scopes: [...X_SCOPES, 'follows.write', 'like.read', 'list.read'],
    accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS,
    codeTtlSeconds: CODE_TTL_SECONDS,
    requirePkce: true,
    refreshTokenScope: 'offline.access',
    tokenType: 'bearer',
    now,
  });
  const faults = new LocalFaults<LocalXRoute>(now);
  const buckets = new RateLimitBuckets<LocalXApiRoute>(
    {
      me: options.limits?.me ?? { limit: 75, windowSeconds: FIFTEEN_MINUTES },
      user: options.limits?.user ?? { limit: 900, windowSeconds: FIFTEEN_MINUTES },
    },
    now,
  );
  const record = (account: (typeof DEMO_ACCOUNTS)[DemoAccountName]['x']): XUserRecord => ({ ...account, createdAt: new Date(startedAt - account.ageDays * DAY_MS) });
  const users = new Map<DemoAccountName | 'nebula', XUserRecord>([
    ...DEMO_ACCOUNT_NAMES.map((name) => [name, record(DEMO_ACCOUNTS[name].x)] as const),
    ['nebula', record({ id: NEBULA.x.userId, username: NEBULA.x.username, name: NEBULA.x.name, ageDays: 1560 })],
  ]);
  const byId = new Map([...users.values()].map((user) => [user.id, user]));
  const following = new Map<string, Set<string>>();
  const setFollowing = (sourceId: string, targetId: string, follows: boolean) => {
    const targets = following.get(sourceId) ?? new Set<string>();
    following.set(sourceId, targets);
    if (follows) targets.add(targetId);
    else targets.delete(targetId);
  };
  for (const { account, targetUserId } of DEMO_X_FOLLOWS) setFollowing(DEMO_ACCOUNTS[account].x.id, targetUserId, true);

  const { app, withFaults } = createStandInApp<LocalXRoute>(options.onAnswer);
  registerOAuthRoutes(app, {
    providerName: 'X',
    paths: { authorize: '/i/oauth2/authorize', token: '/2/oauth2/token', revoke: '/2/oauth2/revoke' },
    server,
    faults,
    withFaults,
    accountLabel: (account) => `@${DEMO_ACCOUNTS[account].x.username}`,
    revokedBody: { revoked: true },
  });

  /** Both reads need `tweet.read` and `users.read`, as X's document says of their operations. */
  const apiRoute = (route: LocalXApiRoute, answer: (viewer: XUserRecord, fields: ReadonlySet<string>, request: FastifyRequest, reply: FastifyReply) => unknown) =>
    withFaults(faults, route, async (request, reply) => {
      const bucket = buckets.take(route, request.headers.authorization, faults.rateLimitedUntil(route));
      reply.headers(rateLimitHeaders(bucket));
      if (bucket.retryAfterMs !== null) return reply.code(X_ERRORS.rateLimited.status).send(X_ERRORS.rateLimited.body);
      const token = /^Bearer\s+(\S+)$/.exec(request.headers.authorization ?? '')?.[1];
      const grant: Grant | null = token ? server.grantFor(token) : null;
      if (!grant) return reply.code(X_ERRORS.unauthorized.status).send(X_ERRORS.unauthorized.body);
      if (!grant.scopes.includes('tweet.read') || !grant.scopes.includes('users.read')) {
        return reply.code(X_ERRORS.forbidden.status).send(X_ERRORS.forbidden.body);
      }
      const fields = new Set((queryOf(request)['user.fields'] ?? '').split(',').filter(Boolean));
      return answer(users.get(grant.account)!, fields, request, reply);
    });

  app.get(
    '/2/users/me',
    apiRoute('me', (viewer, fields) => ({ data: userBody(viewer, fields, () => []) })),
  );

  app.get(
    '/2/users/:id',
    apiRoute('user', (viewer, fields, request, reply) => {
      const { id } = request.params as { id: string };
      if (!USER_ID.test(id)) {
        return reply.code(400).type('application/problem+json').send(invalidRequestBody('id', id, `The \`id\` query parameter value [${id}] does not match ${USER_ID.source}`));
      }
      const user = byId.get(id);
      if (!user) return userNotFoundBody(id);
      const connectionStatus = () => (following.get(viewer.id)?.has(user.id) ? ['following'] : []).concat(following.get(user.id)?.has(viewer.id) ? ['followed_by'] : []);
      return { data: userBody(user, fields, connectionStatus) };
    }),
  );

  app.setNotFoundHandler((_request, reply) => reply.code(X_ERRORS.notFound.status).send(X_ERRORS.notFound.body));

  const url = await listenStandIn(app, options);
  return {
    url,
    endpoints: { webBaseUrl: url, apiBaseUrl: url },
    faults,
    users,
    setFollowing: (account, targetUserId, follows) => setFollowing(DEMO_ACCOUNTS[account].x.id, targetUserId, follows),
    revokeAuthorizations: (account) => server.revokeAccount(account),
    overLimitRequests: () => buckets.overLimitRequests(),
    close: () => app.close(),
  };
}
