import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiKeyRecordSchema, CreateApiKeyBodySchema, CreatedApiKeySchema } from '@raffle/contracts';
import { Type } from '@sinclair/typebox';
import { createApiKey, listApiKeys, revokeApiKey, rollApiKey } from '../../domain/api-keys.js';
import { broadcastRevocation } from '../../domain/revocation-broadcast.js';
import { RATE_LIMIT_BUCKETS } from '../../plugins/rate-limit.js';
import { emptyBodyAsObject, KeyParams, managementResponses, RollApiKeyBodySchema } from '../responses.js';

const BASE = '/api/developer/personal/api-keys';

const personalApiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const holder = (userId: string | null) => ({ owner: { kind: 'personal' as const, userId: userId! }, actingUserId: userId! });

  app.post(
    BASE,
    {
      schema: {
        operationId: 'createPersonalApiKey',
        tags: ['Personal API keys'],
        'x-error-codes': ['API_KEY_LIMIT'],
        summary: 'Create a personal API key; the plaintext key is returned only in this response',
        body: Type.Ref(CreateApiKeyBodySchema),
        response: managementResponses(201, Type.Ref(CreatedApiKeySchema)),
      },
      config: { rateLimitBuckets: [RATE_LIMIT_BUCKETS.keyCreate] },
    },
    async (request, reply) => {
      const created = await createApiKey(app.database.db, {
        ...holder(request.dashboardUserId),
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
        operationId: 'listPersonalApiKeys',
        tags: ['Personal API keys'],
        summary: "The caller's personal API keys, newest first (never the plaintext)",
        response: managementResponses(200, Type.Array(Type.Ref(ApiKeyRecordSchema))),
      },
    },
    async (request) => listApiKeys(app.database.db, holder(request.dashboardUserId)),
  );

  app.delete(
    `${BASE}/:keyId`,
    {
      schema: {
        operationId: 'revokePersonalApiKey',
        tags: ['Personal API keys'],
        'x-error-codes': ['API_KEY_NOT_FOUND'],
        summary: 'Revoke a personal API key (idempotent)',
        params: KeyParams,
        response: managementResponses(200, Type.Ref(ApiKeyRecordSchema)),
      },
    },
    async (request) => {
      const record = await revokeApiKey(app.database.db, { ...holder(request.dashboardUserId), keyId: request.params.keyId });
      broadcastRevocation(app, record.id);
      return record;
    },
  );

  app.post(
    `${BASE}/:keyId/roll`,
    {
      schema: {
        operationId: 'rollPersonalApiKey',
        tags: ['Personal API keys'],
        'x-error-codes': ['API_KEY_NOT_FOUND', 'API_KEY_CANNOT_ROLL'],
        summary: 'Replace a personal API key with a new one of the same name and scopes',
        params: KeyParams,
        body: RollApiKeyBodySchema,
        response: managementResponses(201, Type.Ref(CreatedApiKeySchema)),
      },
      config: { rateLimitBuckets: [RATE_LIMIT_BUCKETS.keyCreate] },
      preValidation: emptyBodyAsObject,
    },
    async (request, reply) => {
      const created = await rollApiKey(app.database.db, {
        ...holder(request.dashboardUserId),
        keyId: request.params.keyId,
        expireOldInSeconds: request.body.expireOldInSeconds ?? 0,
      });
      // The old key's expiry changed either way: instances must re-read it.
      broadcastRevocation(app, request.params.keyId);
      return reply.status(201).send(created);
    },
  );
};

export default personalApiKeyRoutes;
