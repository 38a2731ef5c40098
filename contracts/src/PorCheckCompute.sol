// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCheckParts} from "./PorCheckParts.sol";
import {PorCheckSpec} from "./PorCheckSpec.sol";
import {PorCheckStep} from "./PorCheckStep.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";

/// @title PorCheckCompute: the `check_requirement` chunk's re-execution (SPEC §12.5.3) on
/// parts `PorCheckExec` verified. It holds no state and trusts its caller's parts: only
/// the executor that deployed it calls it (an answer to anyone else proves nothing).
contract PorCheckCompute {
    /// `w`: `PorCheckParts.pack`'s flat list of words (the parts' leaves, the step's and the
    /// carried records' value offsets).
    function run(bytes calldata proof, bytes calldata w, PorCheckSpec.Spec memory spec)
        external
        pure
        returns (bool won, bytes32 checkId)
    {
        (PorOneStepCheck.Parts memory parts, uint256[][] memory records, uint256[] memory at) = PorCheckParts.unpack(w);
        return PorCheckStep.executeWith(proof, parts, records, at, spec);
    }
}
