// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCborKeys as K} from "./PorCborKeys.sol";
import {PorDecimal} from "./PorDecimal.sol";
import {PorKeyIndex as I} from "./PorKeyIndex.sol";
import {PorRecords} from "./PorRecords.sol";

/// @title PorDeduceSpec: the PromptSpec fields the `deduce` step reads (SPEC §4.2, §12.4.1,
/// §14.8), and the exact decimal arithmetic its predicates use (SPEC §3.2).
/// @notice The PromptSpec leaf is read only after `PorCbor.check` accepted it (a leaf
/// that is not §2 is won one_step.invalid_record); each field
/// read is checked for its §4.2 type and range (`read` false: won one_step.invalid_record).
/// Decimals are `PorDecimal.Dec` (two words: every sum of a metric and eight terms is
/// exact, SPEC §3.2).
library PorDeduceSpec {
    uint8 internal constant EVENT = 1;
    uint8 internal constant THRESHOLD = 2;
    uint8 internal constant RANGE = 3;
    uint8 internal constant FIELD = 4;
    uint8 internal constant TEXT_EQUALS = 5;
    uint8 internal constant TIME = 6;

    bytes32 internal constant BOOLEAN = keccak256("boolean");
    bytes32 internal constant NUMERIC = keccak256("numeric");
    bytes32 internal constant TEXT = keccak256("text");
    bytes32 internal constant TIMESTAMP = keccak256("timestamp");

    /// The fields read (`*Pos`: offsets in the proof of the text items).
    struct Sem {
        uint8 predicate;
        uint256 predicatePos;
        uint256 metricPos;
        uint8 comparison; // 1 >, 2 >=, 3 <, 4 <=, 5 ==
        PorDecimal.Dec threshold;
        PorDecimal.Dec lower;
        PorDecimal.Dec upper;
        bool lowerInclusive;
        bool upperInclusive;
        uint256 expectedPos;
        bool absentMeansNo;
        uint256 k; // sources_required; 0 when absent
        // needed fields (SPEC §12.4.1): metric, terms, other_metric, preconditions
        bytes32[] keys;
        bytes32[] kinds;
        uint8[] roles; // 0 metric, 1 term +, 2 term -, 3 other_metric, 4 precondition
        uint256[] equalsPos; // precondition: its `equals` text item
        bool[] otherwiseNo;
        // data requirements
        uint256[] reqIdPos;
        bool[] chain;
        uint256[] targets;
    }

    /// The key words of the PromptSpec's two top-level fields deduce reads.
    uint256 internal constant REQUIREMENTS = uint256(bytes32("data_requirements")) | 17;
    uint256 internal constant SEMANTICS = uint256(bytes32("prediction_semantics")) | 20;

    /// The prediction semantics and requirements of a PromptSpec leaf whose
    /// `data_requirements` value is at `r` and `prediction_semantics` value at `p` (offsets
    /// of `d`; 0 absent, `PorDeduceRead.specTop`); ok false when a field read is missing or
    /// malformed. The leaf passed the §2 reader (`PorDeduceExec` checks it before the call).
    function read(bytes calldata d, uint256 r, uint256 p) internal pure returns (bool ok, Sem memory s) {
        if (p == 0 || r == 0 || !semantics(d, p, s)) return (false, s);
        return (requirements(d, r, s), s);
    }

    function semantics(bytes calldata d, uint256 p, Sem memory s) private pure returns (bool) {
        uint256[14] memory ix = I.semantics(d, p); // one walk; each field read from it
        s.predicatePos = ix[I.S_PREDICATE];
        s.metricPos = ix[I.S_METRIC];
        if (s.predicatePos == 0 || !isId(d, s.metricPos)) return false;
        s.predicate = predicateCode(d, s.predicatePos);
        uint8 pr = s.predicate;
        if (pr == 0) return false;
        if (pr == THRESHOLD || pr == FIELD || pr == TIME) {
            s.comparison = comparisonCode(d, ix[I.S_COMPARISON]);
            if (s.comparison == 0) return false;
        }
        bool ok = true;
        if (pr == THRESHOLD || pr == TIME) {
            uint256 t = ix[I.S_THRESHOLD];
            (ok, s.threshold) = parseAt(d, t);
            PorDecimal.Dec memory t0 = s.threshold;
            if (ok && pr == TIME) ok = !t0.neg && t0.scale == 0 && t0.hi == 0 && t0.lo <= PorRecords.MAX_COUNT;
        }
        if (ok && pr == RANGE) ok = range(d, ix, s);
        if (ok && pr == TEXT_EQUALS) {
            s.expectedPos = ix[I.S_EXPECTED_TEXT];
            ok = s.expectedPos != 0 && textUpTo(d, s.expectedPos, 256);
        }
        uint256 a = ix[I.S_ABSENT_MEANS_NO];
        if (ok && a != 0) ok = uint8(d[a]) == 0xf5;
        s.absentMeansNo = a != 0;
        uint256 k = ix[I.S_SOURCES_REQUIRED];
        if (ok && k != 0) (ok, s.k) = PorRecords.uintIn(d, k, 1, 64);
        return ok && needed(d, ix, s);
    }

    function range(bytes calldata d, uint256[14] memory ix, Sem memory s) private pure returns (bool ok) {
        (ok, s.lower) = parseAt(d, ix[I.S_LOWER]);
        if (ok) (ok, s.upper) = parseAt(d, ix[I.S_UPPER]);
        (bool lo, bool loSet) = optBool(d, ix[I.S_LOWER_INCLUSIVE]);
        (bool hi, bool hiSet) = optBool(d, ix[I.S_UPPER_INCLUSIVE]);
        s.lowerInclusive = !loSet || lo;
        s.upperInclusive = hiSet && hi;
        return ok && validBool(d, ix[I.S_LOWER_INCLUSIVE])
            && validBool(d, ix[I.S_UPPER_INCLUSIVE]);
    }

    /// Where the optional lists are: terms, other_metric, preconditions.
    struct Lists {
        uint256 nt;
        uint256 ft;
        uint256 o;
        uint256 nc;
        uint256 fc;
    }

    /// The needed fields, in the order deduce reads them.
    function needed(bytes calldata d, uint256[14] memory ix, Sem memory s) private pure returns (bool) {
        Lists memory l;
        bool okT;
        bool okC;
        (okT, l.nt, l.ft) = optList(d, s.predicate == THRESHOLD || s.predicate == RANGE ? ix[I.S_TERMS] : 0);
        (okC, l.nc, l.fc) = optList(d, ix[I.S_PRECONDITIONS]);
        l.o = s.predicate == FIELD ? ix[I.S_OTHER_METRIC] : 0;
        if (!okT || !okC || (s.predicate == FIELD && !isId(d, l.o))) return false;
        uint256 n = 1 + l.nt + (l.o != 0 ? 1 : 0) + l.nc;
        s.keys = new bytes32[](n);
        s.kinds = new bytes32[](n);
        s.roles = new uint8[](n);
        s.equalsPos = new uint256[](n);
        s.otherwiseNo = new bool[](n);
        s.keys[0] = textHash(d, s.metricPos);
        uint8 pr = s.predicate;
        s.kinds[0] = pr == EVENT ? BOOLEAN : pr == TEXT_EQUALS ? TEXT : pr == TIME ? TIMESTAMP : NUMERIC;
        return fill(d, s, l);
    }

    function fill(bytes calldata d, Sem memory s, Lists memory l) private pure returns (bool) {
        uint256 j = 1;
        for (uint256 i = 0; i < l.nt; i++) {
            if (!term(d, l.ft, s, j++)) return false;
            l.ft = PorCbor.skip(d, l.ft);
        }
        if (l.o != 0) {
            (s.keys[j], s.kinds[j], s.roles[j]) = (textHash(d, l.o), NUMERIC, 3);
            j++;
        }
        for (uint256 i = 0; i < l.nc; i++) {
            if (!precondition(d, l.fc, s, j++)) return false;
            l.fc = PorCbor.skip(d, l.fc);
        }
        return true;
    }

    /// {op: "+" | "-", metric: id}
    function term(bytes calldata d, uint256 ft, Sem memory s, uint256 j) private pure returns (bool) {
        uint256 op = get(d, ft, uint256(bytes32("op")) | 2);
        uint256 m = get(d, ft, uint256(bytes32("metric")) | 6);
        bool plus = op != 0 && textHash(d, op) == keccak256("+");
        if (!(plus || (op != 0 && textHash(d, op) == keccak256("-"))) || !isId(d, m)) return false;
        (s.keys[j], s.kinds[j], s.roles[j]) = (textHash(d, m), NUMERIC, plus ? 1 : 2);
        return true;
    }

    /// {key: id, equals: text, otherwise: "INVALID" | "NO" (absent: INVALID)}
    function precondition(bytes calldata d, uint256 fc, Sem memory s, uint256 j) private pure returns (bool) {
        uint256 key = get(d, fc, uint256(bytes32("key")) | 3);
        uint256 eq = get(d, fc, uint256(bytes32("equals")) | 6);
        uint256 ow = get(d, fc, uint256(bytes32("otherwise")) | 9);
        (bool isEq,,) = PorCbor.str(d, eq, PorCbor.TEXT);
        bool no = ow != 0 && textHash(d, ow) == keccak256("NO");
        if (!isId(d, key) || eq == 0 || !isEq || (ow != 0 && !no && textHash(d, ow) != keccak256("INVALID"))) {
            return false;
        }
        (s.keys[j], s.kinds[j], s.roles[j]) = (textHash(d, key), TEXT, 4);
        (s.equalsPos[j], s.otherwiseNo[j]) = (eq, no);
        return true;
    }

    function requirements(bytes calldata d, uint256 r, Sem memory s) private pure returns (bool) {
        (bool isArray, uint256 n, uint256 q) = PorCbor.container(d, r, PorCbor.ARRAY);
        if (!isArray || n == 0 || n > 8) return false;
        s.reqIdPos = new uint256[](n);
        s.chain = new bool[](n);
        s.targets = new uint256[](n);
        for (uint256 i = 0; i < n; i++) {
            (bool ok, uint256 end) = requirement(d, q, s, i);
            if (!ok) return false;
            q = end;
        }
        return true;
    }

    /// The requirement at `q`: its requirement_id, source_targets and selection_policy's
    /// strategy, read from one walk of it (`PorKeyIndex`); (ok, the offset after it).
    function requirement(bytes calldata d, uint256 q, Sem memory s, uint256 i) private pure returns (bool, uint256) {
        (uint256[] memory ix, uint256 end) = I.indexTo(d, q);
        uint256 id = I.find(ix, uint256(bytes32("requirement_id")) | 14);
        uint256 targets = I.find(ix, uint256(bytes32("source_targets")) | 14);
        (bool known, bool chain) = strategyOf(d, I.find(ix, uint256(bytes32("selection_policy")) | 16));
        (bool targetsOk, uint256 t,) = PorCbor.container(d, targets, PorCbor.ARRAY);
        if (!isId(d, id) || !known || targets == 0 || !targetsOk || t == 0 || t > 10) return (false, end);
        s.reqIdPos[i] = id;
        s.chain[i] = chain;
        s.targets[i] = t;
        return (true, end);
    }

    /// The selection policy at `policy` (0: absent) has a known strategy: (known, it is
    /// fallback_chain).
    function strategyOf(bytes calldata d, uint256 policy) private pure returns (bool, bool) {
        uint256 strategy = policy == 0 ? 0 : get(d, policy, uint256(bytes32("strategy")) | 8);
        if (strategy == 0) return (false, false);
        bytes32 h = textHash(d, strategy);
        bool chain = h == keccak256("fallback_chain");
        return (chain || h == keccak256("single_best") || h == keccak256("multi_source_quorum"), chain);
    }

    // --- small readers -----------------------------------------------------------------

    function predicateCode(bytes calldata d, uint256 pos) private pure returns (uint8) {
        bytes32 h = textHash(d, pos); // hashed once, compared with each name's hash
        if (h == keccak256("event_observed")) return EVENT;
        if (h == keccak256("numeric_threshold")) return THRESHOLD;
        if (h == keccak256("numeric_range")) return RANGE;
        if (h == keccak256("field_comparison")) return FIELD;
        if (h == keccak256("text_equals")) return TEXT_EQUALS;
        if (h == keccak256("timestamp_threshold")) return TIME;
        return 0;
    }

    function comparisonCode(bytes calldata d, uint256 pos) private pure returns (uint8) {
        if (pos == 0) return 0;
        bytes32 h = textHash(d, pos);
        if (h == keccak256(">")) return 1;
        if (h == keccak256(">=")) return 2;
        if (h == keccak256("<")) return 3;
        if (h == keccak256("<=")) return 4;
        if (h == keccak256("==")) return 5;
        return 0;
    }

    /// An optional list of 1..8 items: (ok, count, first); absent (pos 0) is ok and empty.
    function optList(bytes calldata d, uint256 pos) private pure returns (bool, uint256, uint256) {
        if (pos == 0) return (true, 0, 0);
        (bool ok, uint256 n, uint256 first) = PorCbor.container(d, pos, PorCbor.ARRAY);
        return (ok && n >= 1 && n <= 8, n, first);
    }

    function optBool(bytes calldata d, uint256 pos) private pure returns (bool v, bool set) {
        if (pos == 0) return (false, false);
        return (uint8(d[pos]) == 0xf5, true);
    }

    function validBool(bytes calldata d, uint256 pos) private pure returns (bool ok) {
        if (pos == 0) return true;
        (ok,) = PorCbor.boolAt(d, pos);
    }

    function isId(bytes calldata d, uint256 pos) internal pure returns (bool ok) {
        if (pos == 0) return false;
        (ok,,) = PorRecords.isId(d, pos);
    }

    /// Text of at most `max` code points.
    function textUpTo(bytes calldata d, uint256 pos, uint256 max) private pure returns (bool) {
        (bool ok, uint256 off, uint256 len) = PorCbor.str(d, pos, PorCbor.TEXT);
        if (!ok) return false;
        uint256 points = 0;
        for (uint256 i = off; i < off + len; i++) {
            if (uint8(d[i]) & 0xc0 != 0x80) points++;
        }
        return points <= max;
    }

    /// The value of the key whose key word (`PorCborKeys.wordAt`: its text left-aligned, its
    /// length in the low byte) is `key` in the map at `pos` (0 when absent or not a map):
    /// `PorCbor.get` by one word compared, one loop for every key this kind reads.
    /// Each key's head is read and its word compared inline (no call per entry); values are
    /// skipped with `PorCbor.skip`.
    function get(bytes calldata d, uint256 pos, uint256 key) internal pure returns (uint256 v) {
        (bool ok, uint256 count, uint256 p) = PorCbor.container(d, pos, PorCbor.MAP);
        if (ok) (v,) = seek(d, p, count, key);
    }

    /// `get(d, m, key)` resumed after an earlier key's value at `prev` (`next`'s answer, with
    /// the `left` entries after it; prev 0: the whole map): keys in §2 order, so a key
    /// sorting after that one is only among those. (The value, the entries after it.)
    function next(bytes calldata d, uint256 m, uint256 prev, uint256 left, uint256 key)
        internal
        pure
        returns (uint256, uint256)
    {
        if (prev != 0) return seek(d, PorCbor.skip(d, prev), left, key);
        (bool ok, uint256 count, uint256 p) = PorCbor.container(d, m, PorCbor.MAP);
        return ok ? seek(d, p, count, key) : (0, 0);
    }

    /// The value of `key` among the `count` map entries from `p`, and the entries after it.
    function seek(bytes calldata d, uint256 p, uint256 count, uint256 key) private pure returns (uint256, uint256) {
        while (count != 0) {
            uint256 at;
            bool hit;
            assembly ("memory-safe") {
                count := sub(count, 1) // not 0: no underflow
                let len := and(byte(0, calldataload(add(d.offset, p))), 31)
                at := add(p, 1)
                if gt(len, 23) {
                    let width := shl(sub(len, 24), 1)
                    len := shr(sub(256, shl(3, width)), calldataload(add(d.offset, at)))
                    at := add(at, width)
                }
                hit := and(lt(len, 32), eq(or(and(calldataload(add(d.offset, at)), not(shr(shl(3, len), not(0)))), len), key))
                at := add(at, len)
            }
            if (hit) return (at, count);
            p = PorCbor.skip(d, at);
        }
        return (0, 0);
    }

    /// An aggregate field map's key, kind and status (0: absent), in one walk.
    function keyKindStatus(bytes calldata d, uint256 p) internal pure returns (uint256 key, uint256 kind, uint256 status) {
        uint256 left;
        (key, left) = next(d, p, 0, 0, uint256(bytes32("key")) | 3);
        (kind, left) = next(d, p, key, left, uint256(bytes32("kind")) | 4);
        (status,) = next(d, p, kind, left, uint256(bytes32("status")) | 6);
    }

    /// keccak256 of the text at `pos` (its bytes, not its head); 0 for another type.
    /// (Its head read as `PorCbor.str` reads it, inline; hashed in free memory, the free
    /// memory pointer not moved: no copy is kept, so memory does not grow with every text
    /// hashed.)
    function textHash(bytes calldata d, uint256 pos) internal pure returns (bytes32 h) {
        assembly ("memory-safe") {
            let ib := byte(0, calldataload(add(d.offset, pos)))
            if eq(shr(5, ib), 3) {
                let len := and(ib, 31)
                let off := add(pos, 1)
                if gt(len, 23) {
                    let width := shl(sub(len, 24), 1)
                    len := shr(sub(256, shl(3, width)), calldataload(add(d.offset, off)))
                    off := add(off, width)
                }
                let m := mload(0x40)
                calldatacopy(m, add(d.offset, off), len)
                h := keccak256(m, len)
            }
        }
    }

    // --- exact decimals (PorDecimal, SPEC §3.2) -------------------------------------------

    /// The canonical decimal text item at `pos` (0: absent, not ok).
    function parseAt(bytes calldata d, uint256 pos) internal pure returns (bool ok, PorDecimal.Dec memory v) {
        if (pos == 0) return (false, v);
        return PorDecimal.parseText(d, pos);
    }

    /// `v <comparison> b`, exactly.
    function compare(PorDecimal.Dec memory v, uint8 comparison, PorDecimal.Dec memory b) internal pure returns (bool) {
        int256 c = PorDecimal.cmp(v, b);
        if (comparison == 1) return c > 0;
        if (comparison == 2) return c >= 0;
        if (comparison == 3) return c < 0;
        if (comparison == 4) return c <= 0;
        return c == 0;
    }
}
