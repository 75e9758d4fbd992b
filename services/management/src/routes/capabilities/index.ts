import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CapabilitiesSchema,
  PERSONAL_API_SCOPES,
  PERSONAL_WEBHOOK_EVENTS,
  WORKSPACE_API_SCOPES,
  WORKSPACE_WEBHOOK_EVENTS,
  type Capabilities,
} from '@raffle/contracts';
import { Type } from '@sinclair/typebox';
import { managementResponses } from '../responses.js';

const CAPABILITIES: Capabilities = {
  personalApiScopes: [...PERSONAL_API_SCOPES],
  workspaceApiScopes: [...WORKSPACE_API_SCOPES],
  personalWebhookEvents: [...PERSONAL_WEBHOOK_EVENTS],
  workspaceWebhookEvents: [...WORKSPACE_WEBHOOK_EVENTS],
};

const capabilityRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/capabilities',
    {
      schema: {
        operationId: 'getCapabilities',
        tags: ['Capabilities'],
        summary: 'Scopes and webhook event types that can be chosen',
        response: managementResponses(200, Type.Ref(CapabilitiesSchema)),
      },
    },
    async () => CAPABILITIES,
  );
};

export default capabilityRoutes;
