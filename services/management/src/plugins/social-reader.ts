import { socialReaderFor } from '@raffle/domain';
import { socialConnectionsOf } from '@raffle/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { configOf, connectionsOf, linkableProviders } from '../decorations.js';

/**
 * `socialReader`: reads Discord and X requirements with the entrants' linked accounts (decision
 * 0045), for web entries, draws and auto-draws, on the tokens the connections plugin keeps.
 */
async function socialReaderPlugin(app: FastifyInstance) {
  const config = configOf(app);
  const reader = socialReaderFor({
    db: app.database.db,
    tokens: connectionsOf(app).tokens,
    providers: linkableProviders(app),
    endpoints: socialConnectionsOf(config).endpoints,
    timeoutMs: config.SOCIAL_READ_TIMEOUT_MS,
  });
  app.decorate('socialReader', reader);
}

export default fp(socialReaderPlugin, { name: 'social-reader', dependencies: ['config', 'database', 'connections'] });
