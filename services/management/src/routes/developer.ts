import type { FastifyInstance } from 'fastify';
import apiKeyRoutes from './api-keys/index.js';
import capabilityRoutes from './capabilities/index.js';
import eventTypeRoutes from './event-types/index.js';

/** The developer settings' resources, each a folder; app.ts registers them under /api/developer (webhook endpoints too). Keys are registered once per owner. */
export default async function developerRoutes(app: FastifyInstance) {
  await app.register(capabilityRoutes);
  await app.register(eventTypeRoutes);
  await app.register(apiKeyRoutes, { kind: 'personal', prefix: '/personal/api-keys' });
  await app.register(apiKeyRoutes, { kind: 'workspace', prefix: '/workspaces/:workspaceId/api-keys' });
}
