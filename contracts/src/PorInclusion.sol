// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorMerkle} from "./PorMerkle.sol";

/// @title PorInclusion: the por.InclusionProof/1 parts of a composite proof (SPEC §10.2.1,
/// §10.4.1) and `challenge_id` (SPEC §10.3), over a checked por-cbor/1 proof document.
/// @notice `parse` is the schema (proof.schema), `verify` the checks of
/// `verify_inclusion_proof` in por's order; both return a check id (0: passed).
library PorInclusion {
    bytes32 internal constant KIND = keccak256("proof.kind");
    bytes32 internal constant COMPONENT = keccak256("proof.component");
    bytes32 internal constant POR_ROOT = keccak256("proof.por_root");
    bytes32 internal constant LEAF_PATH = keccak256("proof.leaf_path");
    bytes32 internal constant COMPONENT_PATH = keccak256("proof.component_path");
    bytes32 internal constant CHALLENGE_ID = keccak256("proof.challenge_id");
    bytes32 internal constant INDEX_RANGE = keccak256("merkle.index_range");
    bytes32 internal constant PROOF_LENGTH = keccak256("merkle.proof_length");

    /// Leaf kinds (SPEC §10.2.1) and the position of their component among the seven
    /// leaves of por_root (SPEC §5.4: manifest, prompt_spec, evidence, trace_header,
    /// reasoning, verdict, forms).
    uint8 internal constant PROMPT_SPEC = 1;
    uint8 internal constant EVIDENCE_LEAF = 2;
    uint8 internal constant REASONING_LEAF = 3;
    uint8 internal constant VERDICT = 4;
    uint256 internal constant COMPONENTS = 7;
    uint256 internal constant MAX_PATH = 64;
    uint256 private constant MAX_COUNT = 2 ** 63 - 1;
    uint256 private constant MAX_ID_LENGTH = 128;

    /// InclusionProof fields, canonical order.
    bytes internal constant KEYS =
        "\x04kind\x04leaf\x06schema\x08por_root\x09component\x09leaf_path\x09tree_size\x0aleaf_index\x0cchallenge_id\x0ecomponent_path\x0ecomponent_root";

    struct Part {
        uint256 start; // the part's map
        uint256 end;
        uint8 kind;
        uint256 component; // offset of the component text
        uint256 leaf; // offset of the leaf bytes
        uint256 leafLength;
        uint256 leafIndex;
        uint256 treeSize;
        uint256 leafPath; // offset of the first element, count
        uint256 leafPathLength;
        uint256 componentPath;
        uint256 componentPathLength;
        bytes32 componentRoot;
        bytes32 porRoot;
        bytes32 challengeId;
        uint256 challengeIdAt; // offset of the challenge_id value
    }

    /// Encoded keys and texts (head and bytes), right-aligned: the keys in KEYS' order.
    uint256 private constant K_KIND = 0x646b696e64;
    uint256 private constant K_LEAF = 0x646c656166;
    uint256 private constant K_SCHEMA = 0x66736368656d61;
    uint256 private constant K_POR_ROOT = 0x68706f725f726f6f74;
    uint256 private constant K_COMPONENT = 0x69636f6d706f6e656e74;
    uint256 private constant K_LEAF_PATH = 0x696c6561665f70617468;
    uint256 private constant K_TREE_SIZE = 0x69747265655f73697a65;
    uint256 private constant K_LEAF_INDEX = 0x6a6c6561665f696e646578;
    uint256 private constant K_CHALLENGE_ID = 0x6c6368616c6c656e67655f6964;
    uint256 private constant K_COMPONENT_PATH = 0x6e636f6d706f6e656e745f70617468;
    uint256 private constant K_COMPONENT_ROOT = 0x6e636f6d706f6e656e745f726f6f74;
    uint256 private constant T_PROMPT_SPEC = 0x6b70726f6d70745f73706563; // 12 bytes
    uint256 private constant T_EVIDENCE_LEAF = 0x6d65766964656e63655f6c656166; // 14
    uint256 private constant T_REASONING_LEAF = 0x6e726561736f6e696e675f6c656166; // 15
    uint256 private constant T_VERDICT = 0x6776657264696374; // 8
    uint256 private constant T_SCHEMA = 0x74706f722e496e636c7573696f6e50726f6f662f31; // 21

    /// The InclusionProof record at `pos` (schema only; nothing verified): a map of
    /// exactly KEYS in order; kind one of the four leaf kinds, leaf a byte string, schema
    /// the text por.InclusionProof/1, por_root, challenge_id and component_root 32-byte
    /// byte strings, component an Id, leaf_path and component_path arrays of at most 64
    /// 32-byte byte strings, tree_size and leaf_index Counts. One typed walk in assembly
    /// over a checked document (each value's end from its type; a value of another type
    /// stops it, ok false); `p` is complete only when ok.
    function parse(bytes calldata d, uint256 pos) internal pure returns (bool ok, Part memory p) {
        assembly ("memory-safe") {
            // the head at q: major, argument, offset after the head
            function hd(b, q) -> major, arg, next {
                let ib := byte(0, calldataload(add(b, q)))
                major := shr(5, ib)
                arg := and(ib, 31)
                next := add(q, 1)
                if gt(arg, 23) {
                    let w := shl(sub(arg, 24), 1)
                    arg := shr(sub(256, shl(3, w)), calldataload(add(b, next)))
                    next := add(next, w)
                }
            }
            // a path at q (an array of at most 64 items, each 58 20 and 32 bytes): (good,
            // first item, count, offset after it)
            function path(b, q) -> good, first, n, next {
                let major := 0
                major, n, first := hd(b, q)
                good := and(eq(major, 4), iszero(gt(n, MAX_PATH)))
                next := add(first, mul(34, n))
                for { let i := first } and(good, lt(i, next)) { i := add(i, 34) } {
                    good := eq(shr(240, calldataload(add(b, i))), 0x5820)
                }
            }
            // each key or fixed text compared as its `len` encoded bytes at q, right-aligned:
            // eq(shr(256 - 8 * len, calldataload(add(b, q))), word) (no call: len constant)
            let b := d.offset
            for {} 1 {} {
                if iszero(eq(byte(0, calldataload(add(b, pos))), 0xab)) { break } // a map of 11
                let q := add(pos, 1)
                if iszero(eq(shr(216, calldataload(add(b, q))), K_KIND)) { break }
                q := add(q, 5)
                let kind := 0
                let w := calldataload(add(b, q))
                switch byte(0, w)
                case 0x6b { if eq(shr(160, w), T_PROMPT_SPEC) { kind := PROMPT_SPEC } }
                case 0x6d { if eq(shr(144, w), T_EVIDENCE_LEAF) { kind := EVIDENCE_LEAF } }
                case 0x6e { if eq(shr(136, w), T_REASONING_LEAF) { kind := REASONING_LEAF } }
                case 0x67 { if eq(shr(192, w), T_VERDICT) { kind := VERDICT } }
                if iszero(kind) { break }
                mstore(add(p, 0x40), kind)
                q := add(q, add(1, and(byte(0, w), 31)))
                if iszero(eq(shr(216, calldataload(add(b, q))), K_LEAF)) { break }
                let major, arg, next := hd(b, add(q, 5))
                if iszero(eq(major, 2)) { break }
                mstore(add(p, 0x80), next) // leaf
                mstore(add(p, 0xa0), arg) // leafLength
                q := add(next, arg)
                if iszero(eq(shr(200, calldataload(add(b, q))), K_SCHEMA)) { break }
                if iszero(eq(shr(88, calldataload(add(b, add(q, 7)))), T_SCHEMA)) { break }
                q := add(q, 28)
                if iszero(eq(shr(184, calldataload(add(b, q))), K_POR_ROOT)) { break }
                if iszero(eq(shr(240, calldataload(add(b, add(q, 9)))), 0x5820)) { break }
                mstore(add(p, 0x1a0), calldataload(add(b, add(q, 11)))) // porRoot
                q := add(q, 43)
                if iszero(eq(shr(176, calldataload(add(b, q))), K_COMPONENT)) { break }
                q := add(q, 10)
                mstore(add(p, 0x60), q) // component: an Id (1..128 code points)
                major, arg, next := hd(b, q)
                if or(iszero(eq(major, 3)), iszero(arg)) { break }
                q := add(next, arg)
                if gt(arg, MAX_ID_LENGTH) {
                    if gt(arg, mul(4, MAX_ID_LENGTH)) { break }
                    let points := 0
                    for { let i := next } lt(i, q) { i := add(i, 1) } {
                        points := add(points, iszero(eq(and(byte(0, calldataload(add(b, i))), 0xc0), 0x80)))
                    }
                    if gt(points, MAX_ID_LENGTH) { break }
                }
                if iszero(eq(shr(176, calldataload(add(b, q))), K_LEAF_PATH)) { break }
                let good, first, n, after := path(b, add(q, 10))
                if iszero(good) { break }
                mstore(add(p, 0x100), first) // leafPath
                mstore(add(p, 0x120), n)
                q := after
                if iszero(eq(shr(176, calldataload(add(b, q))), K_TREE_SIZE)) { break }
                major, arg, q := hd(b, add(q, 10))
                if or(major, gt(arg, MAX_COUNT)) { break }
                mstore(add(p, 0xe0), arg) // treeSize
                if iszero(eq(shr(168, calldataload(add(b, q))), K_LEAF_INDEX)) { break }
                major, arg, q := hd(b, add(q, 11))
                if or(major, gt(arg, MAX_COUNT)) { break }
                mstore(add(p, 0xc0), arg) // leafIndex
                if iszero(eq(shr(152, calldataload(add(b, q))), K_CHALLENGE_ID)) { break }
                q := add(q, 13)
                if iszero(eq(shr(240, calldataload(add(b, q))), 0x5820)) { break }
                mstore(add(p, 0x1e0), q) // challengeIdAt
                mstore(add(p, 0x1c0), calldataload(add(b, add(q, 2)))) // challengeId
                q := add(q, 34)
                if iszero(eq(shr(136, calldataload(add(b, q))), K_COMPONENT_PATH)) { break }
                good, first, n, after := path(b, add(q, 15))
                if iszero(good) { break }
                mstore(add(p, 0x140), first) // componentPath
                mstore(add(p, 0x160), n)
                q := after
                if iszero(eq(shr(136, calldataload(add(b, q))), K_COMPONENT_ROOT)) { break }
                if iszero(eq(shr(240, calldataload(add(b, add(q, 15)))), 0x5820)) { break }
                mstore(add(p, 0x180), calldataload(add(b, add(q, 17)))) // componentRoot
                mstore(p, pos) // start
                mstore(add(p, 0x20), add(q, 49)) // end
                ok := 1
                break
            }
        }
    }

    /// The root a path gives (RFC 9162 §2.1.3.2), or a merkle.* id.
    function root(bytes calldata d, bytes32 h, uint256 index, uint256 size, uint256 first, uint256 n)
        internal
        view
        returns (bytes32 err, bytes32)
    {
        if (index >= size) return (INDEX_RANGE, 0);
        uint256 inner;
        unchecked { // size > index >= 0; inner and the pop count at most 256 each
            inner = PorMerkle.bitLength(index ^ (size - 1));
            if (n != inner + PorMerkle.popCount(index >> inner)) return (PROOF_LENGTH, 0);
        }
        assembly ("memory-safe") {
            // as `PorMerkle.rootFromPath`, the siblings 34 bytes apart (58 20, the hash);
            // a copy, not a shared function: the call costs the registry's inclusion check
            // about 80 gas, over its 12 000 target at 10^6 leaves (SPEC §14.6; measured s33):
            // memory p is 0x01 || left || right; at level i the running hash sits right
            // when bit i of `bits` is 1 (the index's bits below `inner`, then 1)
            let p := mload(0x40)
            mstore8(p, 0x01)
            let left := add(p, 1)
            let right := add(p, 33)
            let bits := or(index, shl(inner, not(0)))
            let side := shl(5, and(bits, 1))
            mstore(add(left, side), h)
            let at := add(d.offset, add(first, 2))
            for { let end := add(at, mul(34, n)) } lt(at, end) { at := add(at, 34) } {
                mstore(sub(right, side), calldataload(at))
                bits := shr(1, bits)
                side := shl(5, and(bits, 1))
                if iszero(staticcall(gas(), 0x02, p, 65, add(left, side), 0x20)) { revert(0, 0) }
            }
            h := mload(add(left, side))
        }
        return (0, h);
    }

    /// SHA-256 of the map at [start, end) without its `challenge_id` entry (SPEC §10.3):
    /// the map's count is one less (one-byte heads: at most 23 fields) and the entry's
    /// bytes (key and 32-byte value) are cut out. The bytes are put together past the free
    /// memory pointer, which stays (as `PorMerkle.leafHash`): every part's body reuses the
    /// same memory, so the memory to expand is the largest body's, not their sum.
    function bodyHash(bytes calldata d, uint256 start, uint256 end, uint256 idValue)
        internal
        view
        returns (bytes32 h)
    {
        uint256 keyStart = idValue - 13; // "challenge_id": 0x6c and 12 bytes
        // the same checks, in the same order, as abi.encodePacked's arguments had
        uint8 head = uint8(d[start]) - 1;
        bytes calldata before = d[start + 1:keyStart];
        bytes calldata rest = d[idValue + 34:end];
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore8(p, head)
            calldatacopy(add(p, 1), before.offset, before.length)
            calldatacopy(add(add(p, 1), before.length), rest.offset, rest.length)
            if iszero(staticcall(gas(), 0x02, p, add(add(1, before.length), rest.length), 0x00, 0x20)) {
                revert(0, 0)
            }
            h := mload(0x00)
        }
    }

    /// Parts `a` and `b` give the same component leaf and the same component path: the
    /// same component_root, tree_size and path hashes (each path item is 58 20 and the
    /// hash, `parse`). Of the same kind, the second's component path then gives the root
    /// the first's gave (a function of these alone), so it is not hashed again.
    function sameComponent(bytes calldata d, Part memory a, Part memory b) internal pure returns (bool same) {
        assembly ("memory-safe") {
            // componentPath, componentPathLength, componentRoot: 0x140, 0x160, 0x180;
            // treeSize 0xe0
            let n := mload(add(a, 0x160))
            same := and(and(eq(n, mload(add(b, 0x160))), eq(mload(add(a, 0x180)), mload(add(b, 0x180)))),
                eq(mload(add(a, 0xe0)), mload(add(b, 0xe0))))
            let x := add(d.offset, add(mload(add(a, 0x140)), 2))
            let y := add(d.offset, add(mload(add(b, 0x140)), 2))
            for { let end := add(x, mul(34, n)) } and(same, lt(x, end)) {} {
                same := eq(calldataload(x), calldataload(y))
                x := add(x, 34)
                y := add(y, 34)
            }
        }
    }

    /// verify_inclusion_proof for a part of kind `want` under `porRoot` (SPEC §10.4.1).
    function verify(bytes calldata d, Part memory p, uint8 want, bytes32 porRoot)
        internal
        view
        returns (bytes32)
    {
        return verify(d, p, want, porRoot, false);
    }

    /// `verify`;
    /// `known` true when an earlier part of kind `want` that passed has the same component
    /// leaf and path (`sameComponent`): its component path check is not run again.
    function verify(bytes calldata d, Part memory p, uint8 want, bytes32 porRoot, bool known)
        internal
        view
        returns (bytes32 err)
    {
        if (p.kind != want) return KIND;
        // the component text (head and bytes, as `PorCbor.isText`) and its position
        bool named;
        uint256 position;
        assembly ("memory-safe") {
            let w := calldataload(add(d.offset, mload(add(p, 0x60))))
            switch want
            case 1 { named := eq(shr(160, w), T_PROMPT_SPEC) position := 1 }
            case 2 { named := eq(shr(184, w), 0x6865766964656e6365) position := 2 } // "evidence"
            case 3 { named := eq(shr(176, w), 0x69726561736f6e696e67) position := 4 } // "reasoning"
            default { named := eq(shr(192, w), T_VERDICT) position := 5 }
        }
        if (!named) return COMPONENT;
        if (p.porRoot != porRoot) return POR_ROOT;
        bytes32 got;
        uint256 leafEnd;
        unchecked {
            leafEnd = p.leaf + p.leafLength; // an offset and a length read from the calldata
        }
        (err, got) = root(d, PorMerkle.leafHash(d[p.leaf:leafEnd]), p.leafIndex, p.treeSize, p.leafPath,
            p.leafPathLength);
        if (err != 0) return err;
        if (got != p.componentRoot) return LEAF_PATH;
        if (!known) {
            (err, got) = root(d, PorMerkle.componentLeafHash(p.componentRoot, uint64(p.treeSize)),
                position, COMPONENTS, p.componentPath, p.componentPathLength);
            if (err != 0) return err;
            if (got != porRoot) return COMPONENT_PATH;
        }
        if (bodyHash(d, p.start, p.end, p.challengeIdAt) != p.challengeId) return CHALLENGE_ID;
        return 0;
    }
}
