// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCheckSpec} from "./PorCheckSpec.sol";
import {PorCheckStep} from "./PorCheckStep.sol";
import {PorInclusion} from "./PorInclusion.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";

/// @title PorCheckCompute: the `check_requirement` chunk's re-execution (SPEC §12.5.3) on
/// parts `PorCheckExec` verified. It holds no state and trusts its caller's parts: only
/// the executor that deployed it calls it (an answer to anyone else proves nothing).
contract PorCheckCompute {
    /// `leaves`: each part's leaf offset and length, in pairs (all the re-execution reads
    /// of a part); `evidenceCount` the carried items.
    function run(
        bytes calldata proof,
        uint256[] calldata leaves,
        uint256 evidenceCount,
        uint256[][] memory records,
        uint256[] memory at,
        PorCheckSpec.Spec memory spec
    ) external pure returns (bool won, bytes32 checkId) {
        PorOneStepCheck.Parts memory parts;
        uint256 n = leaves.length / 2;
        parts.all = new PorInclusion.Part[](n);
        for (uint256 i = 0; i < n; i++) {
            (parts.all[i].leaf, parts.all[i].leafLength) = (leaves[2 * i], leaves[2 * i + 1]);
        }
        (parts.evidenceCount, parts.priorCount) = (evidenceCount, n - 2 - evidenceCount);
        return PorCheckStep.executeWith(proof, parts, records, at, spec);
    }
}
