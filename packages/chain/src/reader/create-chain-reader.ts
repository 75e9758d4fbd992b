import { ChainNotConfigured } from '../errors.js';
import type { Address, ChainEndpoint, ChainReader, ChainReaderOptions, ChainReadStats, HoldingQuery, PinnedBlock } from '../types.js';
import { firstBlockAtOrAfter } from './block-search.js';
import { ChainConnection } from './chain-connection.js';
import { HoldingsBatcher } from './holdings-batcher.js';
import { HoldingsCache } from './holdings-cache.js';
import { blockKey, holdingKey } from './holding-key.js';

/**
 * Reads per bounded eth_call: 200 × GAS_PER_CALL is 20M gas at worst, inside anvil's 30M and
 * geth's 50M eth_call caps, so even a batch of gas burners is answered in one call.
 */
const READS_PER_CALL = 200;
const CACHE_ENTRIES = 100_000;
const BLOCK_ENTRIES = 10_000;

type Chain = {
  connection: ChainConnection;
  batcher: HoldingsBatcher;
  cache: HoldingsCache;
  inFlight: Map<string, Promise<bigint>>;
  names: Map<string, Promise<string | undefined>>;
  blocks: Map<bigint, PinnedBlock>;
  firstBlocks: Map<number, PinnedBlock>;
};

export function createChainReader(endpoints: readonly ChainEndpoint[], options: ChainReaderOptions = {}): ChainReader {
  const stats: ChainReadStats = { rpcRequests: 0, rpcCalls: 0, holdingsRead: 0, cacheHits: 0 };
  const latestCacheMs = options.latestCacheMs ?? 10_000;
  const chains = new Map<string, Chain>();
  for (const endpoint of endpoints) {
    const connection = new ChainConnection(endpoint, {
      timeoutMs: options.timeoutMs ?? 2_000,
      retries: options.retries ?? 1,
      onRequest: (calls) => {
        stats.rpcRequests += 1;
        stats.rpcCalls += calls;
      },
    });
    chains.set(endpoint.name, {
      connection,
      batcher: new HoldingsBatcher((queries, block) => connection.readHoldings(queries, block), READS_PER_CALL),
      cache: new HoldingsCache(CACHE_ENTRIES, latestCacheMs),
      inFlight: new Map(),
      names: new Map(),
      blocks: new Map(),
      firstBlocks: new Map(),
    });
  }

  const chainOf = (name: string): Chain => {
    const chain = chains.get(name);
    if (!chain) throw new ChainNotConfigured(name);
    return chain;
  };

  const blockAt = async (chain: Chain, number: bigint): Promise<PinnedBlock> => {
    const known = chain.blocks.get(number);
    if (known) return known;
    const block = await chain.connection.block(number);
    if (chain.blocks.size >= BLOCK_ENTRIES) chain.blocks.clear();
    chain.blocks.set(number, block);
    return block;
  };

  /**
   * A cached balance, the read already under way for it (single-flight), or a new read joining
   * this tick's batch. `fresh` skips the cache and any read already under way (which may have
   * started before what the caller must see, such as a mint), and leaves its answer cached.
   */
  const readOne = (chain: Chain, query: HoldingQuery, block: bigint | 'latest', fresh: boolean): bigint | Promise<bigint> => {
    const key = holdingKey(query);
    const cached = fresh ? undefined : chain.cache.get(key, block);
    if (cached !== undefined) {
      stats.cacheHits += 1;
      return cached;
    }
    const flightKey = `${fresh ? 'fresh|' : ''}${blockKey(block)}|${key}`;
    const underway = chain.inFlight.get(flightKey);
    if (underway) {
      stats.cacheHits += 1;
      return underway;
    }
    const read = chain.batcher.enqueue(query, block).then(
      (value) => {
        chain.inFlight.delete(flightKey);
        chain.cache.set(key, block, value);
        return value;
      },
      (error: unknown) => {
        chain.inFlight.delete(flightKey);
        throw error;
      },
    );
    chain.inFlight.set(flightKey, read);
    return read;
  };

  return {
    chains: [...chains.keys()],

    chainIdOf: async (name) => chainOf(name).connection.chainIdOnce(),

    async chainNameOf(chainId) {
      const answers = await Promise.allSettled(
        [...chains.values()].map(async (chain) => ({ name: chain.connection.name, id: await chain.connection.chainIdOnce() })),
      );
      for (const answer of answers) {
        if (answer.status === 'fulfilled' && answer.value.id === chainId) return answer.value.name;
      }
      // A chain that did not answer may be the one: "not configured" would be a wrong, lasting answer.
      const failed = answers.find((answer): answer is PromiseRejectedResult => answer.status === 'rejected');
      if (failed) throw failed.reason;
      return undefined;
    },

    async readHoldings(name, queries, block, options) {
      const chain = chainOf(name);
      stats.holdingsRead += queries.length;
      return Promise.all(queries.map((query) => readOne(chain, query, block, options?.fresh ?? false)));
    },

    async tokenName(name, contract: Address) {
      const chain = chainOf(name);
      const key = contract.toLowerCase();
      let known = chain.names.get(key);
      if (!known) {
        known = chain.connection.tokenName(contract).catch((error: unknown) => {
          chain.names.delete(key);
          throw error;
        });
        chain.names.set(key, known);
      }
      return known;
    },

    latestBlock: async (name) => chainOf(name).connection.block('latest'),

    async firstBlockAtOrAfter(name, at) {
      const chain = chainOf(name);
      const known = chain.firstBlocks.get(at.getTime());
      if (known) return known;
      const latest = await chain.connection.block('latest');
      const found = await firstBlockAtOrAfter(at, latest, (number) => blockAt(chain, number));
      // Only a found block is final; "not yet" changes with the next block.
      if (found) {
        if (chain.firstBlocks.size >= BLOCK_ENTRIES) chain.firstBlocks.clear();
        chain.firstBlocks.set(at.getTime(), found);
      }
      return found;
    },

    verifyMessage: async (name, args) => chainOf(name).connection.verifyMessage(args),

    stats: () => ({ ...stats }),

    async close() {
      for (const chain of chains.values()) {
        chain.cache.clear();
        chain.names.clear();
        chain.blocks.clear();
        chain.firstBlocks.clear();
      }
    },
  };
}
