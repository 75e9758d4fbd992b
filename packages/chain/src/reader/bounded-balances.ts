import { decodeAbiParameters, encodeDeployData, type Hex, type PublicClient } from 'viem';
import BoundedBalances from '../local/artifacts/BoundedBalances.json' with { type: 'json' };
import type { Address } from '../types.js';

/**
 * Gas one `balanceOf` may spend. A plain ERC-20/721/1155 read costs 3–10k (cold account and
 * slot included), one behind a proxy 15–30k; a contract that wants more is failing its own read.
 */
export const GAS_PER_CALL = 100_000n;

export type BoundedCall = { target: Address; callData: Hex };

/** What one call gave: its first word, or why there is none (reverted, out of gas; answered something that is not one word). */
export type BoundedAnswer = { outcome: 'answered'; word: bigint } | { outcome: 'reverted' } | { outcome: 'not_a_word' };

const OUTCOMES = ['answered', 'reverted', 'not_a_word', 'not_run'] as const;
const BYTECODE = BoundedBalances.bytecode as Hex;
const ABI = BoundedBalances.abi;

/** The eth_call's gas cap left no room for a single call: the node's settings, not any contract, are at fault. */
export class GasCapTooLow extends Error {
  override readonly name = 'GasCapTooLow';
}

/**
 * Runs `calls` through contracts/BoundedBalances.sol as one deployless eth_call (no `to`: the
 * node runs its constructor, which makes the calls and returns the answers), so no aggregator
 * has to exist on the chain. Calls the node's gas cap did not leave room for are asked again in
 * a further eth_call, until each has its answer.
 */
export async function readBoundedBalances(client: PublicClient, calls: readonly BoundedCall[], blockNumber: bigint | undefined): Promise<BoundedAnswer[]> {
  const answers = new Array<BoundedAnswer | undefined>(calls.length);
  let waiting = calls.map((_, index) => index);
  while (waiting.length > 0) {
    const data = encodeDeployData({
      abi: ABI,
      bytecode: BYTECODE,
      args: [waiting.map((index) => calls[index]!.target), waiting.map((index) => calls[index]!.callData), GAS_PER_CALL],
    });
    const { data: returned } = await client.call({ data, blockNumber });
    const [words, outcomes] = decodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint8[]' }], returned ?? '0x');
    const notRun: number[] = [];
    waiting.forEach((index, position) => {
      const outcome = OUTCOMES[outcomes[position] ?? 3] ?? 'not_run';
      if (outcome === 'not_run') notRun.push(index);
      else answers[index] = outcome === 'answered' ? { outcome, word: words[position] ?? 0n } : { outcome };
    });
    if (notRun.length === waiting.length) throw new GasCapTooLow(`the node's eth_call gas cap is below one read's ${GAS_PER_CALL} gas`);
    waiting = notRun;
  }
  return answers as BoundedAnswer[];
}
