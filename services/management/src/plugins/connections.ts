import { createConnectionTokens, createConnectionTokenSealing, linkedAccountReader } from '@raffle/domain';
import { socialConnectionsOf } from '@raffle/service-kit';
import { createDiscordClient, createXClient } from '@raffle/social';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { configOf } from '../decorations.js';

/**
 * `connections`: what the connection routes link with — the configured providers' OAuth clients,
 * the sealing of tokens (CONNECTION_TOKEN_KEY) and the reader of the account a new token belongs
 * to — and the linked accounts' tokens, renewed when they expire, for what reads the providers.
 */
async function connectionsPlugin(app: FastifyInstance) {
  const social = socialConnectionsOf(configOf(app));
  const sealing = createConnectionTokenSealing(social.tokenKey);
  const accounts = linkedAccountReader({
    discord: createDiscordClient({ apiBaseUrl: social.endpoints.discord.apiBaseUrl }),
    x: createXClient({ apiBaseUrl: social.endpoints.x.apiBaseUrl }),
  });
  const tokens = createConnectionTokens({ db: app.database.db, sealing, oauth: social.oauth });
  app.decorate('connections', { linking: { sealing, oauth: social.oauth, accounts }, tokens });
}

export default fp(connectionsPlugin, { name: 'connections', dependencies: ['config', 'database'] });
