// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";

// An ERC-721 whose winners mint with a Merkle proof of (wallet, quantity) against the published
// allowlist root. The leaf is @openzeppelin/merkle-tree's StandardMerkleTree leaf for
// ["address","uint256"]: keccak256(bytes.concat(keccak256(abi.encode(wallet, quantity)))), so a
// raffle's published tree and proofs work here unchanged.
contract AllowlistMint is ERC721, Ownable {
    /// The root winners prove against; replaced when a reroll publishes a new version.
    bytes32 public allowlistRoot;
    /// 1 for the root set at deploy, +1 for each root the owner sets after.
    uint256 public allowlistVersion;
    /// Token ids are minted in order from 1.
    uint256 public totalMinted;
    /// Each wallet mints once, whatever the root version (a winner kept by a reroll cannot mint twice).
    mapping(address => bool) public hasMinted;

    event AllowlistRootSet(uint256 indexed version, bytes32 root);

    error NotOnAllowlist(address wallet, uint256 quantity);
    error AlreadyMinted(address wallet);

    constructor(string memory name_, string memory symbol_, bytes32 root_) ERC721(name_, symbol_) Ownable(msg.sender) {
        _setAllowlistRoot(root_);
    }

    /// A reroll after finalize publishes a new root: proofs not in the new tree stop working.
    function setAllowlistRoot(bytes32 root_) external onlyOwner {
        _setAllowlistRoot(root_);
    }

    /// Whether `proof` shows (wallet, quantity) is a leaf of the current root (minted or not).
    function isAllowed(address wallet, uint256 quantity, bytes32[] calldata proof) public view returns (bool) {
        return MerkleProof.verifyCalldata(proof, allowlistRoot, _leaf(wallet, quantity));
    }

    /// Mints `quantity` tokens to the caller, once, with the caller's proof of (caller, quantity).
    function mint(uint256 quantity, bytes32[] calldata proof) external {
        if (hasMinted[msg.sender]) revert AlreadyMinted(msg.sender);
        if (!isAllowed(msg.sender, quantity, proof)) revert NotOnAllowlist(msg.sender, quantity);
        hasMinted[msg.sender] = true;
        uint256 next = totalMinted;
        totalMinted = next + quantity;
        // _mint, not _safeMint: the caller minted for itself, and a contract caller needs no receiver hook.
        for (uint256 i = 1; i <= quantity; i++) _mint(msg.sender, next + i);
    }

    function _setAllowlistRoot(bytes32 root_) private {
        allowlistRoot = root_;
        allowlistVersion += 1;
        emit AllowlistRootSet(allowlistVersion, root_);
    }

    function _leaf(address wallet, uint256 quantity) private pure returns (bytes32) {
        return keccak256(bytes.concat(keccak256(abi.encode(wallet, quantity))));
    }
}
