import { createConnectionTokens, createConnectionTokenSealing, socialReaderFor } from '@raffle/domain';
import { socialConnectionsOf } from '@raffle/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { configOf } from '../decorations.js';

/**
 * `socialReader`: reads Discord and X requirements with the entrants' linked accounts (decision
 * 0045), for entries and for the pending entries' resolver. The tokens are the ones management
 * sealed (the same CONNECTION_TOKEN_KEY), renewed here when they expire (the same OAuth clients).
 */
async function socialReaderPlugin(app: FastifyInstance) {
  const config = configOf(app);
  const social = socialConnectionsOf(config);
  const tokens = createConnectionTokens({ db: app.database.db, sealing: createConnectionTokenSealing(social.tokenKey), oauth: social.oauth });
  const reader = socialReaderFor({
    db: app.database.db,
    tokens,
    providers: (['discord', 'x'] as const).filter((provider) => social.oauth[provider] !== undefined),
    endpoints: social.endpoints,
    timeoutMs: config.SOCIAL_READ_TIMEOUT_MS,
  });
  app.decorate('socialReader', reader);
}

export default fp(socialReaderPlugin, { name: 'social-reader', dependencies: ['config', 'database'] });
