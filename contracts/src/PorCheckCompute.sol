// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCheckParts} from "./PorCheckParts.sol";
import {PorCheckSpec} from "./PorCheckSpec.sol";
import {PorCheckStep} from "./PorCheckStep.sol";

/// @title PorCheckCompute: the `check_requirement` chunk's re-execution (SPEC §12.5.3) on
/// parts `PorCheckExec` verified. It holds no state and trusts its caller's parts: only
/// the executor that deployed it calls it (an answer to anyone else proves nothing).
contract PorCheckCompute {
    /// `packed`: `PorCheckParts.call`'s array (the parts' leaves, the step's and the
    /// carried records' value offsets, the PromptSpec as read).
    function run(bytes calldata proof, uint256[] calldata packed) external pure returns (bool won, bytes32 checkId) {
        (
            uint256[] memory leaves,
            uint256 evidenceCount,
            uint256[][] memory records,
            uint256[] memory at,
            PorCheckSpec.Spec memory spec
        ) = PorCheckParts.unpack(packed);
        return PorCheckStep.executeWith(proof, leaves, evidenceCount, records, at, spec);
    }
}
