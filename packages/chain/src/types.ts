/** The shapes the chain reader speaks: endpoints, holding queries, pinned blocks, the reader itself. */
export type Address = `0x${string}`;

/** One configured chain: `CHAIN_RPC_URLS` is `name=url` pairs, comma-separated (e.g. `anvil=http://127.0.0.1:8545`). */
export type ChainEndpoint = {
  /** The chain's name as raffles and requirements say it (`params.chain`), e.g. `ethereum`, `base`, `anvil`. */
  name: string;
  rpcUrl: string;
  /** Multicall3-compatible aggregator, for ERC-6492 signature checks; the canonical 0xcA11bde05977b3631167028862bE2a173976CA11 when not given. */
  multicallAddress?: Address;
};

/** What a holdings read asks: one wallet's balance of one asset. */
export type HoldingQuery =
  | { kind: 'native'; wallet: Address }
  | { kind: 'erc20'; contract: Address; wallet: Address }
  | { kind: 'erc721'; contract: Address; wallet: Address }
  | { kind: 'erc1155'; contract: Address; tokenId: bigint; wallet: Address };

/** A block pinned by number, with what identifies it for anyone who checks later. */
export type PinnedBlock = { number: bigint; hash: `0x${string}`; timestamp: Date };

export type ChainReaderOptions = {
  /** Per request (default 2,000 ms). */
  timeoutMs?: number;
  /** Retries of a failed request before ChainUnavailable (default 1). */
  retries?: number;
  /** How long a holding read at `latest` is reused (default 10,000 ms); reads at a pinned block are kept (LRU-bounded). */
  latestCacheMs?: number;
};

/** Counters a benchmark or a metric reads. */
export type ChainReadStats = {
  /** HTTP requests sent (a JSON-RPC batch is one). */
  rpcRequests: number;
  /** JSON-RPC calls inside them (a bounded eth_call is one, however many balances it reads). */
  rpcCalls: number;
  /** Holdings asked of readHoldings. */
  holdingsRead: number;
  /** Of those, answered from the cache or by a read already under way. */
  cacheHits: number;
};

export interface ChainReader {
  /** The configured chain names. */
  readonly chains: readonly string[];
  /** The configured chain with this EIP-155 id, or undefined (asks each chain's eth_chainId once). */
  chainNameOf(chainId: number): Promise<string | undefined>;
  chainIdOf(chain: string): Promise<number>;
  /**
   * Balances, in query order, at a pinned block or `latest`: contract reads batched into bounded
   * deployless calls (each read's gas and return size capped, so one contract cannot fail another's
   * read), native balances into one JSON-RPC batch; cached per (chain, asset, wallet, block), or
   * read anew with `fresh`. Throws ChainUnavailable (the chain did not answer, or refused one of
   * these reads) / ChainNotConfigured.
   */
  readHoldings(chain: string, queries: readonly HoldingQuery[], block: bigint | 'latest', options?: { fresh?: boolean }): Promise<bigint[]>;
  /** The token's `name()` (ERC-20/721; undefined for ERC-1155 or when it has none), cached. */
  tokenName(chain: string, contract: Address): Promise<string | undefined>;
  /** The latest block. */
  latestBlock(chain: string): Promise<PinnedBlock>;
  /** The first block whose timestamp is at or after `at`, or null when the chain has not produced it yet. */
  firstBlockAtOrAfter(chain: string, at: Date): Promise<PinnedBlock | null>;
  /**
   * EIP-1271-aware signature check of a personal_sign message (EOA by recovery; a contract wallet
   * through its isValidSignature on that chain).
   */
  verifyMessage(chain: string, args: { address: Address; message: string; signature: `0x${string}` }): Promise<boolean>;
  stats(): ChainReadStats;
  close(): Promise<void>;
}
