// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorIds} from "./PorIds.sol";
import {MerkleIndexRange, MerkleProofLength} from "./PorMerkle.sol";
import {PorFormStep} from "./forms/PorFormStep.sol";
import {PorForms} from "./forms/PorForms.sol";

/// A forms executor (SPEC §14.8): `KIND()` is keccak256("form:" || kind), `execute` a
/// FormStepProof's forms and inclusion (their ABI, SPEC §14.4).
interface IPorFormsExec {
    function KIND() external view returns (bytes32);
    function execute(bytes[] calldata forms, PorForms.Inclusion calldata inc)
        external
        view
        returns (bool won, bytes32 checkId, bytes32 cause);
}

/// @title PorFormsRoute: PorProofCheck's side of a FormStepProof sent by ABI (SPEC §14.8
/// "Routing forms"): the record's schema rules its ABI can break, the executor's call,
/// and the table from the executor's reverts to Python's check ids.
/// @notice `args` is `abi.encode(bytes[] forms, (bytes32 porRoot, uint256 size,
/// uint256[] index, bytes32[][] paths, bytes32[] componentPath))`; for the kind `form`
/// (`FORM`, a por.FormProof/1, SPEC §10.2.8) `args` is the FormProof file's exact bytes,
/// sent to the FormProof envelope's `execute(bytes)` (`executeFile`).
library PorFormsRoute {
    /// The forms kinds: keccak256("form:" || kind) (ids.md, SPEC §14.4).
    bytes32 internal constant CHECK = keccak256("form:check");
    bytes32 internal constant AGGREGATE = keccak256("form:aggregate");
    bytes32 internal constant DEDUCE = keccak256("form:deduce");
    bytes32 internal constant JUDGE = keccak256("form:judge");
    bytes32 internal constant MAP = keccak256("form:map");
    /// The outcome proof's kind (SPEC §14.4): not a FormStepProof kind, so `checkForms`
    /// does not route it; the registry asks `checkOutcome`.
    bytes32 internal constant OUTCOME = keccak256("form:outcome");
    bytes32 internal constant CONTRADICTIONS = keccak256("form:contradictions");
    /// The FormProof (SPEC §10.2.8): `args` is the file's bytes (ADR 0017, s42 `fpsplit`).
    bytes32 internal constant FORM = keccak256("form:form");

    bytes32 internal constant SCHEMA = PorIds.SCHEMA;
    bytes32 internal constant PROOF_FORM = keccak256("proof.form");
    bytes32 internal constant CITATIONS = keccak256("proof.citations");
    bytes32 internal constant LEAF_PATH = keccak256("proof.leaf_path");
    bytes32 internal constant COMPONENT_PATH = keccak256("proof.component_path");
    bytes32 internal constant INDEX_RANGE = keccak256("merkle.index_range");
    bytes32 internal constant PROOF_LENGTH = keccak256("merkle.proof_length");
    bytes32 internal constant FINAL_STEP = keccak256("proof.final_step");
    /// `PorJudgeForm.FinalStep()`: form 2 is not the last reasoning leaf's.
    bytes4 internal constant FINAL_STEP_ERROR = bytes4(keccak256("FinalStep()"));

    /// The executor ran out of the gas this call forwarded (no revert data, and this frame
    /// kept only the 1/64 the call leaves it): the sender gave too little gas. Reverting,
    /// not answering `proof.schema`, keeps a valid proof from reading as malformed.
    error ExecutorOutOfGas();

    /// True for the forms kinds (the only kinds `checkForms` routes): the FormStepProof
    /// kinds and `form`, the FormProof.
    function isFormKind(bytes32 kind) internal pure returns (bool) {
        return kind == CHECK || kind == AGGREGATE || kind == DEDUCE || kind == JUDGE || kind == FORM
            || kind == MAP || kind == CONTRADICTIONS;
    }

    /// The FormProof envelope `x`'s `execute(bytes file)` (`PorFormProof`): (won, check id,
    /// the file's por_root). A revert is passed on as it is (the envelope's
    /// `NoFamily(tag)`: the record's family is not on chain; no answer), running out of
    /// the forwarded gas reverts `ExecutorOutOfGas`, a short answer or a `won` that is not
    /// a bool reverts with no data.
    function executeFile(address x, bytes calldata file)
        internal
        view
        returns (bool won, bytes32 checkId, bytes32 root)
    {
        bytes memory data = abi.encodeWithSignature("execute(bytes)", file);
        uint256 before = gasleft();
        (bool ok, bytes memory out) = x.staticcall(data);
        if (!ok) {
            if (out.length == 0 && gasleft() <= before / 64) revert ExecutorOutOfGas();
            assembly ("memory-safe") {
                revert(add(out, 32), mload(out))
            }
        }
        if (out.length < 0x60) revert();
        uint256 w;
        (w, checkId, root) = abi.decode(out, (uint256, bytes32, bytes32));
        if (w > 1) revert();
        won = w == 1;
    }

    /// The rules of a por.FormStepProof/1 record (SPEC §10.2.9) that its ABI can break,
    /// all `proof.schema` in Python (the record does not parse): 1 to 67 forms (MAX_FORMS),
    /// as many indexes and paths, `size` and each index at most 2^63 - 1 (a Count), each
    /// path and the component path at most 64 hashes (MAX_PATH). Every read stays inside
    /// `args`; heads it cannot read are false too (the executor's ABI decoder would revert,
    /// also `proof.schema`). The forms' bytes are the executor's to read.
    function shaped(bytes calldata args) internal pure returns (bool ok) {
        assembly ("memory-safe") {
            // the word at byte offset o of args, or all ones past its end
            function at(p, len, o) -> v {
                v := not(0)
                if iszero(gt(add(o, 32), len)) { v := calldataload(add(p, o)) }
            }
            function check(p, len) -> good {
                let count := 0x7fffffffffffffff // the largest Count
                let fo := at(p, len, 0)
                let io := at(p, len, 0x20)
                if or(gt(fo, len), gt(io, len)) { leave }
                let n := at(p, len, fo)
                if or(iszero(n), gt(n, 67)) { leave }
                if gt(at(p, len, add(io, 0x20)), count) { leave }
                let xo := at(p, len, add(io, 0x40))
                let po := at(p, len, add(io, 0x60))
                let co := at(p, len, add(io, 0x80))
                if or(or(gt(xo, len), gt(po, len)), gt(co, len)) { leave }
                xo := add(io, xo)
                po := add(io, po)
                if iszero(and(eq(at(p, len, xo), n), eq(at(p, len, po), n))) { leave }
                if gt(at(p, len, add(io, co)), 64) { leave }
                for { let k := 0x20 } iszero(gt(k, shl(5, n))) { k := add(k, 0x20) } {
                    if gt(at(p, len, add(xo, k)), count) { leave }
                    let e := at(p, len, add(po, k))
                    if gt(e, len) { leave }
                    if gt(at(p, len, add(add(po, 0x20), e)), 64) { leave }
                }
                good := 1
            }
            ok := check(args.offset, args.length)
        }
    }

    /// The Inclusion's `porRoot` in `args` (read after the executor answered: its ABI
    /// decoder checked the heads).
    function porRoot(bytes calldata args) internal pure returns (bytes32 root) {
        assembly ("memory-safe") {
            root := calldataload(add(args.offset, calldataload(add(args.offset, 0x20))))
        }
    }

    /// `IPorFormsExec(x).execute` on `args` (its call data after the selector): (won, check
    /// id, cause). A revert the table knows is a lost answer with its id
    /// (`idOf`); any other revert is passed on; a short answer or a `won` that is not a
    /// bool reverts with no data (as the ABI decoder's).
    function execute(address x, bytes calldata args)
        internal
        view
        returns (bool won, bytes32 checkId, bytes32 cause)
    {
        bytes4 sel = IPorFormsExec.execute.selector;
        bool ok;
        uint256 before = gasleft();
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, sel)
            calldatacopy(add(m, 4), args.offset, args.length)
            ok := staticcall(gas(), x, m, add(4, args.length), 0, 0)
            if ok {
                if lt(returndatasize(), 0x60) { revert(0, 0) }
                returndatacopy(m, 0, 0x60)
                won := mload(m)
                if gt(won, 1) { revert(0, 0) }
                checkId := mload(add(m, 0x20))
                cause := mload(add(m, 0x40))
            }
        }
        if (!ok) {
            uint256 size;
            assembly ("memory-safe") {
                size := returndatasize()
            }
            if (size == 0 && gasleft() <= before / 64) revert ExecutorOutOfGas();
            checkId = idOf();
        }
    }

    /// The check id of the executor's revert (SPEC §14.8's table; ids.md): `ProofForm()`
    /// proof.form, `Citations(i)` proof.citations, `FormsInclusion(i)` proof.leaf_path,
    /// `FormsPorRoot()` proof.component_path, `MerkleIndexRange` merkle.index_range,
    /// `MerkleProofLength` merkle.proof_length (the ids Python's
    /// `root_from_inclusion_proof` gives), `FinalStep()` proof.final_step, no data (the ABI
    /// decoder) proof.schema; any other revert passed on as it is.
    function idOf() private pure returns (bytes32) {
        uint256 size;
        bytes4 s;
        assembly ("memory-safe") {
            size := returndatasize()
            if gt(size, 3) {
                returndatacopy(0, 0, 4)
                s := and(mload(0), shl(224, 0xffffffff))
            }
        }
        if (size == 0) return SCHEMA;
        if (s == PorForms.ProofForm.selector) return PROOF_FORM;
        if (s == PorFormStep.Citations.selector) return CITATIONS;
        if (s == PorForms.FormsInclusion.selector) return LEAF_PATH;
        if (s == PorForms.FormsPorRoot.selector) return COMPONENT_PATH;
        if (s == MerkleIndexRange.selector) return INDEX_RANGE;
        if (s == MerkleProofLength.selector) return PROOF_LENGTH;
        if (s == FINAL_STEP_ERROR) return FINAL_STEP;
        assembly ("memory-safe") {
            let m := mload(0x40)
            returndatacopy(m, 0, size)
            revert(m, size)
        }
    }
}
