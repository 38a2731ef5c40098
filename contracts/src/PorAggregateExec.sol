// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorAggregateRead as R} from "./PorAggregateRead.sol";
import {PorAggregateStep} from "./PorAggregateStep.sol";
import {PorAggregateWire as W} from "./PorAggregateWire.sol";
import {PorCbor} from "./PorCbor.sol";
import {PorCborTop} from "./PorCborTop.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";
import {PorIds} from "./PorIds.sol";
import {PorRecords} from "./PorRecords.sol";

/// @title PorAggregateSelector: the selection applied and the step compared
/// (`PorAggregateStep.decide`); what the reader read arrives as `PorAggregateWire`'s words.
contract PorAggregateSelector {
    function decide(bytes calldata d, uint256 description, uint256 output, uint256 rid, bytes calldata read)
        external
        pure
        returns (bool, bytes32)
    {
        (R.Spec memory s, R.Item[] memory its, R.Chunk memory c) = W.unpack(read);
        return PorAggregateStep.decide(d, description, output, rid, s, its, c);
    }
}

/// @title PorAggregateReader: what an aggregate step reads (`PorAggregateStep.read`), then
/// the selector's answer.
contract PorAggregateReader {
    PorAggregateSelector public immutable SELECTOR;

    constructor() {
        SELECTOR = new PorAggregateSelector();
    }

    function run(bytes calldata d, bytes calldata handed) external view returns (bool, bytes32) {
        (R.Leaves memory parts, uint256[][] memory records, uint256[] memory at, uint256[] memory top) =
            W.takeOver(handed);
        return ask(d, parts, records, at, top);
    }

    function ask(
        bytes calldata d,
        R.Leaves memory parts,
        uint256[][] memory records,
        uint256[] memory at,
        uint256[] memory top
    ) private view returns (bool, bytes32) {
        (bytes32 fault, R.Spec memory s, R.Item[] memory its, R.Chunk memory c, uint256 rid) =
            PorAggregateStep.read(d, parts, records, at, top);
        if (fault != 0) return (true, fault);
        uint256 base = parts.at[0];
        return
            decide(d, base + at[PorRecords.STEP_DESCRIPTION], base + at[PorRecords.STEP_OUTPUT], rid, s, its, c);
    }

    /// SELECTOR.decide(d, description, output, rid, the words of s, its and c): its call data
    /// written once (`PorAggregateWire.begin`, `pack`, `finish`).
    function decide(
        bytes calldata d,
        uint256 description,
        uint256 output,
        uint256 rid,
        R.Spec memory s,
        R.Item[] memory its,
        R.Chunk memory c
    ) private view returns (bool, bytes32) {
        (uint256 m, uint256 q) = W.begin(PorAggregateSelector.decide.selector, d, 5);
        assembly ("memory-safe") {
            mstore(add(m, 36), description)
            mstore(add(m, 68), output)
            mstore(add(m, 100), rid)
        }
        return W.finish(address(SELECTOR), m, q, W.pack(q + 32, s, its, c));
    }
}

/// @title PorAggregateExec: a por.OneStepProof/1 of an `aggregate` step decided on chain
/// (SPEC §10.5, §12.5.4, §14.8). Stateless. The aggregate's code does not fit one contract
/// beside `PorOneStepCheck`'s common part (24 576 bytes), so it lives in two contracts
/// created by this one's constructor (reader, then selector) and called read-only:
/// deploying this artifact is all.
contract PorAggregateExec {
    bytes32 public constant KIND = PorIds.AGGREGATE;
    PorAggregateReader public immutable READER;

    constructor() {
        READER = new PorAggregateReader();
    }

    /// A por.OneStepProof/1 whose bytes passed the §2 reader (the router runs it):
    /// (won, check id, por_root); another step kind reverts `CourtPath(kind)`.
    function execute(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot) {
        return PorOneStepCheck.checkWith(proof, run);
    }

    function run(
        bytes calldata d,
        PorOneStepCheck.Parts memory parts,
        uint256[][] memory records,
        uint256[] memory at,
        bytes32 kind
    ) internal view returns (bool, bytes32) {
        if (kind != KIND) revert PorOneStepCheck.CourtPath(kind);
        // the PromptSpec's §2 check (`PorOneStepCheck.specIsCbor`'s pass), keeping where its
        // top-level items start: its fields are read without walking past the others
        (bytes32 err,, uint256[] memory top,) = PorCborTop.checkTop(PorOneStepCheck.leafOf(d, parts.all[1]));
        if (err != 0) return (true, PorAggregateStep.INVALID_RECORD);
        // the reader gets the parts' leaf offsets only (`R.Leaves`), not the parts, as words
        // run(d, the words): written once
        (uint256 m, uint256 q) = W.begin(PorAggregateReader.run.selector, d, 2);
        uint256 end = W.handOver(parts.all, parts.evidenceCount, parts.priorCount, records, at, top, q + 32);
        return W.finish(address(READER), m, q, end);
    }
}
