// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorContradictionsStep} from "./PorContradictionsStep.sol";

/// @title PorContradictionsMerge: the second half of the `contradictions` executor
/// (SPEC §14.8), a stateless contract `PorContradictionsExec` deploys, so that neither
/// passes the 24 576-byte code limit. `recompute` is called only by the executor, on a
/// proof whose steps 1-6 of SPEC §10.5 held (every part verified, every step record
/// valid, a `contradictions` step) and whose PromptSpec leaf passed the §2 reader, with
/// the offsets the re-execution reads in one flat list (`PorContradictionsExec.offsets`,
/// no nested array to encode): it runs `PorContradictionsStep.recomputeAt`.
contract PorContradictionsMerge {
    function recompute(bytes calldata d, uint256[] calldata w) external pure returns (bool, bytes32) {
        return PorContradictionsStep.recomputeAt(d, w);
    }
}
