import { encodeFunctionData, erc1155Abi, erc20Abi, type Hex } from 'viem';
import type { Address, HoldingQuery } from '../types.js';
import type { BoundedAnswer } from './bounded-balances.js';

type ContractQuery = Exclude<HoldingQuery, { kind: 'native' }>;

/** The call of a holding: `balanceOf(wallet)` (ERC-20 and ERC-721 share it) or `balanceOf(wallet, id)`. */
export function balanceCall(query: ContractQuery): { target: Address; callData: Hex } {
  const callData =
    query.kind === 'erc1155'
      ? encodeFunctionData({ abi: erc1155Abi, functionName: 'balanceOf', args: [query.wallet, query.tokenId] })
      : encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [query.wallet] });
  return { target: query.contract, callData };
}

/**
 * The balance a call answered. A call that reverted or ran out of its gas, or answered nothing (no
 * contract there) or something that is not one uint256 word (another standard), holds nothing:
 * 0n, the same as an empty wallet — a requirement on a wrong or hostile address fails plainly
 * for its own raffle instead of blocking every entry.
 */
export function balanceOf(answer: BoundedAnswer): bigint {
  return answer.outcome === 'answered' ? answer.word : 0n;
}
