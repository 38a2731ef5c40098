// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorFormsIndex as I} from "./PorFormsIndex.sol";

/// @title PorDeduceFormWrite: the DEDUCE form's writer, split out of `PorDeduceForm` (s42
/// `dedbound`: EIP-170 left no room for the bounded lookups; ADR 0017, addendum (s42,
/// dedbound)). It holds no state and trusts its caller: only the executor that deployed
/// it calls it (an answer to anyone else proves nothing).
/// @notice `hash(...)`: keccak256 of the DEDUCE form as deduce_step writes it (SPEC §5.6):
/// the committed head up to the evidence ids (checked equal to the summary by the
/// caller), the output's words, the description.
contract PorDeduceFormWrite {
    /// `v`: the words the executor found: [0] the offset of L[H](evidence_ids) in `head`,
    /// [1] the predicate, [2] the metric's H(key), [3] the status, [4] the uncovered
    /// aggregates' count, [5] flags (1 decided, 2 conflict, 4 fallback used, 8 all
    /// provenance, 16 a numeric value, 32 a timestamp), [6] the event (1 false, 2 true),
    /// [7] the timestamp. `head`: the DEDUCE form up to its evidence ids' end;
    /// `uncovered`: the uncovered aggregates' T(inputs.requirement_id) concatenated;
    /// `num`: the canonical text of numeric_value; `metric`: the metric's T as committed.
    function hash(bytes calldata head, bytes calldata texts, bytes calldata num, bytes32[] calldata read,
        uint256[8] calldata v) external pure returns (bool, bytes32)
    {
        if (!_same(read, head[v[0]:])) return (false, 0);
        return (true, _hash(head, texts, num, v));
    }

    /// `texts`: the metric's T, then the uncovered aggregates' T(inputs.requirement_id).
    function _hash(bytes calldata head, bytes calldata texts, bytes calldata num, uint256[8] calldata v)
        private
        pure
        returns (bytes32)
    {
        uint256 m = 32 + ((uint256(bytes32(texts[:32])) + 31) & ~uint256(31)); // the metric's T
        bytes memory b = bytes.concat(_output(head, texts[m:], v), _variables(num, v), bytes32(0));
        return keccak256(bytes.concat(b, _description(texts[:m], v[1], v[5] & 1 != 0)));
    }

    /// The form up to its output's evidence ids (a copy of the head's).
    function _output(bytes calldata head, bytes calldata uncovered, uint256[8] calldata v)
        private
        pure
        returns (bytes memory)
    {
        return bytes.concat(head, abi.encode(v[1], v[2], v[3], v[4]), uncovered, _flags(v[5]), head[v[0]:]);
    }

    /// source_summary: the read ids (`H` words; requirement order, bundle order within
    /// one), each once, against the committed L[H](evidence_ids) `committed`. Up to 16
    /// read ids each is compared with those before it; above, the read ids are sorted
    /// (`PorFormsIndex`) and the first place of each word kept: O(m log m).
    function _same(bytes32[] calldata ids, bytes calldata committed) private pure returns (bool) {
        uint256 m = ids.length;
        uint256 n = uint256(bytes32(committed[:32])); // the caller's checked count: 32 + 32 n bytes
        uint256 count;
        if (m <= 16) {
            for (uint256 i; i < m; ++i) {
                bytes32 w = ids[i];
                bool seen;
                for (uint256 j; j < i && !seen; ++j) seen = ids[j] == w;
                if (seen) continue;
                if (count == n || _at(committed, count) != w) return false;
                ++count;
            }
            return count == n;
        }
        bytes32[] memory read = ids;
        uint256[] memory ord = I.order(read);
        bool[] memory keep = new bool[](m);
        for (uint256 i; i < m; ++i) keep[ord[i]] = i == 0 || read[ord[i]] != read[ord[i - 1]];
        for (uint256 i; i < m; ++i) {
            if (!keep[i]) continue;
            if (count == n || _at(committed, count) != read[i]) return false;
            ++count;
        }
        return count == n;
    }

    /// Word `k` of the committed ids (after their count).
    function _at(bytes calldata committed, uint256 k) private pure returns (bytes32 w) {
        assembly {
            w := calldataload(add(committed.offset, shl(5, add(k, 1))))
        }
    }

    /// insufficient, conflict, fallback_used, provenance.
    function _flags(uint256 f) private pure returns (bytes memory) {
        return abi.encode(f & 1 == 0, f & 2 != 0, f & 4 != 0, f & 8 != 0);
    }

    /// P[B](event) P[D](numeric_value) P[W](timestamp).
    function _variables(bytes calldata t, uint256[8] calldata v) private pure returns (bytes memory) {
        if (v[5] & 1 == 0) return abi.encode(0, 0, 0);
        bytes memory num = v[5] & 16 != 0 ? abi.encodePacked(uint256(1), _d(t)) : abi.encode(0);
        bytes memory st = v[5] & 32 != 0 ? abi.encode(1, v[7]) : abi.encode(0);
        return bytes.concat(abi.encode(1, v[6] == 2), num, st);
    }

    /// `D` of a canonical decimal text: its word (sign, scale, digit count), then its
    /// digits without the sign, the point and leading zeros, zero-padded.
    function _d(bytes memory t) private pure returns (bytes memory out) {
        out = new bytes(96);
        assembly {
            let len := mload(t)
            let neg := eq(byte(0, mload(add(t, 32))), 0x2d)
            let scale := 0
            let n := 0
            let w := add(out, 64)
            for { let i := neg } lt(i, len) { i := add(i, 1) } {
                let ch := byte(0, mload(add(add(t, 32), i)))
                switch ch
                case 0x2e { scale := sub(sub(len, i), 1) }
                default {
                    if or(n, or(iszero(eq(ch, 0x30)), eq(add(i, 1), len))) {
                        mstore8(add(w, n), ch)
                        n := add(n, 1)
                    }
                }
            }
            mstore(add(out, 32), or(or(shl(255, neg), shl(232, scale)), n))
            if lt(n, 33) { mstore(out, 64) }
        }
    }

    /// T("deduce <predicate> on <metric>: variables computed" / "...: insufficient evidence").
    function _description(bytes calldata metric, uint256 predicate, bool decided) private pure returns (bytes memory) {
        uint256 len = uint256(bytes32(metric[:32]));
        bytes memory text = abi.encodePacked(
            "deduce ", _predicateName(predicate), " on ", metric[32:32 + len], ": ",
            decided ? "variables computed" : "insufficient evidence"
        );
        return bytes.concat(bytes32(text.length), text, new bytes((32 - text.length % 32) % 32));
    }

    /// The predicate's name: its (offset, length) in one packed text.
    function _predicateName(uint256 p) private pure returns (bytes memory name) {
        bytes memory all = "event_observednumeric_thresholdnumeric_rangefield_comparisontext_equalstimestamp_threshold";
        uint256 at = (0x5a473c2c1f0e00 >> (8 * p)) & 0xff;
        uint256 len = ((0x5a473c2c1f0e00 >> (8 * p + 8)) & 0xff) - at;
        name = new bytes(len);
        assembly {
            mstore(add(name, 32), mload(add(add(all, 32), at))) // len <= 19: one word (packed by length)
        }
    }
}
