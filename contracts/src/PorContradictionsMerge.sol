// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorContradictionsStep} from "./PorContradictionsStep.sol";
import {PorInclusion} from "./PorInclusion.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";
import {PorRecords} from "./PorRecords.sol";

/// @title PorContradictionsMerge: the second half of the `contradictions` executor
/// (SPEC §14.8), a stateless contract `PorContradictionsExec` deploys, so that neither
/// passes the 24 576-byte code limit. `recompute` is called only by the executor, on a
/// proof whose steps 1-6 of SPEC §10.5 held (every part verified, every step record
/// valid, a `contradictions` step carrying no item): it finds the parts again and runs
/// `PorContradictionsStep.recompute`.
contract PorContradictionsMerge {
    // OneStepProof fields (PorOneStepCheck.KEYS order): step 1, prior_steps 5, prompt_spec 6.
    uint256 private constant F_STEP = 1;
    uint256 private constant F_PRIOR = 5;
    uint256 private constant F_SPEC = 6;

    function recompute(bytes calldata d) external pure returns (bool, bytes32) {
        (, uint256[] memory keys) = PorRecords.fields(d, 0, PorOneStepCheck.KEYS);
        (, uint256 np, uint256 p) = PorCbor.container(d, keys[F_PRIOR], PorCbor.ARRAY);
        PorOneStepCheck.Parts memory parts;
        parts.priorCount = np;
        parts.all = new PorInclusion.Part[](2 + np);
        (, parts.all[0]) = PorInclusion.parse(d, keys[F_STEP]);
        (, parts.all[1]) = PorInclusion.parse(d, keys[F_SPEC]);
        uint256[][] memory records = new uint256[][](2 + np);
        for (uint256 i = 0; i < np; i++) {
            (, parts.all[2 + i]) = PorInclusion.parse(d, p);
            p = parts.all[2 + i].end;
            records[2 + i] = offsets(d, parts.all[2 + i]);
        }
        return PorContradictionsStep.recompute(d, parts, records, offsets(d, parts.all[0]));
    }

    /// A valid step record's value offsets in its leaf.
    function offsets(bytes calldata d, PorInclusion.Part memory part) private pure returns (uint256[] memory at) {
        (, at) = PorRecords.fields(d[part.leaf:part.leaf + part.leafLength], 0, PorRecords.STEP_KEYS);
    }
}
