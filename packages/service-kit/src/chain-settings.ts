import { parseChainRpcUrls, type ChainEndpoint } from '@raffle/chain';
import { Type } from '@sinclair/typebox';
import { ConfigError } from './config.js';

/**
 * The EVM chains a service reads for on-chain requirements: `name=url` pairs, comma-separated
 * (e.g. `anvil=http://127.0.0.1:8545`). Empty: no chain is configured, and raffles cannot read one.
 */
export const ChainSettings = {
  CHAIN_RPC_URLS: Type.String({ default: '' }),
};

export type ChainConfig = { CHAIN_RPC_URLS: string };

/** The configured chains, checked at start: a malformed setting stops the service with its reason. */
export function chainEndpointsOf(config: ChainConfig): ChainEndpoint[] {
  const parsed = parseChainRpcUrls(config.CHAIN_RPC_URLS);
  if (typeof parsed === 'string') throw new ConfigError(`invalid configuration:\n  CHAIN_RPC_URLS: ${parsed}`);
  return parsed;
}
