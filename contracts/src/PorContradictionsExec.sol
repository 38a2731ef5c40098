// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCborTop} from "./PorCborTop.sol";
import {PorContradictionsStep} from "./PorContradictionsStep.sol";
import {PorContradictionsMerge} from "./PorContradictionsMerge.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorIds} from "./PorIds.sol";

/// @title PorContradictionsExec: the stateless executor of the `contradictions` step kind
/// (SPEC §14.8, §12.5.5). `PorOneStepCheck`'s common part runs here (with the PromptSpec
/// leaf's §2 check); the re-execution itself runs in `PorContradictionsMerge`, which the
/// constructor deploys (the two together pass the 24 576-byte code limit), on the parts
/// verified here. Any other kind reverts `CourtPath(kind)`.
contract PorContradictionsExec {
    bytes32 public constant KIND = PorIds.CONTRADICTIONS;
    /// The second half, deployed by the constructor (no storage: an immutable).
    PorContradictionsMerge public immutable merge;

    constructor() {
        merge = new PorContradictionsMerge();
    }

    /// A por.OneStepProof/1 whose bytes passed the §2 reader (the router runs it).
    /// `PorOneStepCheck.checkKind`, its PromptSpec §2 check run here by
    /// `PorCborTop.checkTop`, which keeps the leaf's top-level offsets: the two fields read
    /// are found among them (`topKept`) without a walk.
    function execute(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot) {
        PorOneStepCheck.Parts memory parts;
        uint256[][] memory records;
        uint256[] memory at;
        bytes32 kind;
        (won, checkId, porRoot, parts, records, at, kind) = PorOneStepCheck.checkUpTo(proof);
        if (checkId != 0) return (won, checkId, porRoot);
        if (kind != KIND) revert PorOneStepCheck.CourtPath(kind);
        uint256 spec = parts.all[1].leaf;
        (bytes32 err,, uint256[] memory kept,) = PorCborTop.checkTop(proof[spec:spec + parts.all[1].leafLength]);
        if (err != 0) return (true, PorIds.INVALID_RECORD, porRoot);
        // a PromptSpec of more top-level items than the reader keeps: its map walked
        uint256[] memory top =
            kept.length == 0 ? PorContradictionsStep.topWalked(proof, spec) : topKept(proof, spec, kept);
        (won, checkId) = recompute(proof, offsets(parts, records, at, top));
    }

    /// `PorContradictionsMerge`'s run on `proof` and the offsets `w`, its call data
    /// written here without the ABI (the length of `w`, its words, then the proof's
    /// bytes: what the merge reads), past the free memory pointer; a revert passed on.
    function recompute(bytes calldata proof, uint256[] memory w) private view returns (bool won, bytes32 checkId) {
        address to = address(merge);
        assembly ("memory-safe") {
            let buf := mload(0x40)
            let size := shl(5, add(mload(w), 1))
            mcopy(buf, w, size)
            calldatacopy(add(buf, size), proof.offset, proof.length)
            if iszero(staticcall(gas(), to, buf, add(size, proof.length), 0, 64)) {
                returndatacopy(0, 0, returndatasize())
                revert(0, returndatasize())
            }
            won := mload(0)
            checkId := mload(32)
        }
    }

    /// `PorContradictionsStep.TOP_KEYS`' values (`conflict_policy`, `data_requirements`;
    /// absolute offsets, 0: absent) among the top-level items `kept` by the §2 pass of
    /// the PromptSpec leaf at `spec` (keys at even places, each value after its key), in
    /// one pass: the keys are unique and in §2 order, `data_requirements` after
    /// `conflict_policy`, so the pass ends at it.
    function topKept(bytes calldata proof, uint256 spec, uint256[] memory kept)
        private
        pure
        returns (uint256[] memory top)
    {
        top = new uint256[](2);
        assembly ("memory-safe") {
            let cbase := add(proof.offset, spec)
            let last := add(kept, shl(5, mload(kept)))
            // "\x6fconflict_policy" (16 bytes), "\x71data_requirements" (18 bytes), left-aligned
            let maskPolicy := not(shr(128, not(0)))
            let maskReqs := not(shr(144, not(0)))
            let policy := 0x6f636f6e666c6963745f706f6c69637900000000000000000000000000000000
            let reqs := 0x71646174615f726571756972656d656e74730000000000000000000000000000
            for { let o := add(kept, 32) } lt(o, last) { o := add(o, 64) } {
                let w := calldataload(add(cbase, mload(o)))
                if eq(and(w, maskPolicy), policy) { mstore(add(top, 32), add(spec, mload(add(o, 32)))) }
                if eq(and(w, maskReqs), reqs) {
                    mstore(add(top, 64), add(spec, mload(add(o, 32))))
                    break
                }
            }
        }
    }

    /// Every offset the re-execution reads, absolute in the proof, in one flat list
    /// (`PorContradictionsStep.recomputeAt`'s `w`): the step's evidence, description and
    /// output values, the PromptSpec's `conflict_policy` and `data_requirements` values
    /// (0: absent), then per cited step its inputs, step_type and output values.
    function offsets(PorOneStepCheck.Parts memory parts, uint256[][] memory records, uint256[] memory at, uint256[] memory top)
        private
        pure
        returns (uint256[] memory w)
    {
        unchecked {
            uint256 first = 2 + parts.evidenceCount;
            uint256 n = parts.priorCount;
            w = new uint256[](5 + 3 * n);
            uint256 step = parts.all[0].leaf;
            (w[0], w[1], w[2]) =
                (step + at[PorRecords.STEP_EVIDENCE], step + at[PorRecords.STEP_DESCRIPTION], step + at[PorRecords.STEP_OUTPUT]);
            (w[3], w[4]) = (top[0], top[1]);
            for (uint256 k = 0; k < n; k++) {
                uint256 b = parts.all[first + k].leaf;
                uint256[] memory rec = records[first + k];
                (w[5 + 3 * k], w[6 + 3 * k], w[7 + 3 * k]) =
                    (b + rec[PorRecords.STEP_INPUTS], b + rec[PorRecords.STEP_TYPE], b + rec[PorRecords.STEP_OUTPUT]);
            }
        }
    }
}
