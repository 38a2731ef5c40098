// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorInclusion} from "./PorInclusion.sol";
import {PorMapStep} from "./PorMapStep.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorIds} from "./PorIds.sol";
import {PorText} from "./PorText.sol";

/// @title PorOneStepCheck: `verify_one_step_proof` (SPEC §10.5) on-chain, for the step
/// kinds the chain re-executes (SPEC §14.8: `map`).
/// @notice Input: the exact bytes of a por.OneStepProof/1 file that `PorCbor.check`
/// accepted. Output: (won, check id, por_root), as `por check-proof` without `--por-root`:
/// won one_step.invalid_record, one_step.id_position, one_step.prior_order,
/// one_step.unexecutable, one_step.mismatch; lost one_step.match; `won` false with a
/// proof.* / merkle.* id for an invalid proof. A step of a kind the chain does not
/// re-execute reverts `CourtPath(keccak256(kind))`: it is disputed with a case (SPEC §16).
library PorOneStepCheck {
    bytes32 internal constant SCHEMA = PorIds.SCHEMA;
    bytes32 internal constant CITATIONS = PorIds.CITATIONS;
    bytes32 internal constant INVALID_RECORD = PorIds.INVALID_RECORD;
    bytes32 internal constant ID_POSITION = PorIds.ID_POSITION;
    bytes32 internal constant PRIOR_ORDER = PorIds.PRIOR_ORDER;
    bytes32 internal constant UNEXECUTABLE = PorIds.UNEXECUTABLE;

    /// A step kind (inputs.kind) the chain does not re-execute: the court decides it.
    error CourtPath(bytes32 kind);

    /// OneStepProof fields, canonical order.
    bytes internal constant KEYS =
        "\x04kind\x04step\x06schema\x08evidence\x08por_root\x0bprior_steps\x0bprompt_spec\x0cchallenge_id";
    uint256 private constant F_KIND = 0;
    uint256 private constant F_STEP = 1;
    uint256 private constant F_SCHEMA = 2;
    uint256 private constant F_EVIDENCE = 3;
    uint256 private constant F_ROOT = 4;
    uint256 private constant F_PRIOR = 5;
    uint256 private constant F_SPEC = 6;
    uint256 private constant F_ID = 7;

    /// False: a one-step proof carries one item per cited evidence id, whatever the step
    /// (SPEC §10.2.3 as of this build). True: only an extract step's proof carries items
    /// (ADR 0011 stage 2, `carried_evidence`); set it when that rule is SPEC's.
    bool internal constant ITEMS_FOR_EXTRACT_ONLY = true;

    /// The parts in SPEC §10.5's order: the step, the PromptSpec, the evidence, the prior
    /// steps.
    struct Parts {
        PorInclusion.Part[] all;
        uint256 evidenceCount;
        uint256 priorCount;
        /// The PromptSpec leaf's §2 check (`specIsCbor`): 0 not run yet, 1 passed, 2 failed.
        uint256 specChecked;
    }

    /// `d` is a por-cbor/1 document (checked by the caller) whose schema is
    /// por.OneStepProof/1; the `map` kind re-executed (SPEC §14.8).
    function check(bytes calldata d) internal view returns (bool won, bytes32 id, bytes32 porRoot) {
        return checkWith(d, executeMap);
    }

    /// `check` with the kind re-execution `exec` (see `executeMap` for its contract; a
    /// `pure` one converts to this `view` type, and a `view` one may call the contracts
    /// holding a kind's code when it does not fit beside this common part).
    function checkWith(
        bytes calldata d,
        function(bytes calldata, Parts memory, uint256[][] memory, uint256[] memory, bytes32)
            internal view returns (bool, bytes32) exec
    ) internal view returns (bool won, bytes32 id, bytes32 porRoot) {
        Parts memory parts;
        (id, porRoot, parts) = verifyParts(d);
        if (id != 0) return (false, id, porRoot);
        (won, id) = decide(d, parts, exec);
    }

    /// Steps 4-7 of SPEC §10.5 on verified parts.
    function decide(
        bytes calldata d,
        Parts memory parts,
        function(bytes calldata, Parts memory, uint256[][] memory, uint256[] memory, bytes32)
            internal view returns (bool, bytes32) exec
    ) private view returns (bool, bytes32) {
        (bytes32 fault, bool won, uint256[] memory at, uint256[][] memory records, bytes32 kind) = prepare(d, parts);
        if (fault != 0) return (won, fault);
        return exec(d, parts, records, at, kind);
    }

    /// `checkWith` up to the kind's own re-execution, for an executor whose re-execution
    /// lives in another contract (code size): `id` the first fault's (with `won` and
    /// por_root), else 0 with the verified parts, the carried records' and the step's
    /// value offsets and its computation `kind`, as `checkWith` passes them to `exec`.
    function checkUpTo(bytes calldata d)
        internal
        view
        returns (bool won, bytes32 id, bytes32 porRoot, Parts memory parts, uint256[][] memory records, uint256[] memory at, bytes32 kind)
    {
        (id, porRoot, parts) = verifyParts(d);
        if (id != 0) return (false, id, porRoot, parts, records, at, 0);
        (id, won, at, records, kind) = prepare(d, parts);
    }

    /// `checkUpTo` for the executor of step kind `want`, with the PromptSpec leaf's §2
    /// check (SPEC §14.8) that every executor reading the PromptSpec runs first: `id` is
    /// non-zero when that decides (the common part's answer, or won
    /// `one_step.invalid_record`); a step of another kind reverts `CourtPath(kind)`.
    function checkKind(bytes calldata d, bytes32 want)
        internal
        view
        returns (bool won, bytes32 id, bytes32 porRoot, Parts memory parts, uint256[][] memory records, uint256[] memory at)
    {
        bytes32 kind;
        (won, id, porRoot, parts, records, at, kind) = checkUpTo(d);
        if (id != 0) return (won, id, porRoot, parts, records, at);
        if (kind != want) revert CourtPath(kind);
        if (!specIsCbor(d, parts)) return (true, INVALID_RECORD, porRoot, parts, records, at);
    }

    /// Steps 1-3 of SPEC §10.5: the schema, every part under por_root in order, then the
    /// proof's own id; (0, por_root, parts) when all hold, else (the proof.* / merkle.* id,
    /// por_root as read, parts).
    function verifyParts(bytes calldata d) private view returns (bytes32, bytes32 porRoot, Parts memory parts) {
        (bool ok, uint256[] memory at, Parts memory walked) = walk(d);
        if (ok) {
            parts = walked;
            ok = typed(d, at);
        } else {
            // the walk met a fault: a key out of place (por_root unread), or a part or
            // list out of shape (por_root read by the field walk)
            (ok, at) = PorRecords.fields(d, 0, KEYS);
            if (!ok) return (SCHEMA, 0, parts);
            ok = false;
        }
        bool rootOk;
        (rootOk, porRoot) = PorCbor.hashAt(d, at[F_ROOT]);
        if (!ok || !rootOk) return (SCHEMA, porRoot, parts);
        for (uint256 i = 0; i < parts.all.length; i++) {
            bytes32 err = verifyPart(d, parts, i, porRoot);
            if (err != 0) return (err, porRoot, parts);
        }
        (, bytes32 challengeId) = PorCbor.hashAt(d, at[F_ID]);
        if (PorInclusion.bodyHash(d, 0, d.length, at[F_ID]) != challengeId) {
            return (PorInclusion.CHALLENGE_ID, porRoot, parts);
        }
        return (0, porRoot, parts);
    }

    /// Part i verified under `porRoot` (SPEC §10.4.1): a reasoning part after the first
    /// (a prior step) or an evidence part after the first is compared with the last
    /// verified part of its kind, whose component path check it shares when equal.
    function verifyPart(bytes calldata d, Parts memory parts, uint256 i, bytes32 porRoot) private view returns (bytes32) {
        unchecked { // offsets and counts within the calldata: no sum reaches 2^64
            PorInclusion.Part[] memory all = parts.all;
            uint8 want = i == 0 || i > 1 + parts.evidenceCount
                ? PorInclusion.REASONING_LEAF
                : i == 1 ? PorInclusion.PROMPT_SPEC : PorInclusion.EVIDENCE_LEAF;
            bool known;
            if (i > 1) {
                uint256 last = i == 2 + parts.evidenceCount ? 0 : i - 1;
                known = (i > 2 || last == 0) && PorInclusion.sameComponent(d, all[last], all[i]);
            }
            return PorInclusion.verify(d, all[i], want, porRoot, known);
        }
    }

    /// One walk of the proof's map: each field's value offset, each part parsed once
    /// (`PorInclusion.parse`, which gives its end), the other values skipped; ok false at
    /// the first key, part or array out of shape (`verifyParts` then answers by the
    /// field walk and `schema`, whose answer this is whenever ok is true).
    function walk(bytes calldata d) private pure returns (bool ok, uint256[] memory at, Parts memory parts) {
        (bool isMap, uint256 count, uint256 p) = PorCbor.container(d, 0, PorCbor.MAP);
        if (!isMap || count != 8) return (false, at, parts);
        at = new uint256[](8);
        PorInclusion.Part[][4] memory lists; // step, prompt_spec, evidence, prior_steps
        uint256 k = 0;
        bytes memory keys = KEYS; // once: each use of the constant copies it to memory
        for (uint256 i = 0; i < 8; i++) {
            (ok, p, k) = PorRecords.keyIs(d, p, keys, k);
            if (!ok) return (false, at, parts);
            at[i] = p;
            if (i == F_STEP || i == F_SPEC) {
                (ok, lists[i == F_STEP ? 0 : 1], p) = partList(d, p, 1);
            } else if (i == F_EVIDENCE || i == F_PRIOR) {
                (ok, lists[i == F_EVIDENCE ? 2 : 3], p) = partList(d, p, 0);
            } else {
                p = PorCbor.skip(d, p);
            }
            if (!ok) return (false, at, parts);
        }
        (parts.evidenceCount, parts.priorCount) = (lists[2].length, lists[3].length);
        PorInclusion.Part[] memory all = pointers(2 + lists[2].length + lists[3].length);
        assembly ("memory-safe") {
            // the four lists' part pointers, one after the other (`all` holds them all)
            let to := add(all, 32)
            for { let l := 0 } lt(l, 4) { l := add(l, 1) } {
                let list := mload(add(lists, shl(5, l)))
                let end := add(list, shl(5, add(mload(list), 1)))
                for { let from := add(list, 32) } lt(from, end) { from := add(from, 32) } {
                    mstore(to, mload(from))
                    to := add(to, 32)
                }
            }
        }
        parts.all = all;
    }

    /// The InclusionProof part at `p` (`one` 1), or the array of them (`one` 0), each
    /// parsed: (ok, the parts, the offset after them).
    function partList(bytes calldata d, uint256 p, uint256 one)
        private
        pure
        returns (bool ok, PorInclusion.Part[] memory list, uint256 q)
    {
        uint256 n = 1;
        (ok, q) = (true, p);
        if (one == 0) (ok, n, q) = PorCbor.container(d, p, PorCbor.ARRAY);
        list = pointers(ok ? n : 0);
        for (uint256 j = 0; ok && j < n; j++) {
            (ok, list[j]) = PorInclusion.parse(d, q);
            q = list[j].end;
        }
    }

    /// An array of `n` parts whose elements the caller sets (no zeroed part allocated
    /// for each, as `new` would).
    function pointers(uint256 n) private pure returns (PorInclusion.Part[] memory list) {
        assembly ("memory-safe") {
            list := mload(0x40)
            mstore(list, n)
            mstore(0x40, add(list, shl(5, add(n, 1))))
        }
    }

    /// kind, schema and challenge_id typed, evidence and prior_steps arrays.
    function typed(bytes calldata d, uint256[] memory at) private pure returns (bool) {
        (bool idOk,) = PorCbor.hashAt(d, at[F_ID]);
        (bool ev,,) = PorCbor.container(d, at[F_EVIDENCE], PorCbor.ARRAY);
        (bool pr,,) = PorCbor.container(d, at[F_PRIOR], PorCbor.ARRAY);
        return idOk && ev && pr && PorCbor.isText(d, at[F_KIND], "reasoning_leaf")
            && PorCbor.isText(d, at[F_SCHEMA], "por.OneStepProof/1");
    }

    /// The PromptSpec leaf (part 1) passes the §2 reader: what a kind that reads the
    /// PromptSpec checks first (SPEC §14.8 "Reading the PromptSpec on chain"; else won
    /// `one_step.invalid_record`).
    /// Run once per `parts`: the answer is kept in `parts.specChecked` for every later
    /// caller in the same contract.
    function specIsCbor(bytes calldata d, Parts memory parts) internal pure returns (bool) {
        if (parts.specChecked == 0) {
            (uint256 code,) = PorCbor.scan(leafOf(d, parts.all[1]));
            parts.specChecked = code == 0 ? 1 : 2;
        }
        return parts.specChecked == 1;
    }

    function leafOf(bytes calldata d, PorInclusion.Part memory p) internal pure returns (bytes calldata) {
        unchecked { // offsets and counts within the calldata: no sum reaches 2^64
            return d[p.leaf:p.leaf + p.leafLength];
        }
    }

    /// Steps 4-7 up to the kind's own re-execution: (0, -, the step's value offsets, the
    /// carried records' offsets, the computation) or (the id, won) of the first fault.
    function prepare(bytes calldata d, Parts memory parts)
        private
        pure
        returns (bytes32, bool, uint256[] memory at, uint256[][] memory records, bytes32 kind)
    {
        unchecked { // offsets and counts within the calldata: no sum reaches 2^64
            PorInclusion.Part[] memory all = parts.all;
            // 4. The carried records parse; a committed invalid record is a fault. The PromptSpec
            // leaf (all[1]) is parsed only by a kind that reads it (SPEC §14.8).
            bytes calldata leaf = leafOf(d, all[0]);
            bool ok;
            (ok, at) = PorRecords.reasoningStep(leaf);
            if (!ok) return (INVALID_RECORD, true, at, records, 0);
            records = new uint256[][](all.length);
            for (uint256 i = 2; i < all.length; i++) {
                (ok, records[i]) = i < 2 + parts.evidenceCount
                    ? PorRecords.evidenceItem(leafOf(d, all[i]))
                    : PorRecords.reasoningStep(leafOf(d, all[i]));
                if (!ok) return (INVALID_RECORD, true, at, records, 0);
            }
            // 5. The parts are exactly the step's citations, in order.
            if (!cites(d, at, parts, records, true) || !cites(d, at, parts, records, false)) {
                return (CITATIONS, false, at, records, 0);
            }
            // 6. Position: the step's id is its leaf's; cited steps are earlier leaves.
            uint256 index = all[0].leafIndex;
            if (!PorRecords.isStepId(leaf, at[PorRecords.STEP_ID], index + 1)) return (ID_POSITION, true, at, records, 0);
            for (uint256 i = 2 + parts.evidenceCount; i < all.length; i++) {
                if (all[i].leafIndex >= index) return (PRIOR_ORDER, true, at, records, 0);
            }
            // 7. recompute_step: the declared computation, then the kind's own.
            bool known;
            (known, kind, ok) = PorRecords.computation(leaf, at);
            if (!known || !ok) return (UNEXECUTABLE, true, at, records, kind);
            return (0, false, at, records, kind);
        }
    }

    /// The `map` kind's re-execution (SPEC §12.5.7, `PorMapStep`); any other kind reverts
    /// `CourtPath(kind)`. A kind re-execution receives the proof `d`, its verified parts
    /// (`parts.all[0]` the step, `[1]` the PromptSpec, then the items, then the prior steps),
    /// each carried record's value offsets (`records[i]` for i >= 2, offsets in part i's
    /// leaf: `PorRecords.evidenceItem` / `reasoningStep`), the step's value offsets `at`
    /// and its known computation `kind` (keccak256 of `inputs.kind`, inputs' keys checked).
    function executeMap(
        bytes calldata d,
        Parts memory parts,
        uint256[][] memory records,
        uint256[] memory at,
        bytes32 kind
    ) internal pure returns (bool, bytes32) {
        if (kind != PorMapStep.KIND) revert CourtPath(kind);
        if (parts.priorCount != 1) return (true, UNEXECUTABLE); // map reads one step
        uint256 first = 2 + parts.evidenceCount;
        return PorMapStep.recompute(leafOf(d, parts.all[0]), at, leafOf(d, parts.all[first]), records[first]);
    }

    /// The step's evidence_ids (`evidence`) or prior_step_ids are exactly the ids of the
    /// carried items or prior steps, in order. Offsets are read in `d` (a leaf's offset
    /// plus the offset in the leaf).
    function cites(bytes calldata d, uint256[] memory at, Parts memory parts, uint256[][] memory records, bool evidence)
        private
        pure
        returns (bool)
    {
        unchecked { // offsets and counts within the calldata: no sum reaches 2^64
            (uint256 from, uint256 n, uint256 field) = evidence
                ? (2, parts.evidenceCount, PorRecords.ITEM_EVIDENCE_ID)
                : (2 + parts.evidenceCount, parts.priorCount, PorRecords.STEP_ID);
            uint256 base = parts.all[0].leaf;
            if (evidence && ITEMS_FOR_EXTRACT_ONLY && !PorCbor.isText(d, base + at[PorRecords.STEP_TYPE], "extract")) {
                return n == 0;
            }
            (, uint256 count, uint256 p) =
                PorCbor.container(d, base + at[evidence ? PorRecords.STEP_EVIDENCE : PorRecords.STEP_PRIOR], PorCbor.ARRAY);
            if (count != n) return false;
            for (uint256 i = from; i < from + n; i++) {
                if (!PorText.sameText(d, p, parts.all[i].leaf + records[i][field])) return false;
                p = PorCbor.skip(d, p);
            }
            return true;
        }
    }
}
