import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiKeyRecordSchema, CreateApiKeyBodySchema, CreatedApiKeySchema } from '@raffle/contracts';
import { Type } from '@sinclair/typebox';
import { createApiKey, listApiKeys, revokeApiKey, rollApiKey } from '../../domain/api-keys.js';
import { broadcastRevocation } from '../../domain/revocation-broadcast.js';
import { RATE_LIMIT_BUCKETS } from '../../plugins/rate-limit.js';
import { emptyBodyAsObject, managementResponses, RollApiKeyBodySchema, WorkspaceKeyParams, WorkspaceParams } from '../responses.js';
import { assertCanManageWorkspaceKeys } from '../../domain/workspace-access.js';

const BASE = '/api/developer/workspaces/:workspaceId/api-keys';

const workspaceApiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const holder = (request: { params: { workspaceId: string }; dashboardUserId: string | null }) => ({
    owner: { kind: 'workspace' as const, workspaceId: request.params.workspaceId },
    actingUserId: request.dashboardUserId!,
  });

  // Before the body is read: a caller who may not manage the workspace's keys learns nothing from validation.
  app.addHook('preParsing', async (request) => {
    const { workspaceId } = request.params as { workspaceId: string };
    await assertCanManageWorkspaceKeys(app.database.db, { workspaceId, userId: request.dashboardUserId! });
  });

  app.post(
    BASE,
    {
      schema: {
        operationId: 'createWorkspaceApiKey',
        tags: ['Workspace API keys'],
        'x-error-codes': ['API_KEY_LIMIT'],
        summary: 'Create a workspace API key; the plaintext key is returned only in this response',
        description: 'Owners and admins of the workspace only.',
        params: WorkspaceParams,
        body: Type.Ref(CreateApiKeyBodySchema),
        response: managementResponses(201, Type.Ref(CreatedApiKeySchema)),
      },
      config: { rateLimitBuckets: [RATE_LIMIT_BUCKETS.keyCreate] },
    },
    async (request, reply) => {
      const created = await createApiKey(app.database.db, {
        ...holder(request),
        body: request.body,
        maxActiveKeys: app.config.MAX_ACTIVE_KEYS_PER_USER,
      });
      return reply.status(201).send(created);
    },
  );

  app.get(
    BASE,
    {
      schema: {
        operationId: 'listWorkspaceApiKeys',
        tags: ['Workspace API keys'],
        summary: "The workspace's API keys, newest first (never the plaintext)",
        description: 'Owners and admins of the workspace only.',
        params: WorkspaceParams,
        response: managementResponses(200, Type.Array(Type.Ref(ApiKeyRecordSchema))),
      },
    },
    async (request) => listApiKeys(app.database.db, holder(request)),
  );

  app.delete(
    `${BASE}/:keyId`,
    {
      schema: {
        operationId: 'revokeWorkspaceApiKey',
        tags: ['Workspace API keys'],
        'x-error-codes': ['API_KEY_NOT_FOUND'],
        summary: 'Revoke a workspace API key (idempotent)',
        params: WorkspaceKeyParams,
        response: managementResponses(200, Type.Ref(ApiKeyRecordSchema)),
      },
    },
    async (request) => {
      const record = await revokeApiKey(app.database.db, { ...holder(request), keyId: request.params.keyId });
      broadcastRevocation(app, record.id);
      return record;
    },
  );

  app.post(
    `${BASE}/:keyId/roll`,
    {
      schema: {
        operationId: 'rollWorkspaceApiKey',
        tags: ['Workspace API keys'],
        'x-error-codes': ['API_KEY_NOT_FOUND', 'API_KEY_CANNOT_ROLL'],
        summary: 'Replace a workspace API key with a new one of the same name and scopes',
        params: WorkspaceKeyParams,
        body: RollApiKeyBodySchema,
        response: managementResponses(201, Type.Ref(CreatedApiKeySchema)),
      },
      config: { rateLimitBuckets: [RATE_LIMIT_BUCKETS.keyCreate] },
      preValidation: emptyBodyAsObject,
    },
    async (request, reply) => {
      const created = await rollApiKey(app.database.db, {
        ...holder(request),
        keyId: request.params.keyId,
        expireOldInSeconds: request.body.expireOldInSeconds ?? 0,
      });
      // The old key's expiry changed either way: instances must re-read it.
      broadcastRevocation(app, request.params.keyId);
      return reply.status(201).send(created);
    },
  );
};

export default workspaceApiKeyRoutes;
