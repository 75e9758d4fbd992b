// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A read aggregator with Multicall3's `aggregate3` interface, which viem and the chain reader
/// call: each call runs in turn; a failing call stops everything unless it allows failure, in which
/// case its (false, revert data) is returned. The local chain places it at the canonical
/// Multicall3 address so the reader works there unchanged.
contract Aggregate {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    error CallFailed(uint256 index);

    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; ++i) {
            (bool success, bytes memory returnData) = calls[i].target.call(calls[i].callData);
            if (!success && !calls[i].allowFailure) revert CallFailed(i);
            results[i] = Result(success, returnData);
        }
    }

    function getEthBalance(address account) external view returns (uint256) {
        return account.balance;
    }

    function getBlockNumber() external view returns (uint256) {
        return block.number;
    }
}
