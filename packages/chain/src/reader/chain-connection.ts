import { createPublicClient, decodeFunctionResult, erc20Abi, http, multicall3Abi, type PublicClient } from 'viem';
import { ChainUnavailable } from '../errors.js';
import { CANONICAL_MULTICALL3 } from '../rpc-urls.js';
import type { Address, ChainEndpoint, HoldingQuery, PinnedBlock } from '../types.js';
import { balanceCall, balanceOf } from './contract-calls.js';

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

  /** Balances in query order: contract reads in one aggregate3 call, native ones as eth_getBalance (batched by the transport). */
  async readHoldings(queries: readonly HoldingQuery[], block: bigint | 'latest'): Promise<bigint[]> {
    const blockNumber = block === 'latest' ? undefined : block;
    const contractQueries = queries.flatMap((query, index) => (query.kind === 'native' ? [] : [{ query, index }]));
    const nativeQueries = queries.flatMap((query, index) => (query.kind === 'native' ? [{ query, index }] : []));
    return this.answer(async () => {
      const [aggregated, natives] = await Promise.all([
        contractQueries.length === 0
          ? Promise.resolve([])
          : this.client.readContract({
              address: this.aggregator,
              abi: multicall3Abi,
              functionName: 'aggregate3',
              args: [contractQueries.map(({ query }) => balanceCall(query as Exclude<HoldingQuery, { kind: 'native' }>))],
              blockNumber,
            }),
        Promise.all(nativeQueries.map(({ query }) => this.client.getBalance({ address: query.wallet, blockNumber }))),
      ]);
      const balances = new Array<bigint>(queries.length).fill(0n);
      contractQueries.forEach(({ index }, position) => {
        const result = aggregated[position];
        balances[index] = result ? balanceOf(result) : 0n;
      });
      nativeQueries.forEach(({ index }, position) => {
        balances[index] = natives[position] ?? 0n;
      });
      return balances;
    });
  }

  /** `name()`, or undefined when the contract has none (reverts or answers nothing). */
  async tokenName(contract: Address): Promise<string | undefined> {
    const [result] = await this.answer(() =>
      this.client.readContract({
        address: this.aggregator,
        abi: multicall3Abi,
        functionName: 'aggregate3',
        args: [[{ target: contract, allowFailure: true, callData: '0x06fdde03' }]],
      }),
    );
    if (!result?.success || result.returnData === '0x') return undefined;
    try {
      return decodeFunctionResult({ abi: erc20Abi, functionName: 'name', data: result.returnData });
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
      if (error instanceof ChainUnavailable) throw error;
      throw new ChainUnavailable(this.name, `chain ${this.name} did not answer: ${shortMessage(error)}`);
    }
  }
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
