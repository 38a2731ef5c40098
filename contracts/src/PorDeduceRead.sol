// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorDeduceSpec as S} from "./PorDeduceSpec.sol";
import {PorInclusion} from "./PorInclusion.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorIds} from "./PorIds.sol";

/// @title PorDeduceRead: what `PorDeduceStep` reads and writes, item by item: the cited
/// steps' output shapes (as `por.auditor.step_io` reads them) and canonical CBOR
/// heads and items (SPEC §2); the offsets `PorDeduceExec` hands to `PorDeduceCore`.
library PorDeduceRead {
    uint256 internal constant STEP_FIELDS = 8;
    /// Slots per prior step in `flatten`: leaf offset, known computation (0: none), offsets.
    uint256 internal constant PRIOR = 2 + STEP_FIELDS;

    /// The offsets `run` reads, packed: the step leaf's offset, the PromptSpec leaf's
    /// offset and length, the number of prior steps, the step's value offsets, then each
    /// prior step's leaf offset, its known computation (`PorRecords.computation`'s kind,
    /// 0 when unknown or its output has not the shape `shapeOk` reads) and value offsets (a deduce step carries no item).
    function flatten(bytes calldata d, PorOneStepCheck.Parts memory parts, uint256[][] memory records, uint256[] memory at)
        internal
        pure
        returns (uint256[] memory flat)
    {
        uint256 np = parts.priorCount;
        flat = new uint256[](4 + STEP_FIELDS + np * PRIOR);
        (flat[0], flat[1], flat[2], flat[3]) = (parts.all[0].leaf, parts.all[1].leaf, parts.all[1].leafLength, np);
        for (uint256 k = 0; k < STEP_FIELDS; k++) flat[4 + k] = at[k];
        uint256 first = 2 + parts.evidenceCount;
        for (uint256 i = 0; i < np; i++) {
            uint256 o = 4 + STEP_FIELDS + i * PRIOR;
            PorInclusion.Part memory part = parts.all[first + i];
            flat[o] = part.leaf;
            (bool known, bytes32 kind,) = PorRecords.computation(d[part.leaf:part.leaf + part.leafLength], records[first + i]);
            bool shaped = known && shapeOk(d, part.leaf + records[first + i][PorRecords.STEP_OUTPUT], kind);
            flat[o + 1] = shaped ? uint256(kind) : 0;
            for (uint256 k = 0; k < STEP_FIELDS; k++) flat[o + 2 + k] = records[first + i][k];
        }
    }

    /// The output at `o` of a prior step computing `kind` has the shape step_io reads: an
    /// aggregate's covered and provenance_ok bool and fields a list of field maps; a
    /// contradictions step's conflicts a list of maps with text kind and key. (Checked
    /// in `flatten`, so in `PorDeduceExec`, for code size.)
    function shapeOk(bytes calldata d, uint256 o, bytes32 kind) internal pure returns (bool) {
        if (kind == PorIds.AGGREGATE) {
            (uint256 f, uint256 cov, uint256 prov) = S.aggregateOutput(d, o);
            (bool isCov,) = boolOf(d, cov);
            (bool isProv,) = boolOf(d, prov);
            return isCov && isProv && listOf(d, f, true);
        }
        return kind == PorIds.CONTRADICTIONS && listOf(d, S.get(d, o, uint256(bytes32("conflicts")) | 9), false);
    }

    /// A list of field maps (`fields`) or of conflict maps.
    function listOf(bytes calldata d, uint256 pos, bool fields) internal pure returns (bool) {
        (bool isArray, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (pos == 0 || !isArray) return false;
        for (uint256 j = 0; j < n; j++) {
            if (!(fields ? fieldShape(d, p) : conflictShape(d, p))) return false;
            p = PorCbor.skip(d, p);
        }
        return true;
    }

    /// A field map: key, kind, status text; fallback_used bool; evidence_ids texts (the
    /// five read in one walk: `PorDeduceSpec.next`, in §2 key order).
    function fieldShape(bytes calldata d, uint256 p) internal pure returns (bool) {
        (bool isMap,,) = PorCbor.container(d, p, PorCbor.MAP);
        if (!isMap) return false;
        (uint256 key, uint256 kind, uint256 status) = S.keyKindStatus(d, p);
        if (!isText(d, key) || !isText(d, kind) || !isText(d, status)) return false;
        (uint256 ids, uint256 left) = S.next(d, p, 0, 0, uint256(bytes32("evidence_ids")) | 12);
        (uint256 fallbackUsed,) = S.next(d, p, ids, left, uint256(bytes32("fallback_used")) | 13);
        (bool fb,) = boolOf(d, fallbackUsed);
        return fb && textList(d, ids);
    }

    function conflictShape(bytes calldata d, uint256 p) internal pure returns (bool) {
        (bool isMap,,) = PorCbor.container(d, p, PorCbor.MAP);
        return isMap && isText(d, S.get(d, p, uint256(bytes32("kind")) | 4)) && isText(d, S.get(d, p, uint256(bytes32("key")) | 3));
    }

    /// A CBOR head (SPEC §2: shortest form).
    function head(uint8 major, uint256 n) internal pure returns (bytes memory) {
        if (n < 24) return abi.encodePacked(uint8(major << 5) | uint8(n));
        uint256 w = n <= 0xff ? 0 : n <= 0xffff ? 1 : n <= 0xffffffff ? 2 : 3; // 1, 2, 4, 8 bytes
        bytes memory h = new bytes(1 + (1 << w));
        h[0] = bytes1(uint8(major << 5) | uint8(24 + w));
        for (uint256 i = 1 << w; i > 0; i--) {
            h[i] = bytes1(uint8(n));
            n >>= 8;
        }
        return h;
    }

    function boolItem(bool v) internal pure returns (bytes1) {
        return v ? bytes1(0xf5) : bytes1(0xf4);
    }

    /// The encoded item at `pos`.
    function item(bytes calldata d, uint256 pos) internal pure returns (bytes memory) {
        return d[pos:PorCbor.skip(d, pos)];
    }

    function textOf(bytes calldata d, uint256 pos) internal pure returns (bytes memory) {
        (, uint256 off, uint256 len) = PorCbor.str(d, pos, PorCbor.TEXT);
        return d[off:off + len];
    }

    function sameBytes(bytes calldata d, uint256 pos, bytes memory want) internal pure returns (bool) {
        uint256 end = PorCbor.skip(d, pos);
        return end - pos == want.length && keccak256(d[pos:end]) == keccak256(want);
    }

    function isText(bytes calldata d, uint256 pos) internal pure returns (bool ok) {
        if (pos == 0) return false;
        (ok,,) = PorCbor.str(d, pos, PorCbor.TEXT);
    }

    function isTrue(bytes calldata d, uint256 pos) internal pure returns (bool) {
        return pos != 0 && uint8(d[pos]) == 0xf5;
    }

    function boolOf(bytes calldata d, uint256 pos) internal pure returns (bool ok, bool v) {
        if (pos == 0) return (false, false);
        return PorCbor.boolAt(d, pos);
    }

    function textList(bytes calldata d, uint256 pos) internal pure returns (bool) {
        (bool isArray, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (pos == 0 || !isArray) return false;
        for (uint256 i = 0; i < n; i++) {
            if (!isText(d, p)) return false;
            p = PorCbor.skip(d, p);
        }
        return true;
    }

    /// The encoded array of the items at the offsets packed in `offsets`.
    function items(bytes calldata d, bytes memory offsets) internal pure returns (bytes memory a) {
        uint256 n = offsets.length / 32;
        a = head(4, n);
        for (uint256 i = 0; i < n; i++) {
            uint256 pos;
            assembly ("memory-safe") {
                pos := mload(add(add(offsets, 32), mul(i, 32)))
            }
            a = abi.encodePacked(a, item(d, pos));
        }
    }

    function contains(bytes32[] memory a, uint256 n, bytes32 h) internal pure returns (bool) {
        for (uint256 i = 0; i < n; i++) {
            if (a[i] == h) return true;
        }
        return false;
    }
}
