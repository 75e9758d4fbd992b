import type { FastifyInstance } from 'fastify';
import dashboardChainRoutes from './dashboard-chains/index.js';
import dashboardMeRoutes from './dashboard-me/index.js';
import dashboardWalletRoutes from './dashboard-me/wallets.js';
import dashboardConnectionRoutes from './dashboard-me/connections.js';
import dashboardProjectRoutes from './dashboard-projects/index.js';
import dashboardRaffleRoutes from './dashboard-raffles/index.js';
import dashboardWorkspaceRoutes from './dashboard-workspaces/index.js';

/** The dashboard's resources, each a folder; app.ts registers them under /api/dashboard. */
export default async function dashboardRoutes(app: FastifyInstance) {
  await app.register(dashboardMeRoutes);
  await app.register(dashboardWalletRoutes);
  await app.register(dashboardConnectionRoutes);
  await app.register(dashboardChainRoutes);
  await app.register(dashboardWorkspaceRoutes);
  await app.register(dashboardProjectRoutes);
  await app.register(dashboardRaffleRoutes);
}
