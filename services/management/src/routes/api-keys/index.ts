import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiKeyRecordSchema, CreateApiKeyBodySchema, CreatedApiKeySchema } from '@raffle/contracts';
import { createApiKey, listApiKeys, requireApiKeyManager, revokeApiKey, rollApiKey, userPrincipal, type ApiKeyScope } from '@raffle/domain';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { configOf, dashboardUserIdOf } from '../../decorations.js';
import { RATE_LIMIT_BUCKETS } from '../../plugins/rate-limit.js';
import { managementResponses } from '../responses.js';
import { API_KEY_PARAMS, RollApiKeyBodySchema } from './params.js';
import { broadcastRevocation } from './revocation-broadcast.js';

/**
 * Registered once per key owner, under its prefix (the routes' URLs are relative to it):
 * `personal` under `/api/developer/personal/api-keys`, `workspace` under
 * `/api/developer/workspaces/:workspaceId/api-keys`.
 */
export type ApiKeyRoutesOptions = { kind: 'personal' | 'workspace' };

const SHAPES = {
  personal: {
    name: 'Personal',
    tags: ['Personal API keys'],
    listSummary: "The caller's personal API keys, newest first (never the plaintext)",
    description: undefined,
  },
  workspace: {
    name: 'Workspace',
    tags: ['Workspace API keys'],
    listSummary: "The workspace's API keys, newest first (never the plaintext)",
    description: 'Owners and admins of the workspace only.',
  },
} as const;

/**
 * API keys (create, list, revoke, roll), registered once for the caller's personal keys and once
 * for a workspace's (its owners and admins): the same routes, the owner taken from the session or
 * the path. The domain checks the caller again inside each function.
 */
const apiKeyRoutes: FastifyPluginAsyncTypebox<ApiKeyRoutesOptions> = async (app, { kind }) => {
  const shape = SHAPES[kind];
  const params = API_KEY_PARAMS[kind];
  const operation = (verb: string, noun = 'ApiKey') => `${verb}${shape.name}${noun}`;
  // The published document has the owners-and-admins note on create and list only.
  const description = shape.description ? { description: shape.description } : {};

  const scopeOf = (request: FastifyRequest): ApiKeyScope => {
    const userId = dashboardUserIdOf(request)!;
    const owner = kind === 'personal' ? { kind, userId } : { kind, workspaceId: (request.params as { workspaceId: string }).workspaceId };
    return { actor: userPrincipal(userId), owner };
  };

  // Before the body is read: a caller who may not manage the workspace's keys learns nothing from validation.
  if (kind === 'workspace') {
    app.addHook('preParsing', async (request) => {
      await requireApiKeyManager(app.database.db, scopeOf(request));
    });
  }

  app.post(
    '',
    {
      schema: {
        operationId: operation('create'),
        tags: [...shape.tags],
        'x-error-codes': ['API_KEY_LIMIT'],
        summary: `Create a ${kind} API key; the plaintext key is returned only in this response`,
        ...description,
        ...(params.list ? { params: params.list } : {}),
        body: Type.Ref(CreateApiKeyBodySchema),
        response: managementResponses(201, Type.Ref(CreatedApiKeySchema)),
      },
      config: { rateLimitBuckets: [RATE_LIMIT_BUCKETS.keyCreate], idempotent: true },
    },
    async (request, reply) => {
      const created = await createApiKey(app.database.db, {
        ...scopeOf(request),
        body: request.body,
        maxActiveKeys: configOf(app).MAX_ACTIVE_KEYS_PER_USER,
      });
      return reply.status(201).send(created);
    },
  );

  app.get(
    '',
    {
      schema: {
        operationId: operation('list', 'ApiKeys'),
        tags: [...shape.tags],
        summary: shape.listSummary,
        ...description,
        ...(params.list ? { params: params.list } : {}),
        response: managementResponses(200, Type.Array(Type.Ref(ApiKeyRecordSchema))),
      },
    },
    async (request) => listApiKeys(app.database.db, scopeOf(request)),
  );

  app.delete(
    '/:keyId',
    {
      schema: {
        operationId: operation('revoke'),
        tags: [...shape.tags],
        'x-error-codes': ['API_KEY_NOT_FOUND'],
        summary: `Revoke a ${kind} API key (idempotent)`,
        params: params.key,
        response: managementResponses(200, Type.Ref(ApiKeyRecordSchema)),
      },
    },
    async (request) => {
      const record = await revokeApiKey(app.database.db, { ...scopeOf(request), keyId: request.params.keyId });
      broadcastRevocation(app, record.id);
      return record;
    },
  );

  app.post(
    '/:keyId/roll',
    {
      schema: {
        operationId: operation('roll'),
        tags: [...shape.tags],
        'x-error-codes': ['API_KEY_NOT_FOUND', 'API_KEY_CANNOT_ROLL', 'API_KEY_LIMIT'],
        summary: `Replace a ${kind} API key with a new one of the same name and scopes`,
        description:
          'While the old key keeps working (`expireOldInSeconds` above 0) both count as active keys, so such a roll is refused with 409 `API_KEY_LIMIT` when the cap is reached; a roll with 0 replaces the key and is not capped.',
        params: params.key,
        body: RollApiKeyBodySchema,
        response: managementResponses(201, Type.Ref(CreatedApiKeySchema)),
      },
      config: { rateLimitBuckets: [RATE_LIMIT_BUCKETS.keyCreate], optionalBody: true },
    },
    async (request, reply) => {
      const created = await rollApiKey(app.database.db, {
        ...scopeOf(request),
        keyId: request.params.keyId,
        expireOldInSeconds: request.body.expireOldInSeconds ?? 0,
        maxActiveKeys: configOf(app).MAX_ACTIVE_KEYS_PER_USER,
      });
      // The old key's expiry changed either way: instances must re-read it.
      broadcastRevocation(app, request.params.keyId);
      return reply.status(201).send(created);
    },
  );
};

export default apiKeyRoutes;
