import { parseAllowedOrigins, type WalletLinkChains, type WalletLinkSettings } from '@raffle/domain';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { chainReaderOf, configOf } from '../decorations.js';

/**
 * `walletLinks`: what the wallet routes link with — the console's origins and the nonce lifetime
 * (SIWE_ALLOWED_ORIGINS, SIWE_NONCE_TTL_SECONDS) and the instance's chain reader, which checks
 * contract wallets' signatures and names a message's chain id.
 */
async function walletLinksPlugin(app: FastifyInstance) {
  const config = configOf(app);
  const origins = parseAllowedOrigins(config.SIWE_ALLOWED_ORIGINS);
  if (typeof origins === 'string') throw new Error(`SIWE_ALLOWED_ORIGINS: ${origins}`);
  const settings: WalletLinkSettings = { origins, nonceTtlMs: config.SIWE_NONCE_TTL_SECONDS * 1000, clockSkewMs: 60_000 };
  const chains: WalletLinkChains = chainReaderOf(app);
  app.decorate('walletLinks', { settings, chains });
}

export default fp(walletLinksPlugin, { name: 'wallet-links', dependencies: ['config', 'chain-reader'] });
