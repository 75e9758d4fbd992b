import type { FastifyInstance } from 'fastify';
import allowlistRoutes from './allowlist/index.js';
import entryRoutes from './entries/index.js';
import meRoutes from './me/index.js';
import raffleRoutes from './raffles/index.js';
import winRoutes from './wins/index.js';
import workspaceProjectRoutes from './workspace-projects/index.js';
import workspaceAllowlistRoutes from './workspace-allowlist/index.js';
import workspaceRaffleRoutes from './workspace-raffles/index.js';

/** The keyed API's resources, each a folder; app.ts registers them under /api/v1 (the OpenAPI document keeps this order). */
export default async function apiV1Routes(app: FastifyInstance) {
  await app.register(meRoutes);
  await app.register(raffleRoutes);
  await app.register(entryRoutes);
  await app.register(winRoutes);
  await app.register(allowlistRoutes);
  await app.register(workspaceRaffleRoutes);
  await app.register(workspaceAllowlistRoutes);
  await app.register(workspaceProjectRoutes);
}
