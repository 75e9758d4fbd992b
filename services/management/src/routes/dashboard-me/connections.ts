import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CompleteConnectionBodySchema, ConnectionListSchema, ConnectionSchema, ConnectionStartSchema, SOCIAL_PROVIDERS } from '@raffle/contracts';
import { completeConnection, listConnections, ProviderUnavailable, startConnection, unlinkConnection } from '@raffle/domain';
import type { SocialProvider } from '@raffle/social';
import { Type } from '@sinclair/typebox';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { connectionsOf, dashboardUserIdOf } from '../../decorations.js';
import { RATE_LIMIT_BUCKETS } from '../../plugins/rate-limit.js';
import { managementResponses } from '../responses.js';
import { noContentResponses } from '../shared/no-content.js';

const BASE = '/me/connections';
const TAGS = ['Dashboard connections'];

const ProviderParams = Type.Object(
  { provider: Type.Unsafe<SocialProvider>({ type: 'string', enum: [...SOCIAL_PROVIDERS], description: '`discord` or `x`.' }) },
  { additionalProperties: false },
);

/**
 * The signed-in user's Discord and X accounts, linked by OAuth 2.0 with PKCE: start (a consent
 * URL), the provider sends the browser back to the console, which completes with `code` and
 * `state`; list; unlink. Every route acts on the session's own user only (decision 0026's rule).
 * Tokens never leave the server, and nothing of them is logged.
 */
const dashboardConnectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { linking } = connectionsOf(app);

  app.post(
    `${BASE}/:provider/start`,
    {
      schema: {
        operationId: 'startConnection',
        tags: TAGS,
        'x-error-codes': ['PROVIDER_NOT_CONFIGURED'],
        summary: 'Start linking a Discord or X account: the provider\'s consent URL',
        description:
          'Send the browser to `authorizationUrl`. The flow\'s state is single-use, bound to the caller and the provider, and expires after 10 minutes; its PKCE verifier stays on the server. The provider sends the browser back to the console\'s `/connections/{provider}/callback`, which completes with `POST …/callback`. 404 `PROVIDER_NOT_CONFIGURED` when this deployment has no client for the provider (`providers` of the list says which it has). Scopes asked: Discord `identify guilds.members.read`; X `tweet.read users.read follows.read offline.access`.',
        params: ProviderParams,
        response: managementResponses(201, Type.Ref(ConnectionStartSchema)),
      },
      config: { rateLimitBuckets: [RATE_LIMIT_BUCKETS.connectionLink] },
    },
    async (request, reply) => {
      const started = await startConnection(app.database.db, { userId: dashboardUserIdOf(request)!, provider: request.params.provider, ...linking });
      return reply.status(201).send(started);
    },
  );

  app.post(
    `${BASE}/:provider/callback`,
    {
      schema: {
        operationId: 'completeConnection',
        tags: TAGS,
        'x-error-codes': ['PROVIDER_NOT_CONFIGURED', 'OAUTH_STATE_INVALID', 'OAUTH_STATE_USED', 'OAUTH_STATE_EXPIRED', 'OAUTH_ACCESS_DENIED', 'OAUTH_CODE_REJECTED', 'PROVIDER_UNAVAILABLE'],
        summary: 'Complete linking with what the provider sent back',
        description:
          'Send the callback\'s `state` with its `code` (or its `error` and `error_description` as `errorDescription`). Checked in this order: the state was issued to the caller for this provider (400 `OAUTH_STATE_INVALID`), is unused (409 `OAUTH_STATE_USED`) and unexpired (409 `OAUTH_STATE_EXPIRED`) — it is used up from here on —; the provider sent a code (403 `OAUTH_ACCESS_DENIED` when the user declined, 400 `OAUTH_CODE_REJECTED` for another error); the provider exchanges the code with the flow\'s PKCE verifier (400 `OAUTH_CODE_REJECTED`: used, expired, another client\'s). Then the new token reads the account (id and username). A provider that does not answer is 503 `PROVIDER_UNAVAILABLE` with `Retry-After`; before the exchange the state is kept, so the same callback may be sent again. A new link replaces the caller\'s previous one of the provider (the previous grant is revoked at the provider when it was another account\'s). One account may be linked by several users; raffles flag their entries.',
        params: ProviderParams,
        body: Type.Ref(CompleteConnectionBodySchema),
        response: managementResponses(201, Type.Ref(ConnectionSchema)),
      },
      config: { rateLimitBuckets: [RATE_LIMIT_BUCKETS.connectionLink] },
    },
    async (request, reply) => {
      const { provider } = request.params;
      const completed = await completeConnection(app.database.db, { userId: dashboardUserIdOf(request)!, provider, body: request.body, ...linking }).catch(
        (error: unknown) => {
          throw withRetryAfter(error, reply);
        },
      );
      if (completed.replacedGrant && !completed.replacedGrant.revoked) logUnrevoked(request.log, provider, 'the replaced link', completed.replacedGrant.reason);
      return reply.status(201).send(completed.connection);
    },
  );

  app.get(
    BASE,
    {
      schema: {
        operationId: 'listConnections',
        tags: TAGS,
        summary: "The caller's linked Discord and X accounts, and the providers offered here",
        description: 'By provider. Not paginated: there is at most one connection per provider.',
        response: managementResponses(200, Type.Ref(ConnectionListSchema)),
      },
    },
    async (request) => listConnections(app.database.db, { userId: dashboardUserIdOf(request)!, oauth: linking.oauth }),
  );

  app.delete(
    `${BASE}/:provider`,
    {
      schema: {
        operationId: 'unlinkConnection',
        tags: TAGS,
        'x-error-codes': ['CONNECTION_NOT_FOUND'],
        summary: "Unlink the caller's account of a provider, revoking its grant there",
        description:
          'The link is removed here whatever the provider answers; its tokens are then revoked at the provider. A provider that cannot be asked leaves its grant until it expires or the user removes the app in the provider\'s settings (logged as a warning). Requirements read from the provider fail for the caller from now on.',
        params: ProviderParams,
        response: noContentResponses(),
      },
    },
    async (request, reply) => {
      const { provider } = request.params;
      const revocation = await unlinkConnection(app.database.db, { userId: dashboardUserIdOf(request)!, provider, ...linking });
      if (!revocation.revoked) logUnrevoked(request.log, provider, 'the unlinked account', revocation.reason);
      return reply.status(204).send(null);
    },
  );
};

/** A provider that could not be asked: its Retry-After on the reply, the error passed on. */
function withRetryAfter(error: unknown, reply: FastifyReply): unknown {
  if (error instanceof ProviderUnavailable) reply.header('retry-after', String(error.retryAfterSeconds));
  return error;
}

/** The provider was not told: the user may end the grant in its settings. Names the provider and why, never a token. */
function logUnrevoked(log: FastifyBaseLogger, provider: SocialProvider, what: string, reason: string) {
  log.warn({ provider, reason }, `${what}'s grant was not revoked at the provider; it lasts until it expires or the user removes the app there`);
}

export default dashboardConnectionRoutes;
