import { createChainReader, parseChainRpcUrls } from '@raffle/chain';
import { ConfigError } from '@raffle/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { configOf } from '../decorations.js';

/**
 * `chainReader`: one reader over the chains of CHAIN_RPC_URLS (none when it is empty), closed with
 * the app. A malformed value stops the service at start, named by its variable.
 */
async function chainReaderPlugin(app: FastifyInstance) {
  const text = configOf(app).CHAIN_RPC_URLS.trim();
  const endpoints = text === '' ? [] : parseChainRpcUrls(text);
  if (typeof endpoints === 'string') throw new ConfigError(`invalid configuration:\n  CHAIN_RPC_URLS: ${endpoints}`);
  const reader = createChainReader(endpoints);
  app.decorate('chainReader', reader);
  app.addHook('onClose', async () => reader.close());
}

export default fp(chainReaderPlugin, { name: 'chain-reader', dependencies: ['config'] });
