/**
 * @raffle/chain — reading EVM chains for on-chain requirements: one viem client per configured chain
 * (JSON-RPC batching, bounded batched reads, timeouts, retries), a per-block cache of holdings, the first block at
 * or after a moment, and EIP-1271/6492-aware signature checks. See docs/decisions/0025-reading-chains.md.
 */
export type {
  Address,
  ChainEndpoint,
  HoldingQuery,
  PinnedBlock,
  ChainReaderOptions,
  ChainReadStats,
  ChainReader,
} from './types.js';
export { ChainUnavailable, ChainNotConfigured } from './errors.js';
export { parseChainRpcUrls, CANONICAL_MULTICALL3 } from './rpc-urls.js';
export { createChainReader } from './reader/create-chain-reader.js';
