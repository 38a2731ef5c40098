// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorMerkle} from "./PorMerkle.sol";
import {PorRecords} from "./PorRecords.sol";

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

    /// Leaf kinds (SPEC §10.2.1) and the position of their component among the six
    /// leaves of por_root (SPEC §5.4: manifest, prompt_spec, evidence, trace_header,
    /// reasoning, verdict).
    uint8 internal constant PROMPT_SPEC = 1;
    uint8 internal constant EVIDENCE_LEAF = 2;
    uint8 internal constant REASONING_LEAF = 3;
    uint8 internal constant VERDICT = 4;
    uint256 internal constant COMPONENTS = 6;
    uint256 internal constant MAX_PATH = 64;

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

    function kindOf(bytes calldata d, uint256 pos) private pure returns (uint8) {
        if (PorCbor.isText(d, pos, "prompt_spec")) return PROMPT_SPEC;
        if (PorCbor.isText(d, pos, "evidence_leaf")) return EVIDENCE_LEAF;
        if (PorCbor.isText(d, pos, "reasoning_leaf")) return REASONING_LEAF;
        if (PorCbor.isText(d, pos, "verdict")) return VERDICT;
        return 0;
    }

    /// A path: an array of at most 64 32-byte byte strings: (ok, first, count).
    function path(bytes calldata d, uint256 pos) private pure returns (bool, uint256, uint256) {
        (bool ok, uint256 n, uint256 first) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!ok || n > MAX_PATH) return (false, 0, 0);
        assembly ("memory-safe") {
            // each element: the head 58 20 (a 32-byte byte string), then the hash
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                if iszero(eq(shr(240, calldataload(add(d.offset, add(first, mul(34, i))))), 0x5820)) {
                    ok := 0
                    break
                }
            }
        }
        return (ok, first, n);
    }

    /// The InclusionProof record at `pos` (schema only; nothing verified).
    function parse(bytes calldata d, uint256 pos) internal pure returns (bool ok, Part memory p) {
        uint256[] memory at;
        (ok, at, p.end) = PorRecords.fieldsTo(d, pos, KEYS, 0);
        if (!ok) return (false, p);
        p.start = pos;
        p.challengeIdAt = at[8];
        p.kind = kindOf(d, at[0]);
        bool leaf;
        (leaf, p.leaf, p.leafLength) = PorCbor.str(d, at[1], PorCbor.BYTES);
        bool component;
        (component,,) = PorRecords.isId(d, at[4]);
        p.component = at[4];
        bool[6] memory good;
        (good[0], p.porRoot) = PorCbor.hashAt(d, at[3]);
        (good[1], p.leafPath, p.leafPathLength) = path(d, at[5]);
        (good[2], p.treeSize) = PorRecords.uintIn(d, at[6], 0, PorRecords.MAX_COUNT);
        (good[3], p.leafIndex) = PorRecords.uintIn(d, at[7], 0, PorRecords.MAX_COUNT);
        (good[4], p.challengeId) = PorCbor.hashAt(d, at[8]);
        (good[5], p.componentPath, p.componentPathLength) = path(d, at[9]);
        bool rootOk;
        (rootOk, p.componentRoot) = PorCbor.hashAt(d, at[10]);
        ok = p.kind != 0 && leaf && component && rootOk && good[0] && good[1] && good[2] && good[3]
            && good[4] && good[5] && PorCbor.isText(d, at[2], "por.InclusionProof/1");
    }

    /// The root a path gives (RFC 9162 §2.1.3.2), or a merkle.* id.
    function root(bytes calldata d, bytes32 h, uint256 index, uint256 size, uint256 first, uint256 n)
        internal
        view
        returns (bytes32 err, bytes32)
    {
        if (index >= size) return (INDEX_RANGE, 0);
        uint256 inner = PorMerkle.bitLength(index ^ (size - 1));
        if (n != inner + PorMerkle.popCount(index >> inner)) return (PROOF_LENGTH, 0);
        for (uint256 i = 0; i < n; i++) {
            bytes32 sibling = bytes32(d[first + 34 * i + 2:first + 34 * i + 34]);
            bool left = i >= inner || (index >> i) & 1 == 1;
            h = left ? PorMerkle.nodeHash(sibling, h) : PorMerkle.nodeHash(h, sibling);
        }
        return (0, h);
    }

    /// SHA-256 of the map at [start, end) without its `challenge_id` entry (SPEC §10.3):
    /// the map's count is one less (one-byte heads: at most 23 fields) and the entry's
    /// bytes (key and 32-byte value) are cut out.
    function bodyHash(bytes calldata d, uint256 start, uint256 end, uint256 idValue)
        internal
        pure
        returns (bytes32)
    {
        uint256 keyStart = idValue - 13; // "challenge_id": 0x6c and 12 bytes
        return sha256(
            abi.encodePacked(bytes1(uint8(d[start]) - 1), d[start + 1:keyStart], d[idValue + 34:end])
        );
    }

    /// verify_inclusion_proof for a part of kind `want` under `porRoot` (SPEC §10.4.1).
    function verify(bytes calldata d, Part memory p, uint8 want, bytes32 porRoot)
        internal
        view
        returns (bytes32 err)
    {
        if (p.kind != want) return KIND;
        bytes memory component = want == PROMPT_SPEC
            ? bytes("prompt_spec")
            : want == EVIDENCE_LEAF ? bytes("evidence") : want == REASONING_LEAF ? bytes("reasoning") : bytes("verdict");
        if (!PorCbor.isText(d, p.component, component)) return COMPONENT;
        if (p.porRoot != porRoot) return POR_ROOT;
        bytes32 got;
        (err, got) = root(d, PorMerkle.leafHash(d[p.leaf:p.leaf + p.leafLength]), p.leafIndex,
            p.treeSize, p.leafPath, p.leafPathLength);
        if (err != 0) return err;
        if (got != p.componentRoot) return LEAF_PATH;
        uint256 position = want == PROMPT_SPEC ? 1 : want == EVIDENCE_LEAF ? 2 : want == REASONING_LEAF ? 4 : 5;
        (err, got) = root(d, PorMerkle.componentLeafHash(p.componentRoot, uint64(p.treeSize)),
            position, COMPONENTS, p.componentPath, p.componentPathLength);
        if (err != 0) return err;
        if (got != porRoot) return COMPONENT_PATH;
        if (bodyHash(d, p.start, p.end, p.challengeIdAt) != p.challengeId) return CHALLENGE_ID;
        return 0;
    }
}
