/**
 * The on-chain check of one allowlist version, ready to paste into a mint contract: the root
 * filled in, and the leaf hashed as OpenZeppelin's StandardMerkleTree hashes ["address","uint256"]
 * (twice, so no leaf can pass for an inner node) — the same expression as
 * packages/chain/contracts/AllowlistMint.sol, which the chain tests mint with on anvil.
 */
export function soliditySnippet(allowlist: { slug: string; quantityPerWinner: number }, version: { version: number; root: string; count: number }): string {
  return `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";

/// The allowlist of raffle ${allowlist.slug}, version ${version.version}: ${version.count} ${version.count === 1 ? 'wallet' : 'wallets'}, ${allowlist.quantityPerWinner} each.
contract RaffleAllowlist {
    bytes32 public allowlistRoot = ${version.root};

    /// Whether (wallet, quantity) is a leaf of the allowlist, by the proof the raffle serves for it.
    function isAllowed(address wallet, uint256 quantity, bytes32[] calldata proof) public view returns (bool) {
        bytes32 leaf = keccak256(bytes.concat(keccak256(abi.encode(wallet, quantity))));
        return MerkleProof.verifyCalldata(proof, allowlistRoot, leaf);
    }
}
`;
}
