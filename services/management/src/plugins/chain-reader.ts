import { chainReaderFromConfig } from '@raffle/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { configOf } from '../decorations.js';

/**
 * `chainReader`: one reader over the chains of CHAIN_RPC_URLS (none when it is empty), closed with
 * the app. A malformed value stops the service at start, named by its variable (never echoed: a
 * URL may carry a provider's key).
 */
async function chainReaderPlugin(app: FastifyInstance) {
  const reader = chainReaderFromConfig(configOf(app));
  app.decorate('chainReader', reader);
  app.addHook('onClose', async () => reader.close());
}

export default fp(chainReaderPlugin, { name: 'chain-reader', dependencies: ['config'] });
