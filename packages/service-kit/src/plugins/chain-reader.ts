import type { ChainReader } from '@raffle/chain';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { chainReaderFromConfig, type ChainConfig } from '../chain-settings.js';

export type ChainReaderPluginOptions = {
  /** The service's chain settings (CHAIN_RPC_URLS and the rest). */
  settings: ChainConfig;
  /** A reader to use instead of one built from the settings (tests pass the local chain's); closed by its owner, not here. */
  chainReader?: ChainReader;
};

/**
 * `chainReader`: the EVM chains of CHAIN_RPC_URLS, for the APIs' on-chain requirements (entries,
 * pending settlement, draws) and management's wallet links. One reader per instance, so concurrent
 * reads share its per-tick batching and its short cache; a reader built here is closed with the app.
 */
async function chainReaderPlugin(app: FastifyInstance, options: ChainReaderPluginOptions) {
  if (options.chainReader) {
    app.decorate('chainReader', options.chainReader);
    return;
  }
  const reader = chainReaderFromConfig(options.settings);
  app.decorate('chainReader', reader);
  app.addHook('onClose', async () => reader.close());
}

export default fp(chainReaderPlugin, { name: 'chain-reader' });
