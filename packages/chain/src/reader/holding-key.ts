import type { HoldingQuery } from '../types.js';

/** One asset of one wallet, spelled the same whatever the address's letter case. */
export function holdingKey(query: HoldingQuery): string {
  const wallet = query.wallet.toLowerCase();
  switch (query.kind) {
    case 'native':
      return `native::${wallet}`;
    case 'erc1155':
      return `erc1155:${query.contract.toLowerCase()}:${query.tokenId}:${wallet}`;
    default:
      return `${query.kind}:${query.contract.toLowerCase()}:${wallet}`;
  }
}

export function blockKey(block: bigint | 'latest'): string {
  return typeof block === 'bigint' ? block.toString() : block;
}
