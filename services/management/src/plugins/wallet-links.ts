import type { ChainReader } from '@raffle/chain';
import { parseAllowedOrigins, type WalletLinkChains, type WalletLinkSettings } from '@raffle/domain';
import { chainReaderFromConfig } from '@raffle/service-kit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { configOf } from '../decorations.js';

export type WalletLinksPluginOptions = {
  /** The chain reader to use instead of one built from CHAIN_RPC_URLS (closed by its owner, not here). */
  chainReader?: ChainReader;
};

/**
 * `walletLinks`: what the wallet routes link with — the console's origins and the nonce lifetime
 * (SIWE_ALLOWED_ORIGINS, SIWE_NONCE_TTL_SECONDS) and the chains read (CHAIN_RPC_URLS) to check
 * contract wallets' signatures and to name a message's chain id; closed with the app.
 */
async function walletLinksPlugin(app: FastifyInstance, options: WalletLinksPluginOptions) {
  const config = configOf(app);
  const origins = parseAllowedOrigins(config.SIWE_ALLOWED_ORIGINS);
  if (typeof origins === 'string') throw new Error(`SIWE_ALLOWED_ORIGINS: ${origins}`);
  const settings: WalletLinkSettings = { origins, nonceTtlMs: config.SIWE_NONCE_TTL_SECONDS * 1000, clockSkewMs: 60_000 };
  // A reader built here is this app's to close; one passed in is its owner's.
  const chains: WalletLinkChains = options.chainReader ?? ownReader(app, chainReaderFromConfig(config));
  app.decorate('walletLinks', { settings, chains });
}

function ownReader(app: FastifyInstance, reader: ChainReader): ChainReader {
  app.addHook('onClose', async () => {
    await reader.close();
  });
  return reader;
}

export default fp(walletLinksPlugin, { name: 'wallet-links', dependencies: ['config'] });
