import type { ChainReader } from '@raffle/chain';
import { chainReaderFromConfig } from '@raffle/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { configOf } from '../decorations.js';

export type ChainReaderPluginOptions = {
  /** A reader to use instead of one built from CHAIN_RPC_URLS (tests pass the local chain's); closed by its owner, not here. */
  chainReader?: ChainReader;
};

/**
 * `chainReader`: the EVM chains of CHAIN_RPC_URLS, read by entries to raffles with on-chain
 * requirements (web entries), by draws and by wallet links. One reader per instance, so concurrent
 * reads share its per-tick batching and its short cache; a reader built here is closed with the app.
 */
async function chainReaderPlugin(app: FastifyInstance, options: ChainReaderPluginOptions) {
  if (options.chainReader) {
    app.decorate('chainReader', options.chainReader);
    return;
  }
  const reader = chainReaderFromConfig(configOf(app));
  app.decorate('chainReader', reader);
  app.addHook('onClose', async () => reader.close());
}

export default fp(chainReaderPlugin, { name: 'chain-reader', dependencies: ['config'] });
