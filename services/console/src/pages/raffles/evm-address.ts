import { getAddress } from 'viem';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * What is wrong with an address as typed (a contract's, unless `what` names another kind), or
 * null. EIP-55: an address in one case carries no checksum and is taken as is; in mixed case its
 * capitals are a checksum, and a typo in it is caught here rather than gating a raffle on a
 * contract nobody deployed, or reading as a wallet that is not on an allowlist.
 */
export function addressProblem(value: string, what = 'A contract address'): string | null {
  if (!ADDRESS.test(value)) return `${what} is 0x followed by 40 hexadecimal digits.`;
  const hex = value.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return null;
  return getAddress(value) === value ? null : 'This address fails its EIP-55 checksum (its mixed case): check it for a typo, or paste it again from the explorer.';
}
