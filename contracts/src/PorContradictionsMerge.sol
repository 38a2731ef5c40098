// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorContradictionsStep} from "./PorContradictionsStep.sol";

/// @title PorContradictionsMerge: the second half of the `contradictions` executor
/// (SPEC §14.8), a stateless contract `PorContradictionsExec` deploys, so that neither
/// passes the 24 576-byte code limit. `recompute` is called only by the executor, on a
/// proof whose steps 1-6 of SPEC §10.5 held (every part verified, every step record
/// valid, a `contradictions` step) and whose PromptSpec leaf passed the §2 reader, with
/// the offsets the re-execution reads in one flat list (`PorContradictionsExec.offsets`),
/// without the ABI: the call data is the list's length `n` (one word), its `n` words,
/// then the proof's bytes to the end (`PorContradictionsExec.recompute` writes it); it
/// runs `PorContradictionsStep.recomputeAt` and returns (won, check id) as two words.
contract PorContradictionsMerge {
    fallback() external {
        uint256[] calldata w;
        bytes calldata d;
        assembly ("memory-safe") {
            let n := calldataload(0)
            let start := add(32, shl(5, n))
            // a list longer than the call data (or an empty call): nothing to run
            if or(lt(calldatasize(), 32), or(gt(n, 0xffff), gt(start, calldatasize()))) { revert(0, 0) }
            w.offset := 32
            w.length := n
            d.offset := start
            d.length := sub(calldatasize(), start)
        }
        (bool won, bytes32 checkId) = PorContradictionsStep.recomputeAt(d, w);
        assembly ("memory-safe") {
            mstore(0, won)
            mstore(32, checkId)
            return(0, 64)
        }
    }
}
