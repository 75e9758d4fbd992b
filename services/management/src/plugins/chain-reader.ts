import { chainReaderFromConfig } from '@raffle/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { configOf } from '../decorations.js';

/**
 * `chainReader`: reads the chains of CHAIN_RPC_URLS for on-chain requirements (draws re-read them
 * at the close block). One reader per app, its connections closed with it.
 */
async function chainReaderPlugin(app: FastifyInstance) {
  const reader = chainReaderFromConfig(configOf(app));
  app.decorate('chainReader', reader);
  app.addHook('onClose', () => reader.close());
}

export default fp(chainReaderPlugin, { name: 'chain-reader', dependencies: ['config'] });
