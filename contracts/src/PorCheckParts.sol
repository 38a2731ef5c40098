// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorInclusion} from "./PorInclusion.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";

/// @title PorCheckParts: the verified parts handed from an executor to the contract holding
/// its kind's re-execution (EIP-170 splits `check_requirement` and `contradictions` in
/// two): each part's leaf offset and length, all the re-execution reads of a part, so the
/// second contract neither parses the proof's parts again nor receives their structures.
library PorCheckParts {
    /// Each part's leaf offset and length, in pairs, in `parts.all`'s order.
    function pack(PorOneStepCheck.Parts memory parts) internal pure returns (uint256[] memory leaves) {
        uint256 n = parts.all.length;
        leaves = new uint256[](2 * n);
        for (uint256 i = 0; i < n; i++) {
            (leaves[2 * i], leaves[2 * i + 1]) = (parts.all[i].leaf, parts.all[i].leafLength);
        }
    }

    /// `pack`'s pairs back as parts (leaves only; `evidenceCount` the carried items, the
    /// rest after the step and the PromptSpec are prior steps).
    function unpack(uint256[] calldata leaves, uint256 evidenceCount)
        internal
        pure
        returns (PorOneStepCheck.Parts memory parts)
    {
        uint256 n = leaves.length / 2;
        parts.all = new PorInclusion.Part[](n);
        for (uint256 i = 0; i < n; i++) {
            (parts.all[i].leaf, parts.all[i].leafLength) = (leaves[2 * i], leaves[2 * i + 1]);
        }
        (parts.evidenceCount, parts.priorCount) = (evidenceCount, n - 2 - evidenceCount);
    }
}
