import { chainReaderFromConfig } from '@raffle/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { configOf } from '../decorations.js';

/**
 * `chainReader`: the EVM chains of CHAIN_RPC_URLS, read by entries to raffles with on-chain
 * requirements and by the pending-entry resolver. One reader per instance, so concurrent entries
 * share its per-tick batching and its short cache; closed with the app.
 */
async function chainReaderPlugin(app: FastifyInstance) {
  const reader = chainReaderFromConfig(configOf(app));
  app.decorate('chainReader', reader);
  app.addHook('onClose', async () => reader.close());
}

export default fp(chainReaderPlugin, { name: 'chain-reader', dependencies: ['config'] });
