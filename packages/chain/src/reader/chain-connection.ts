import { BaseError, createPublicClient, decodeFunctionResult, erc20Abi, HttpRequestError, http, TimeoutError, type Hex, type PublicClient } from 'viem';
import { ChainUnavailable } from '../errors.js';
import { CANONICAL_MULTICALL3 } from '../rpc-urls.js';
import type { Address, ChainEndpoint, HoldingQuery, PinnedBlock } from '../types.js';
import { GAS_PER_CALL, readBoundedBalances } from './bounded-balances.js';
import { balanceCall, balanceOf } from './contract-calls.js';

type ContractQuery = Exclude<HoldingQuery, { kind: 'native' }>;

/** One holding read's result: its balance, or the chain's refusal of that read alone. */
export type HoldingResult = bigint | ChainUnavailable;

export type ConnectionOptions = { timeoutMs: number; retries: number; onRequest: (calls: number) => void };

/**
 * One configured chain: a viem public client over HTTP with JSON-RPC batching (requests made in
 * the same tick share one HTTP request), a timeout and retries. Every failure to get an answer
 * becomes ChainUnavailable, worded without the RPC URL (it often carries a provider key).
 */
export class ChainConnection {
  readonly client: PublicClient;
  readonly aggregator: Address;
  private chainId: Promise<number> | undefined;

  constructor(
    readonly endpoint: ChainEndpoint,
    options: ConnectionOptions,
  ) {
    this.aggregator = endpoint.multicallAddress ?? CANONICAL_MULTICALL3;
    this.client = createPublicClient({
      transport: http(endpoint.rpcUrl, {
        batch: true,
        timeout: options.timeoutMs,
        retryCount: options.retries,
        onFetchRequest: (_request, init) => options.onRequest(jsonRpcCalls(init.body)),
      }),
    });
  }

  get name(): string {
    return this.endpoint.name;
  }

  /** eth_chainId, asked once (again only after a failure). */
  chainIdOnce(): Promise<number> {
    this.chainId ??= this.answer(() => this.client.getChainId()).catch((error: unknown) => {
      this.chainId = undefined;
      throw error;
    });
    return this.chainId;
  }

  /**
   * Balances in query order: contract reads through one bounded deployless call (per-call gas
   * and return size capped, bounded-balances.ts), native ones as eth_getBalance (batched by the
   * transport). A contract read the node refuses as a whole (an RPC error, not silence) is split
   * in halves and asked again, down to single reads: the one that still fails is a ChainUnavailable
   * in its own place, and every other read has its balance. Throws ChainUnavailable when the chain
   * does not answer at all.
   */
  async readHoldings(queries: readonly HoldingQuery[], block: bigint | 'latest'): Promise<HoldingResult[]> {
    const blockNumber = block === 'latest' ? undefined : block;
    const contractQueries = queries.flatMap((query, index) => (query.kind === 'native' ? [] : [{ query, index }]));
    const nativeQueries = queries.flatMap((query, index) => (query.kind === 'native' ? [{ query, index }] : []));
    const [contracts, natives] = await Promise.all([
      this.contractBalances(
        contractQueries.map(({ query }) => query as ContractQuery),
        blockNumber,
      ),
      this.answer(() => Promise.all(nativeQueries.map(({ query }) => this.client.getBalance({ address: query.wallet, blockNumber })))),
    ]);
    const results = new Array<HoldingResult>(queries.length).fill(0n);
    contractQueries.forEach(({ index }, position) => {
      results[index] = contracts[position] ?? 0n;
    });
    nativeQueries.forEach(({ index }, position) => {
      results[index] = natives[position] ?? 0n;
    });
    return results;
  }

  private async contractBalances(queries: readonly ContractQuery[], blockNumber: bigint | undefined): Promise<HoldingResult[]> {
    if (queries.length === 0) return [];
    try {
      const answers = await readBoundedBalances(this.client, queries.map(balanceCall), blockNumber);
      return answers.map(balanceOf);
    } catch (error) {
      if (isSilence(error)) throw this.unavailable(error);
      if (queries.length === 1) return [this.unavailable(error, 'refused this read')];
      const half = Math.ceil(queries.length / 2);
      const [first, second] = await Promise.all([
        this.contractBalances(queries.slice(0, half), blockNumber),
        this.contractBalances(queries.slice(half), blockNumber),
      ]);
      return [...first, ...second];
    }
  }

  /**
   * `name()`, or undefined when the contract has none: it reverts, answers nothing or something
   * that is not a string, or spends more than one read's gas (a hostile name costs its raffle
   * the token's name in a verdict's wording, nothing more).
   */
  async tokenName(contract: Address): Promise<string | undefined> {
    let returned: Hex | undefined;
    try {
      ({ data: returned } = await this.client.call({ to: contract, data: '0x06fdde03', gas: GAS_PER_CALL }));
    } catch (error) {
      if (isSilence(error)) throw this.unavailable(error);
      return undefined;
    }
    if (!returned || returned === '0x') return undefined;
    try {
      return decodeFunctionResult({ abi: erc20Abi, functionName: 'name', data: returned });
    } catch {
      return undefined;
    }
  }

  async block(number: bigint | 'latest'): Promise<PinnedBlock> {
    const block = await this.answer(() =>
      number === 'latest' ? this.client.getBlock({ blockTag: 'latest' }) : this.client.getBlock({ blockNumber: number }),
    );
    return { number: block.number, hash: block.hash, timestamp: new Date(Number(block.timestamp) * 1000) };
  }

  async verifyMessage(args: { address: Address; message: string; signature: `0x${string}` }): Promise<boolean> {
    return this.answer(() =>
      this.client.verifyMessage({
        address: args.address,
        message: args.message,
        signature: args.signature,
        multicallAddress: this.aggregator,
      }),
    );
  }

  /** Runs a request; not getting an answer (network, timeout, RPC error) is ChainUnavailable. */
  private async answer<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  private unavailable(error: unknown, what = 'did not answer'): ChainUnavailable {
    if (error instanceof ChainUnavailable) return error;
    return new ChainUnavailable(this.name, `chain ${this.name} ${what}: ${shortMessage(error)}`);
  }
}

/** Whether the node was not reached or did not answer in time, as opposed to answering with an error. */
function isSilence(error: unknown): boolean {
  return error instanceof BaseError && error.walk((cause) => cause instanceof HttpRequestError || cause instanceof TimeoutError) !== null;
}

function shortMessage(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'shortMessage' in error && typeof error.shortMessage === 'string') {
    return error.shortMessage;
  }
  return error instanceof Error ? error.name : 'unknown error';
}

/** The JSON-RPC calls in a request body: one per `"jsonrpc"` member (hex call data cannot contain the word). */
function jsonRpcCalls(body: unknown): number {
  return typeof body === 'string' ? (body.match(/"jsonrpc"/g)?.length ?? 1) : 1;
}
