// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCheckParts} from "./PorCheckParts.sol";
import {PorContradictionsStep} from "./PorContradictionsStep.sol";

/// @title PorContradictionsMerge: the second half of the `contradictions` executor
/// (SPEC §14.8), a stateless contract `PorContradictionsExec` deploys, so that neither
/// passes the 24 576-byte code limit. `recompute` is called only by the executor, on a
/// proof whose steps 1-6 of SPEC §10.5 held (every part verified, every step record
/// valid, a `contradictions` step) and whose PromptSpec leaf passed the §2 reader, with
/// the parts' leaves (`PorCheckParts.pack`), the carried records' and the step's value
/// offsets as the executor read them, and the PromptSpec's top-level values it reads
/// (`PorCheckKeys.topValues`): it runs `PorContradictionsStep.recomputeAt`.
contract PorContradictionsMerge {
    function recompute(
        bytes calldata d,
        uint256[] calldata leaves,
        uint256 evidenceCount,
        uint256[][] memory records,
        uint256[] memory at,
        uint256[] memory top
    ) external pure returns (bool, bytes32) {
        return PorContradictionsStep.recomputeAt(d, PorCheckParts.unpack(leaves, evidenceCount), records, at, top);
    }
}
