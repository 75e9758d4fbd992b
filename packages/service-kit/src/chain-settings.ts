import { createChainReader, parseChainRpcUrls, type ChainReader } from '@raffle/chain';
import { Type } from '@sinclair/typebox';
import { ConfigError } from './config.js';

/**
 * The EVM chains a service reads for on-chain requirements and contract-wallet signatures. No
 * chains (the default) is a valid deployment: raffles then cannot name a chain requirement.
 */
export const ChainSettings = {
  /** `name=url` pairs, comma-separated, e.g. `ethereum=https://…,base=https://…` (names as requirements say them). */
  CHAIN_RPC_URLS: Type.String({ default: '' }),
  /** Per JSON-RPC request; past it the read is retried, then the chain counts as unavailable. */
  CHAIN_RPC_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 2_000 }),
  /** Retries of a failed or timed-out request before the chain counts as unavailable. */
  CHAIN_RPC_RETRIES: Type.Integer({ minimum: 0, maximum: 5, default: 1 }),
  /** How long a balance read at the latest block is reused (entries); reads at a pinned block (draws) are kept. */
  CHAIN_LATEST_CACHE_MS: Type.Integer({ minimum: 0, maximum: 600_000, default: 10_000 }),
};

export type ChainConfig = {
  CHAIN_RPC_URLS: string;
  CHAIN_RPC_TIMEOUT_MS: number;
  CHAIN_RPC_RETRIES: number;
  CHAIN_LATEST_CACHE_MS: number;
};

/** The configured chains' reader; a malformed CHAIN_RPC_URLS is a ConfigError (the URLs are not echoed: they may hold keys). */
export function chainReaderFromConfig(config: ChainConfig): ChainReader {
  const endpoints = parseChainRpcUrls(config.CHAIN_RPC_URLS);
  if (typeof endpoints === 'string') throw new ConfigError(`invalid configuration:\n  CHAIN_RPC_URLS: ${endpoints}`);
  return createChainReader(endpoints, {
    timeoutMs: config.CHAIN_RPC_TIMEOUT_MS,
    retries: config.CHAIN_RPC_RETRIES,
    latestCacheMs: config.CHAIN_LATEST_CACHE_MS,
  });
}
