/**
 * PLACEHOLDER of the "chain" helper's ChainSettings / chainReaderFromConfig (issue 25), so the
 * entry work typechecks before it lands; the merge takes theirs.
 */
import { ChainNotConfigured, createChainReader, parseChainRpcUrls, type ChainReader } from '@raffle/chain';
import { Type } from '@sinclair/typebox';

export const ChainSettings = {
  /** `name=url` pairs, comma-separated (e.g. `anvil=http://127.0.0.1:8545`); empty: no chain is read. */
  CHAIN_RPC_URLS: Type.String({ default: '' }),
};

export type ChainConfig = { CHAIN_RPC_URLS: string };

export function chainReaderFromConfig(config: ChainConfig): ChainReader {
  if (config.CHAIN_RPC_URLS.trim() === '') {
    const none = (chain: string | number) => Promise.reject(new ChainNotConfigured(chain));
    return {
      chains: [],
      chainNameOf: async () => undefined,
      chainIdOf: none,
      readHoldings: none,
      tokenName: none,
      latestBlock: none,
      firstBlockAtOrAfter: none,
      verifyMessage: none,
      stats: () => ({ rpcRequests: 0, holdingsRead: 0, cacheHits: 0 }),
      close: async () => undefined,
    };
  }
  const endpoints = parseChainRpcUrls(config.CHAIN_RPC_URLS);
  if (typeof endpoints === 'string') throw new Error(endpoints);
  return createChainReader(endpoints);
}
