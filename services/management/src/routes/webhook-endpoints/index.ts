import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointBodySchema,
  DashboardPageQuerySchema,
  RecoveredWebhookDeliveriesSchema,
  RecoverWebhookDeliveriesBodySchema,
  UpdateWebhookEndpointBodySchema,
  WebhookDeliveryAttemptPageSchema,
  WebhookDeliveryAttemptQuerySchema,
  WebhookDeliverySchema,
  WebhookEndpointPageSchema,
  WebhookEndpointSchema,
  WebhookTestEventSchema,
} from '@raffle/contracts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveryAttempts,
  listWebhookEndpoints,
  recoverWebhookDeliveries,
  retryWebhookDelivery,
  rotateWebhookEndpointSecret,
  sendWebhookTestEvent,
  updateWebhookEndpoint,
  userPrincipal,
  type WebhookEndpointScope,
} from '@raffle/domain';
import { parseAllowedHosts, type AddressPolicy } from '@raffle/webhooks';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { configOf, cursorsOf, dashboardUserIdOf } from '../../decorations.js';
import { noContentResponses } from '../shared/no-content.js';
import { pageRequestOf } from '../shared/page-request.js';
import { requireWorkspaceAccess } from '../shared/workspace-access.js';
import { managementResponses } from '../responses.js';
import { RATE_LIMIT_BUCKETS } from '../../plugins/rate-limit.js';
import { NoOptionsBody, WEBHOOK_ENDPOINT_PARAMS } from './params.js';

export type WebhookEndpointRoutesOptions = { kind: 'personal' | 'workspace' };

const SHAPES = {
  personal: {
    base: '/personal/webhook-endpoints',
    name: 'Personal',
    tags: ['Personal webhook endpoints'],
    listSummary: "The caller's own webhook endpoints, newest first (never a secret)",
    description: undefined,
  },
  workspace: {
    base: '/workspaces/:workspaceId/webhook-endpoints',
    name: 'Workspace',
    tags: ['Workspace webhook endpoints'],
    listSummary: "The workspace's webhook endpoints, newest first (never a secret)",
    description: 'Owners and admins of the workspace only.',
  },
} as const;

/**
 * Webhook endpoints and their delivery log, registered once for personal endpoints (the caller's
 * own) and once for a workspace's (its owners and admins): the same routes, the owner taken from
 * the path or the session.
 */
