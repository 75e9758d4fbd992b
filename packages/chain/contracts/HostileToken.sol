// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A token whose `balanceOf` misbehaves in one of the ways a tenant could name as a gate, so tests
/// can show that its reads fail alone: answers ~2 MB, burns all the gas it is given, reverts, or
/// answers a few bytes that are not a uint256.
contract HostileToken {
    enum Mode {
        HugeReturn,
        GasBurner,
        Reverts,
        Garbage
    }

    Mode public immutable mode;

    constructor(Mode mode_) {
        mode = mode_;
    }

    function balanceOf(address) external view returns (uint256) {
        if (mode == Mode.HugeReturn) {
            assembly {
                return(0, 2000000)
            }
        }
        if (mode == Mode.GasBurner) {
            uint256 spin = 0;
            while (gasleft() > 0) spin += 1;
            return spin;
        }
        if (mode == Mode.Reverts) revert("no balances here");
        assembly {
            mstore(0, "garbage")
            return(0, 7)
        }
    }
}
