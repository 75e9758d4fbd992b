import type { ChainReader } from '@raffle/chain';
import { parseAllowedOrigins, type WalletLinkChains, type WalletLinkSettings } from '@raffle/domain';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { configOf } from '../decorations.js';

export type WalletLinksPluginOptions = {
  /** The chain reader to use instead of one built from CHAIN_RPC_URLS (closed by its owner, not here). */
  chainReader?: ChainReader;
};

/** Until a chain reader is configured, linking knows no chain: every message's chain id is unsupported. */
const NO_CHAINS: WalletLinkChains = {
  chains: [],
  chainNameOf: async () => undefined,
  chainIdOf: async (chain) => {
    throw new Error(`chain ${chain} is not configured`);
  },
  verifyMessage: async () => false,
};

/**
 * `walletLinks`: what the wallet routes link with — the console's origins and the nonce lifetime
 * (SIWE_ALLOWED_ORIGINS, SIWE_NONCE_TTL_SECONDS) and the chains read to check contract wallets'
 * signatures and to name a message's chain id.
 */
async function walletLinksPlugin(app: FastifyInstance, options: WalletLinksPluginOptions) {
  const config = configOf(app);
  const origins = parseAllowedOrigins(config.SIWE_ALLOWED_ORIGINS);
  if (typeof origins === 'string') throw new Error(`SIWE_ALLOWED_ORIGINS: ${origins}`);
  const settings: WalletLinkSettings = { origins, nonceTtlMs: config.SIWE_NONCE_TTL_SECONDS * 1000, clockSkewMs: 60_000 };
  const chains: WalletLinkChains = options.chainReader ?? NO_CHAINS;
  app.decorate('walletLinks', { settings, chains });
}

export default fp(walletLinksPlugin, { name: 'wallet-links', dependencies: ['config'] });