const webhookEndpointRoutes: FastifyPluginAsyncTypebox<WebhookEndpointRoutesOptions> = async (app, { kind }) => {
  const shape = SHAPES[kind];
  const params = WEBHOOK_ENDPOINT_PARAMS[kind];
  const base = shape.base;
  const operation = (verb: string, noun = 'WebhookEndpoint') => `${verb}${shape.name}${noun}`;
  const docs = (summary: string) => ({ tags: [...shape.tags], summary, ...(shape.description ? { description: shape.description } : {}) });

  const addressPolicy: AddressPolicy = {
    allowHttp: configOf(app).WEBHOOK_ALLOW_HTTP,
    allowedHosts: parseAllowedHosts(configOf(app).WEBHOOK_ALLOWED_HOSTS),
  };

  const scopeOf = (request: FastifyRequest): WebhookEndpointScope => {
    const userId = dashboardUserIdOf(request)!;
    // A personal endpoint belongs to the acting user: the owner is the caller, never a path value.
    if (kind === 'personal') return { owner: { kind, userId }, actor: userPrincipal(userId) };
    return { owner: { kind, workspaceId: (request.params as { workspaceId: string }).workspaceId }, actor: userPrincipal(userId) };
  };

  // Before the body is read: a caller who may not manage the workspace learns nothing from validation.
  if (kind === 'workspace') app.addHook('preParsing', requireWorkspaceAccess(app, 'manage'));

  app.post(
    base,
    {
      schema: {
        operationId: operation('create'),
        'x-error-codes': ['WEBHOOK_ENDPOINT_LIMIT', 'FORBIDDEN'],
        ...docs('Register a webhook endpoint; its signing secret is returned only in this response'),
        ...(params.list ? { params: params.list } : {}),
        body: Type.Ref(CreateWebhookEndpointBodySchema),
        response: managementResponses(201, Type.Ref(CreatedWebhookEndpointSchema)),
      },
      config: { rateLimitBuckets: [RATE_LIMIT_BUCKETS.webhookEndpointCreate], idempotent: true },
    },
    async (request, reply) => {
      const created = await createWebhookEndpoint(app.database.db, { ...scopeOf(request), addressPolicy, body: request.body });
      return reply.status(201).send(created);
    },
  );

  app.get(
    base,
    {
      schema: {
        operationId: operation('list', 'WebhookEndpoints'),
        'x-error-codes': ['FORBIDDEN'],
        ...docs(shape.listSummary),
        ...(params.list ? { params: params.list } : {}),
        querystring: DashboardPageQuerySchema,
        response: managementResponses(200, Type.Ref(WebhookEndpointPageSchema)),
      },
    },
    async (request) => listWebhookEndpoints(app.database.db, { ...scopeOf(request), ...pageRequestOf(request.query, cursorsOf(app)) }),
  );

  app.get(
    `${base}/:endpointId`,
    {
      schema: {
        operationId: operation('get'),
        'x-error-codes': ['NOT_FOUND', 'FORBIDDEN'],
        ...docs('One webhook endpoint (never its secret)'),
        params: params.endpoint,
        response: managementResponses(200, Type.Ref(WebhookEndpointSchema)),
      },
    },
    async (request) => getWebhookEndpoint(app.database.db, { ...scopeOf(request), endpointId: request.params.endpointId }),
  );

  app.patch(
    `${base}/:endpointId`,
    {
      schema: {
        operationId: operation('update'),
        'x-error-codes': ['NOT_FOUND', 'FORBIDDEN', 'WEBHOOK_ENDPOINT_LIMIT'],
        ...docs("Change a webhook endpoint's URL, description, event types or enabled state"),
        params: params.endpoint,
        body: Type.Ref(UpdateWebhookEndpointBodySchema),
        response: managementResponses(200, Type.Ref(WebhookEndpointSchema)),
      },
    },
    async (request) =>
      updateWebhookEndpoint(app.database.db, { ...scopeOf(request), addressPolicy, endpointId: request.params.endpointId, body: request.body }),
  );

  app.delete(
    `${base}/:endpointId`,
    {
      schema: {
        operationId: operation('delete'),
        'x-error-codes': ['NOT_FOUND', 'FORBIDDEN'],
        ...docs('Delete a webhook endpoint with its delivery log'),
        params: params.endpoint,
        response: noContentResponses(),
      },
    },
    async (request, reply) => {
      await deleteWebhookEndpoint(app.database.db, { ...scopeOf(request), endpointId: request.params.endpointId });
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${base}/:endpointId/rotate-secret`,
    {
      schema: {
        operationId: operation('rotate', 'WebhookEndpointSecret'),
        'x-error-codes': ['NOT_FOUND', 'FORBIDDEN'],
        ...docs('Replace the signing secret; the previous one keeps signing alongside for 24 hours'),
        params: params.endpoint,
        body: NoOptionsBody,
        response: managementResponses(200, Type.Ref(CreatedWebhookEndpointSchema)),
      },
      config: { optionalBody: true },
    },
    async (request) => rotateWebhookEndpointSecret(app.database.db, { ...scopeOf(request), endpointId: request.params.endpointId }),
  );

  app.post(
    `${base}/:endpointId/test`,
    {
      schema: {
        operationId: operation('test', 'WebhookEndpoint'),
        'x-error-codes': ['NOT_FOUND', 'FORBIDDEN', 'WEBHOOK_ENDPOINT_DISABLED'],
        ...docs('Send a webhook.test event to this endpoint alone (409 when it is disabled)'),
        params: params.endpoint,
        body: NoOptionsBody,
        response: managementResponses(202, Type.Ref(WebhookTestEventSchema)),
      },
      config: { rateLimitBuckets: [RATE_LIMIT_BUCKETS.webhookSend], optionalBody: true },
    },
    async (request, reply) => {
      const sent = await sendWebhookTestEvent(app.database.db, { ...scopeOf(request), endpointId: request.params.endpointId });
      return reply.status(202).send(sent);
    },
  );

  app.get(
    `${base}/:endpointId/deliveries`,
    {
      schema: {
        operationId: operation('list', 'WebhookDeliveryAttempts'),
        'x-error-codes': ['NOT_FOUND', 'FORBIDDEN'],
        ...docs("The endpoint's delivery attempts, newest first, each with its delivery's state"),
        params: params.endpoint,
        querystring: WebhookDeliveryAttemptQuerySchema,
        response: managementResponses(200, Type.Ref(WebhookDeliveryAttemptPageSchema)),
      },
    },
    async (request) =>
      listWebhookDeliveryAttempts(app.database.db, {
        ...scopeOf(request),
        ...pageRequestOf(request.query, cursorsOf(app)),
        endpointId: request.params.endpointId,
        deliveryId: request.query.deliveryId,
      }),
  );

  app.post(
    `${base}/:endpointId/deliveries/:deliveryId/retry`,
    {
      schema: {
        operationId: operation('retry', 'WebhookDelivery'),
        'x-error-codes': ['NOT_FOUND', 'FORBIDDEN', 'WEBHOOK_ENDPOINT_DISABLED'],
        ...docs('Send a delivery again now (a pending one is brought forward; 409 when the endpoint is disabled)'),
        params: params.delivery,
        body: NoOptionsBody,
        response: managementResponses(202, Type.Ref(WebhookDeliverySchema)),
      },
      config: { rateLimitBuckets: [RATE_LIMIT_BUCKETS.webhookSend], optionalBody: true },
    },
    async (request, reply) => {
      const delivery = await retryWebhookDelivery(app.database.db, {
        ...scopeOf(request),
        endpointId: request.params.endpointId,
        deliveryId: request.params.deliveryId,
      });
      return reply.status(202).send(delivery);
    },
  );

  app.post(
    `${base}/:endpointId/recover`,
    {
      schema: {
        operationId: operation('recover', 'WebhookDeliveries'),
        'x-error-codes': ['NOT_FOUND', 'FORBIDDEN', 'WEBHOOK_ENDPOINT_DISABLED'],
        ...docs('Send again every failed delivery created since a time, at most 30 days back (409 when the endpoint is disabled)'),
        params: params.endpoint,
        body: Type.Ref(RecoverWebhookDeliveriesBodySchema),
        response: managementResponses(202, Type.Ref(RecoveredWebhookDeliveriesSchema)),
      },
      config: { rateLimitBuckets: [RATE_LIMIT_BUCKETS.webhookRecover] },
    },
    async (request, reply) => {
      const recovered = await recoverWebhookDeliveries(app.database.db, {
        ...scopeOf(request),
        endpointId: request.params.endpointId,
        since: request.body.since,
      });
      return reply.status(202).send(recovered);
    },
  );
};

export default webhookEndpointRoutes;
