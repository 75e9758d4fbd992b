import { decodeFunctionResult, encodeFunctionData, erc1155Abi, erc20Abi, type Hex } from 'viem';
import type { Address, HoldingQuery } from '../types.js';

type ContractQuery = Exclude<HoldingQuery, { kind: 'native' }>;

/** One aggregate3 call of a holding: `balanceOf(wallet)` (ERC-20 and ERC-721 share it) or `balanceOf(wallet, id)`. */
export function balanceCall(query: ContractQuery): { target: Address; allowFailure: true; callData: Hex } {
  const callData =
    query.kind === 'erc1155'
      ? encodeFunctionData({ abi: erc1155Abi, functionName: 'balanceOf', args: [query.wallet, query.tokenId] })
      : encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [query.wallet] });
  return { target: query.contract, allowFailure: true, callData };
}

/**
 * The balance a call answered. A call that reverted, or answered nothing (no contract there) or
 * something that is not a uint256 (another standard), holds nothing: 0n, the same as an empty wallet —
 * a requirement on a wrong address fails plainly instead of blocking every entry.
 */
export function balanceOf(result: { success: boolean; returnData: Hex }): bigint {
  if (!result.success || result.returnData.length !== 2 + 64) return 0n;
  try {
    return decodeFunctionResult({ abi: erc20Abi, functionName: 'balanceOf', data: result.returnData });
  } catch {
    return 0n;
  }
}
