// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Reads many `balanceOf` answers in one eth_call without being deployed anywhere: an eth_call with
/// no `to` runs init code, so the constructor does the reads and returns its answer in place of
/// runtime code. Unlike Multicall3's aggregate3, one token contract cannot fail the other reads:
/// each call gets at most `gasPerCall` gas and at most 32 bytes of its return data are ever copied
/// (a contract that burns its gas or returns megabytes spends only its own budget), and a call is
/// never started with less than its full budget left (it is reported NOT_RUN and asked again).
contract BoundedBalances {
    uint8 internal constant ANSWERED = 0;
    uint8 internal constant REVERTED = 1;
    uint8 internal constant NOT_A_WORD = 2;
    uint8 internal constant NOT_RUN = 3;

    /// What this frame needs after the last call: encoding and returning the answer.
    uint256 internal constant RESERVE = 60_000;

    constructor(address[] memory targets, bytes[] memory calls, uint256 gasPerCall) {
        uint256 count = targets.length;
        uint256[] memory values = new uint256[](count);
        uint8[] memory outcomes = new uint8[](count);
        bool outOfBudget = false;
        for (uint256 i = 0; i < count; ++i) {
            if (outOfBudget || gasleft() < gasPerCall + gasPerCall / 63 + RESERVE) {
                outOfBudget = true;
                outcomes[i] = NOT_RUN;
                continue;
            }
            (outcomes[i], values[i]) = boundedCall(targets[i], calls[i], gasPerCall);
        }
        bytes memory answer = abi.encode(values, outcomes);
        assembly {
            return(add(answer, 0x20), mload(answer))
        }
    }

    /// One call with its gas capped and only its first word copied; the outcome says whether it was a balance.
    function boundedCall(address target, bytes memory data, uint256 gasPerCall) private returns (uint8 outcome, uint256 word) {
        bool success;
        uint256 size;
        assembly {
            let out := mload(0x40)
            mstore(out, 0)
            success := call(gasPerCall, target, 0, add(data, 0x20), mload(data), out, 0x20)
            size := returndatasize()
            word := mload(out)
        }
        if (!success) return (REVERTED, 0);
        if (size != 32) return (NOT_A_WORD, 0);
        return (ANSWERED, word);
    }
}
