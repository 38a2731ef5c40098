// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCborTop} from "./PorCborTop.sol";
import {PorFormsRoute} from "./PorFormsRoute.sol";
import {PorIds} from "./PorIds.sol";

/// A one-step executor (SPEC §14.8): `KIND()` is keccak256 of the step kind it
/// re-executes, `execute` a reader-checked por.OneStepProof/1.
interface IPorStepExec {
    function KIND() external view returns (bytes32);
    function execute(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot);
}

/// A proof executor (SPEC §14.8): `KIND()` is keccak256 of the proof schema it decides,
/// `check` a reader-checked proof of that schema.
interface IPorProofExec {
    function check(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot);
}

/// @title PorProofCheck: stateless on-chain checking of por proofs (SPEC §14.8).
/// @notice Every function takes the exact bytes of a por document and returns what
/// `por check-proof` decides: `won` and the check id (keccak256 of its SPEC text), with
/// the proof's `por_root`, which the caller compares with a root it trusts (a signed
/// verdict's). Nothing is stored; a registry calls this contract. Every proof is routed
/// to an executor contract fixed in the constructor (one per step kind or proof schema,
/// each under the code-size limit); the CitationProof's (`PorCitationExec`) also answers
/// every schema no executor names. A FormStepProof, sent by ABI, goes to the forms
/// executor of its kind (`checkForms`).
contract PorProofCheck {
    bytes32 internal constant MALFORMED = PorIds.MALFORMED;
    /// The proof item cap (SPEC §10.4 step 0): 16 + floor(n / 4) for n bytes.
    uint256 internal constant PROOF_BASE_ITEMS = 16;
    uint256 internal constant PROOF_BYTES_PER_ITEM = 4;
    bytes32 internal constant ONE_STEP = keccak256("por.OneStepProof/1");
    /// The CitationProof's schema: its executor answers every schema no executor names.
    bytes32 internal constant CITATION = keccak256("por.CitationProof/2");
    /// At most this many executors (each one immutable kind and address): the eight on
    /// CBOR, the five on forms (check, aggregate, deduce, judge, map), the FormProof's and
    /// the outcome proof's of the deployment list, one more for a sixth kind on forms and
    /// one more (a test's stub).
    uint256 public constant MAX_EXECUTORS = 17;

    /// A one-step proof of a step kind the chain does not re-execute (keccak256 of its
    /// inputs.kind), raised by the executor: it goes to the court path (SPEC §14.8).
    error CourtPath(bytes32 kind);
    /// The constructor's executor list is empty or longer than MAX_EXECUTORS.
    error ExecutorCount(uint256 count);
    /// `executor` has no code, does not answer `KIND()`, answers 0, or repeats a kind.
    error BadExecutor(address executor);

    bytes32 private immutable k0;
    bytes32 private immutable k1;
    bytes32 private immutable k2;
    bytes32 private immutable k3;
    bytes32 private immutable k4;
    bytes32 private immutable k5;
    bytes32 private immutable k6;
    bytes32 private immutable k7;
    bytes32 private immutable k8;
    bytes32 private immutable k9;
    bytes32 private immutable k10;
    bytes32 private immutable k11;
    bytes32 private immutable k12;
    bytes32 private immutable k13;
    bytes32 private immutable k14;
    bytes32 private immutable k15;
    bytes32 private immutable k16;
    address private immutable x0;
    address private immutable x1;
    address private immutable x2;
    address private immutable x3;
    address private immutable x4;
    address private immutable x5;
    address private immutable x6;
    address private immutable x7;
    address private immutable x8;
    address private immutable x9;
    address private immutable x10;
    address private immutable x11;
    address private immutable x12;
    address private immutable x13;
    address private immutable x14;
    address private immutable x15;
    address private immutable x16;
    /// How many executors the constructor took.
    uint256 public immutable executorCount;

    /// `list`: the executors, in the deployment list's order (SPEC §14.8): each is asked its
    /// `KIND()`; kinds are distinct and nonzero. The first one also answers one-step
    /// proofs of kinds no executor holds (it must be a step executor).
    constructor(address[] memory list) {
        uint256 n = list.length;
        if (n == 0 || n > MAX_EXECUTORS) revert ExecutorCount(n);
        bytes32[] memory kinds = new bytes32[](MAX_EXECUTORS);
        address[] memory at = new address[](MAX_EXECUTORS);
        for (uint256 i = 0; i < n; i++) {
            address x = list[i];
            (bool ok, bytes memory out) = x.staticcall(abi.encodeCall(IPorStepExec.KIND, ()));
            if (x.code.length == 0 || !ok || out.length != 32) revert BadExecutor(x);
            bytes32 kind = abi.decode(out, (bytes32));
            if (kind == 0) revert BadExecutor(x);
            for (uint256 j = 0; j < i; j++) {
                if (kinds[j] == kind) revert BadExecutor(x);
            }
            (kinds[i], at[i]) = (kind, x);
        }
        (k0, k1, k2, k3, k4) = (kinds[0], kinds[1], kinds[2], kinds[3], kinds[4]);
        (k5, k6, k7, k8, k9) = (kinds[5], kinds[6], kinds[7], kinds[8], kinds[9]);
        (x0, x1, x2, x3, x4) = (at[0], at[1], at[2], at[3], at[4]);
        (x5, x6, x7, x8, x9) = (at[5], at[6], at[7], at[8], at[9]);
        (k10, k11, k12, k13) = (kinds[10], kinds[11], kinds[12], kinds[13]);
        (x10, x11, x12, x13) = (at[10], at[11], at[12], at[13]);
        (k14, k15, k16, x14, x15, x16) = (kinds[14], kinds[15], kinds[16], at[14], at[15], at[16]);
        executorCount = n;
    }

    /// The executor of `kind` (keccak256 of a step kind or a proof schema), 0 if none.
    function executor(bytes32 kind) public view returns (address) {
        if (kind == 0) return address(0);
        if (kind == k0) return x0;
        if (kind == k1) return x1;
        if (kind == k2) return x2;
        if (kind == k3) return x3;
        if (kind == k4) return x4;
        if (kind == k5) return x5;
        if (kind == k6) return x6;
        if (kind == k7) return x7;
        if (kind == k8) return x8;
        if (kind == k9) return x9;
        if (kind == k10) return x10;
        if (kind == k11) return x11;
        if (kind == k12) return x12;
        if (kind == k13) return x13;
        if (kind == k14) return x14;
        if (kind == k15) return x15;
        if (kind == k16) return x16;
        return address(0);
    }

    /// por-cbor/1 (SPEC §2): (0, 0) for one canonical item, else (codec.* id, offset).
    function checkCbor(bytes calldata data) external pure returns (bytes32 checkId, uint256 offset) {
        return PorCbor.check(data);
    }

    /// A por.CitationProof/2 (SPEC §10.2.7): won for a citation fault shown.
    function checkCitationProof(bytes calldata proof)
        external
        view
        returns (bool won, bytes32 checkId, bytes32 porRoot)
    {
        if (!readProof(proof)) return (false, MALFORMED, 0);
        return forward(executor(CITATION), IPorProofExec.check.selector);
    }

    /// §10.4 step 0 for a proof of n bytes: the §2 reader, and at most 16 + floor(n / 4)
    /// items in its arrays and maps together (§17.1; counted by the reader's own pass).
    /// Either failure is proof.malformed, so which comes first does not matter.
    function readProof(bytes calldata proof) internal pure returns (bool ok) {
        (ok,) = readTop(proof);
    }

    /// `readProof`, and where the proof's top-level items start (`PorCborTop.checkTop`).
    function readTop(bytes calldata proof) internal pure returns (bool, uint256[] memory top) {
        (bytes32 codec, uint256 items, uint256[] memory at,) = PorCborTop.checkTop(proof);
        return (codec == 0 && items <= PROOF_BASE_ITEMS + proof.length / PROOF_BYTES_PER_ITEM, at);
    }

    /// The offset of the value of the proof's key `schema` (0: none, or not a map), as
    /// `PorCbor.get` finds it, from the reader's offsets (`top`) when it kept them.
    function schemaAt(bytes calldata proof, uint256[] memory top) private pure returns (uint256) {
        (bool isMap, uint256 count,) = PorCbor.container(proof, 0, PorCbor.MAP);
        if (!isMap) return 0;
        if (top.length != 2 * count) return PorCbor.get(proof, 0, "schema");
        for (uint256 i = 0; i < count; i++) {
            if (PorCbor.isText(proof, top[2 * i], "schema")) return top[2 * i + 1];
        }
        return 0;
    }

    /// A por.OneStepProof/1 (SPEC §10.5): the reader, then the executor of its step's
    /// kind; a kind the chain does not re-execute reverts `CourtPath(keccak256(kind))`.
    function checkOneStepProof(bytes calldata proof)
        external
        view
        returns (bool won, bytes32 checkId, bytes32 porRoot)
    {
        if (!readProof(proof)) return (false, MALFORMED, 0);
        return forward(stepExecutor(proof), IPorStepExec.execute.selector);
    }

    /// Any proof the registry settles by (SPEC §14.4): the §2 reader once, then by its
    /// `schema`: a OneStepProof to the executor of its step's kind, a schema with an
    /// executor to that executor's `check`, anything else to the CitationProof's executor
    /// (which names what else it is).
    function checkProof(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot) {
        (bool read, uint256[] memory top) = readTop(proof);
        if (!read) return (false, MALFORMED, 0);
        (bytes32 schema, bool named) = schemaOf(proof, schemaAt(proof, top));
        if (schema == ONE_STEP) return forward(stepExecutor(proof), IPorStepExec.execute.selector);
        address x = named ? executor(schema) : address(0);
        if (x == address(0)) x = executor(CITATION);
        return forward(x, IPorProofExec.check.selector);
    }

    /// The call `IPorProofExec(x).check(proof)` (`sel` its selector) or
    /// `IPorStepExec(x).execute(proof)`, with the same answer: this call's own calldata
    /// (every external function here takes one `bytes`, as both do) under `sel`, copied to
    /// memory offset 0 (not past what the reader used: less memory to expand), the
    /// callee's revert passed on, a short answer or a `won` that is not a bool a revert
    /// with no data (as the ABI decoder's), else its three words returned as they are.
    /// Nothing runs after it: the memory it overwrites is never read again.
    function forward(address x, bytes4 sel) private view returns (bool, bytes32, bytes32) {
        assembly {
            calldatacopy(0, 0, calldatasize())
            mstore(0, or(shr(32, shl(32, mload(0))), sel))
            if iszero(staticcall(gas(), x, 0, calldatasize(), 0, 0)) {
                returndatacopy(0, 0, returndatasize())
                revert(0, returndatasize())
            }
            if lt(returndatasize(), 0x60) { revert(0, 0) }
            returndatacopy(0, 0, 0x60)
            if gt(mload(0), 1) { revert(0, 0) }
            return(0, 0x60)
        }
    }

    /// The executor of a reader-checked OneStepProof: the one of its step's kind, else
    /// the first executor (which runs §10.5 to the same fault, or reverts CourtPath). A
    /// step kind `form:...` is no forms executor's: their `execute` takes forms, not CBOR.
    function stepExecutor(bytes calldata proof) internal view returns (address x) {
        bytes32 kind = stepKind(proof);
        if (!PorFormsRoute.isFormKind(kind)) x = executor(kind);
        if (x == address(0)) x = x0;
    }

    /// A por.FormStepProof/1 sent by ABI (SPEC §14.4, §14.8 "Routing forms"): `kind` is
    /// keccak256("form:" || its kind), `args` its executor's call data after the selector;
    /// or a por.FormProof/1 (kind `form`): `args` the file's bytes, the FormProof
    /// envelope's `execute` (`PorFormsRoute.executeFile`, its `NoFamily` passed on).
    /// A kind that is not a forms kind, or has no executor, is `proof.schema` (lost),
    /// as Python's `execute` answers it and as an unknown CBOR schema is lost here; so is a
    /// record rule the ABI breaks (`PorFormsRoute.shaped`). Else the executor's (won, id),
    /// its reverts mapped to ids (`PorFormsRoute.execute`), and the Inclusion's porRoot.
    function checkForms(bytes32 kind, bytes calldata args)
        external
        view
        returns (bool won, bytes32 checkId, bytes32 porRoot)
    {
        address x = PorFormsRoute.isFormKind(kind) ? executor(kind) : address(0);
        if (x != address(0) && kind == PorFormsRoute.FORM) return PorFormsRoute.executeFile(x, args);
        if (x == address(0) || !PorFormsRoute.shaped(args)) return (false, PorFormsRoute.SCHEMA, 0);
        (won, checkId,) = PorFormsRoute.execute(x, args);
        porRoot = PorFormsRoute.porRoot(args);
    }

    /// The outcome proof (SPEC §14.4, `settleByForms` kind `outcome`): `args` as a
    /// FormStepProof's, one VERDICT form, sent to the `form:outcome` executor. (0, its
    /// por_root, the words the registry compares) when the form is the committed verdict's
    /// under that root; else (the check id, as `checkForms` names a FormStepProof's fault,
    /// por_root or 0, 0).
    function checkOutcome(bytes calldata args) external view returns (bytes32 checkId, bytes32 porRoot, bytes32 words) {
        address x = executor(PorFormsRoute.OUTCOME);
        if (x == address(0) || !PorFormsRoute.shaped(args)) return (PorFormsRoute.SCHEMA, 0, 0);
        bool won;
        (won, checkId, words) = PorFormsRoute.execute(x, args);
        if (won) return (PorFormsRoute.SCHEMA, 0, 0); // not an outcome executor's answer
        porRoot = PorFormsRoute.porRoot(args);
        if (checkId != 0) words = 0;
    }

    /// keccak256 of the text at `pos` of a checked document (0 for none or another type),
    /// and whether it starts `por.` (a proof schema, never a step kind's name, so a
    /// schema `map` is not sent to the map executor's missing `check`).
    function schemaOf(bytes calldata d, uint256 pos) private pure returns (bytes32, bool) {
        if (pos == 0) return (0, false);
        (bool ok, uint256 off, uint256 len) = PorCbor.str(d, pos, PorCbor.TEXT);
        if (!ok) return (0, false);
        return (keccak256(d[off:off + len]), len > 4 && bytes4(d[off:off + 4]) == "por.");
    }

    /// keccak256 of the step leaf's `inputs.kind`, read where a valid OneStepProof and a
    /// valid por.ReasoningStep/1 hold it (SPEC §14.8 "Routing": the proof's keys `kind`
    /// then `step`; the part's `kind` then `leaf`; in the leaf, `inputs` first and, in it,
    /// `kind` first), a few heads and word compares, no other reading; 0 when it is not
    /// there. Every read stays inside the proof, and inside the leaf for the leaf's bytes
    /// (not yet checked). Routing only: the executor checks everything.
    function stepKind(bytes calldata d) internal pure returns (bytes32) {
        uint256 p = keyed(d, 1, KEY_KIND, 5); // the proof's kind: a text, skipped
        if (p == 0) return 0;
        (uint8 major, uint256 arg, uint256 next) = PorCbor.head(d, p);
        p = keyed(d, next + arg, KEY_STEP, 5); // the step part: a map
        if (major != PorCbor.TEXT || p == 0) return 0;
        p = keyed(d, p + 1, KEY_KIND, 5); // the part's kind
        if (p == 0) return 0;
        (major, arg, next) = PorCbor.head(d, p);
        p = keyed(d, next + arg, KEY_LEAF, 5);
        if (major != PorCbor.TEXT || p == 0) return 0;
        (major, arg, p) = PorCbor.head(d, p); // the leaf's bytes: [p, end)
        uint256 end = p + arg;
        if (major != PorCbor.BYTES || end > d.length) return 0;
        (major, arg, p) = PorCbor.head(d, p); // the step map
        if (major != PorCbor.MAP || p + 7 > end) return 0;
        p = keyed(d, p, KEY_INPUTS, 7);
        if (p == 0) return 0;
        (major, arg, p) = PorCbor.head(d, p); // the inputs map
        if (major != PorCbor.MAP || p + 5 > end) return 0;
        p = keyed(d, p, KEY_KIND, 5);
        if (p == 0) return 0;
        (major, arg, p) = PorCbor.head(d, p); // inputs.kind
        if (major != PorCbor.TEXT || p > end || arg > end - p) return 0;
        return keccak256(d[p:p + arg]);
    }

    /// Encoded text keys (head and bytes), right-aligned.
    uint256 private constant KEY_KIND = 0x646b696e64;
    uint256 private constant KEY_STEP = 0x6473746570;
    uint256 private constant KEY_LEAF = 0x646c656166;
    uint256 private constant KEY_INPUTS = 0x66696e70757473;

    /// The offset after the `len`-byte encoded key `key` at `p`, or 0 when another item
    /// is there.
    function keyed(bytes calldata d, uint256 p, uint256 key, uint256 len) private pure returns (uint256 next) {
        assembly ("memory-safe") {
            if eq(shr(sub(256, shl(3, len)), calldataload(add(d.offset, p))), key) { next := add(p, len) }
        }
    }
}
