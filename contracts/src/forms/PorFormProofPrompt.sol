// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "../PorCbor.sol";
import {PorCborTop} from "../PorCborTop.sol";
import {PorFormProofDeduce as D} from "./PorFormProofDeduce.sol";
import {PorFormProofPromptRead as R} from "./PorFormProofPromptRead.sol";

/// @title PorFormProofPrompt: `F` COMMON (SPEC §5.6.3, tag 1) and REQUIREMENT (§5.6.4, tag 2)
/// of a `por.PromptSpec/1` leaf, built from its por-cbor/1 bytes in memory word by word (ADR
/// 0017, s43 addendum `psfamily`; ADR 0018: a market reads only the record of the PromptSpec
/// hash it trades on, checked valid off chain before trading).
/// @notice `formAt(leaf, j)` answers (valid, defined, F) of form index `j` of the PromptSpec
/// (COMMON at 0, REQUIREMENT of `data_requirements[j - 1]` at `j >= 1`). It decides `F`, not
/// the PromptSpec's validity (§4.2, §18.3): `valid` is false only when the leaf is not one
/// por-cbor/1 map whose `data_requirements` is an array (the reads the form index rule
/// needs); every other read that fails (a key absent, a value of another type, an enum text
/// outside its set, an integer outside §4's range, a non-canonical decimal) is `defined`
/// false (`form.none`), as Python's `F` answers. `j` past the requirements (`j > r`) is
/// (true, false, empty): the envelope's index rule (`requirements`) answers it. Nothing
/// reverts on any leaf bytes. The build allocates nothing: it writes the form from the free
/// memory pointer on and moves the pointer past it at the end (`D.close`).
library PorFormProofPrompt {
    uint256 internal constant COMMON = 1;
    uint256 internal constant REQUIREMENT = 2;

    uint256 private constant K_PREDICTION_SEMANTICS = 21 << 248 | 0x7470726564696374696f6e5f73656d616e74696373;
    uint256 private constant K_MARKET = 7 << 248 | 0x666d61726b6574;
    uint256 private constant K_CONFLICT_POLICY = 16 << 248 | 0x6f636f6e666c6963745f706f6c696379;
    uint256 private constant K_RESOLUTION_WINDOW = 18 << 248 | 0x717265736f6c7574696f6e5f77696e646f77;
    uint256 private constant K_RESOLUTION_RULES = 17 << 248 | 0x707265736f6c7574696f6e5f72756c6573;
    uint256 private constant K_RULES = 6 << 248 | 0x6572756c6573;
    uint256 private constant K_CONFIDENCE_POLICY = 18 << 248 | 0x71636f6e666964656e63655f706f6c696379;
    uint256 private constant K_DATA_REQUIREMENTS = 18 << 248 | 0x71646174615f726571756972656d656e7473;
    uint256 private constant K_METRIC = 7 << 248 | 0x666d6574726963;
    uint256 private constant K_SOURCES_REQUIRED = 17 << 248 | 0x70736f75726365735f7265717569726564;
    uint256 private constant K_NUMERIC_TOLERANCE = 18 << 248 | 0x716e756d657269635f746f6c6572616e6365;
    uint256 private constant K_REQUIREMENT_ID = 15 << 248 | 0x6e726571756972656d656e745f6964;
    uint256 private constant K_SELECTION_POLICY = 17 << 248 | 0x7073656c656374696f6e5f706f6c696379;
    uint256 private constant K_STRATEGY = 9 << 248 | 0x687374726174656779;
    uint256 private constant K_SOURCE_TARGETS = 15 << 248 | 0x6e736f757263655f74617267657473;
    uint256 private constant K_MIN_PROVENANCE_TIER = 20 << 248 | 0x00736d696e5f70726f76656e616e63655f74696572;
    uint256 private constant K_MARKET_ID = 10 << 248 | 0x696d61726b65745f6964;
    uint256 private constant K_START = 6 << 248 | 0x657374617274;
    uint256 private constant K_END = 4 << 248 | 0x63656e64;
    uint256 private constant K_SLACK = 24 << 248 | 0x7774696d657374616d705f736c61636b5f7365636f6e6473;
    uint256 private constant K_ALLOWED_SOURCES = 16 << 248 | 0x6f616c6c6f7765645f736f7572636573;
    uint256 private constant K_RULE_ID = 8 << 248 | 0x6772756c655f6964;
    uint256 private constant K_ON_CONFLICT = 12 << 248 | 0x6b6f6e5f636f6e666c696374;
    uint256 private constant K_OUTPUT_SCHEMA_REF = 18 << 248 | 0x716f75747075745f736368656d615f726566;
    uint256 private constant K_STRICT_MODE = 12 << 248 | 0x6b7374726963745f6d6f6465;
    uint256 private constant K_PREDICATE = 10 << 248 | 0x69707265646963617465;
    uint256 private constant K_COMPARISON = 11 << 248 | 0x6a636f6d70617269736f6e;
    uint256 private constant K_THRESHOLD = 10 << 248 | 0x697468726573686f6c64;
    uint256 private constant K_TERMS = 6 << 248 | 0x657465726d73;
    uint256 private constant K_LOWER = 6 << 248 | 0x656c6f776572;
    uint256 private constant K_UPPER = 6 << 248 | 0x657570706572;
    uint256 private constant K_LOWER_INCLUSIVE = 16 << 248 | 0x6f6c6f7765725f696e636c7573697665;
    uint256 private constant K_UPPER_INCLUSIVE = 16 << 248 | 0x6f75707065725f696e636c7573697665;
    uint256 private constant K_OTHER_METRIC = 13 << 248 | 0x6c6f746865725f6d6574726963;
    uint256 private constant K_EXPECTED_TEXT = 14 << 248 | 0x6d65787065637465645f74657874;
    uint256 private constant K_ABSENT_MEANS_NO = 16 << 248 | 0x6f616273656e745f6d65616e735f6e6f;
    uint256 private constant K_PRECONDITIONS = 14 << 248 | 0x6d707265636f6e646974696f6e73;
    uint256 private constant K_OP = 3 << 248 | 0x626f70;
    uint256 private constant K_KEY = 4 << 248 | 0x636b6579;
    uint256 private constant K_EQUALS = 7 << 248 | 0x66657175616c73;
    uint256 private constant K_OTHERWISE = 10 << 248 | 0x696f7468657277697365;
    uint256 private constant K_TIE_BREAKER = 12 << 248 | 0x6b7469655f627265616b6572;
    uint256 private constant K_MIN_SOURCES = 12 << 248 | 0x6b6d696e5f736f7572636573;
    uint256 private constant K_QUORUM = 7 << 248 | 0x6671756f72756d;
    uint256 private constant K_SOURCE_ID = 10 << 248 | 0x69736f757263655f6964;
    uint256 private constant K_EXPECTED_FIELDS = 16 << 248 | 0x6f65787065637465645f6669656c6473;
    uint256 private constant K_KIND = 5 << 248 | 0x646b696e64;
    uint256 private constant K_ACCEPTED_STATUS_CODES = 22 << 248 | 0x7561636365707465645f7374617475735f636f646573;

    /// §4.2's confidence policy, in the form's order: the key and its default.
    uint256 private constant K_BPS0 = 23 << 248 | 0x7664656661756c745f636f6e666964656e63655f627073;
    uint256 private constant K_BPS1 = 30 << 248 | 0x781c6d696e5f636f6e666964656e63655f666f725f7965736e6f5f627073;
    uint256 private constant K_BPS2 = 20 << 248 | 0x0073636f6e666c6963745f666163746f725f627073;
    uint256 private constant K_BPS3 = 20 << 248 | 0x007366616c6c6261636b5f666163746f725f627073;
    uint256 private constant K_BPS4 = 23 << 248 | 0x76696e76616c69645f636f6e666964656e63655f627073;

    /// (valid, r): the leaf is one por-cbor/1 map whose `data_requirements` is an array, of
    /// `r` entries at `first`.
    function requirements(bytes calldata leaf) internal pure returns (bool ok, uint256 r, uint256 first) {
        (bytes32 err,) = PorCbor.check(leaf);
        if (err != 0) return (false, 0, 0);
        uint256 at = R.top(leaf, K_DATA_REQUIREMENTS);
        if (at == 0) return (false, 0, 0);
        (ok, r, first) = PorCbor.container(leaf, at, PorCbor.ARRAY);
    }

    /// The value positions `F` reads, each map walked once (`R.into`) before the build, and
    /// the scratch of a `data_requirements` row's.
    struct Maps {
        uint256[] top;
        uint256[] market;
        uint256[] ps;
        uint256[] conflict;
        uint256[] window;
        uint256[] conf;
        uint256[] rowKeys;
        uint256[] row;
    }

    uint256 private constant T_PS = 6;
    uint256 private constant T_MARKET = 0;
    uint256 private constant T_CONFLICT = 2;
    uint256 private constant T_SLACK = 7;
    uint256 private constant T_SCHEMA_REF = 5;
    uint256 private constant T_STRICT = 1;
    uint256 private constant T_CONFIDENCE = 3;
    uint256 private constant T_REQUIREMENTS = 4;

    /// `F` of form index `j` of the PromptSpec `leaf` (see the notice).
    function formAt(bytes calldata leaf, uint256 j) internal view returns (bool valid, bool defined, bytes memory f) {
        (bytes32 err,, uint256[] memory top,) = PorCborTop.checkTop(leaf);
        if (err != 0) return (false, false, f);
        Maps memory m = maps(leaf, top, j == 0);
        (bool ok, uint256 r, uint256 p) = PorCbor.container(leaf, m.top[T_REQUIREMENTS], PorCbor.ARRAY);
        if (!ok || m.top[T_REQUIREMENTS] == 0) return (false, false, f);
        if (j > r) return (true, false, f);
        if (j == 0) {
            uint256 base = free();
            (defined, f) = D.close(base, common(leaf, base + 32, m));
        } else {
            for (uint256 i = 1; i < j; i++) {
                p = PorCbor.skip(leaf, p);
            }
            (defined, f) = requirementAt(leaf, p);
        }
        valid = true;
    }

    /// `F` REQUIREMENT of the `data_requirements` entry at `p`: (defined, F).
    function requirementAt(bytes calldata leaf, uint256 p) private view returns (bool, bytes memory) {
        uint256[] memory q = new uint256[](5);
        R.into(leaf, p, false, keys5(K_REQUIREMENT_ID, K_SOURCE_TARGETS, K_EXPECTED_FIELDS,
            K_SELECTION_POLICY, K_ACCEPTED_STATUS_CODES), q);
        uint256[] memory policy = new uint256[](4);
        R.into(leaf, q[3], false, keys4(K_QUORUM, K_STRATEGY, K_MIN_SOURCES, K_TIE_BREAKER), policy);
        uint256 base = free();
        uint256 w = R.isMap(leaf, p) && R.isMap(leaf, q[3]) ? requirement(leaf, base + 32, q, policy) : 0;
        return D.close(base, w);
    }

    function free() private pure returns (uint256 base) {
        assembly ("memory-safe") {
            base := mload(0x40)
        }
    }

    /// The top-level map's values read (from the reader's kept offsets `top`, else walked),
    /// and with `all` the rest of COMMON's (`Maps`).
    function maps(bytes calldata d, uint256[] memory top, bool all) private pure returns (Maps memory m) {
        m.top = new uint256[](8);
        uint256[] memory k = new uint256[](8);
        (k[0], k[1], k[2], k[3]) = (K_MARKET, K_STRICT_MODE, K_CONFLICT_POLICY, K_CONFIDENCE_POLICY);
        (k[4], k[5], k[6], k[7]) = (K_DATA_REQUIREMENTS, K_OUTPUT_SCHEMA_REF, K_PREDICTION_SEMANTICS, K_SLACK);
        if (top.length > 0) {
            R.kept(d, top, k, m.top);
        } else {
            R.into(d, 0, true, k, m.top); // a top-level map of 0 or over 16 entries, or no map
        }
        if (!all) return m;
        m.market = new uint256[](4);
        R.into(d, m.top[T_MARKET], false, keys4(K_MARKET_ID, K_ALLOWED_SOURCES, K_RESOLUTION_RULES,
            K_RESOLUTION_WINDOW), m.market);
        m.ps = new uint256[](14);
        k = new uint256[](14);
        (k[0], k[1], k[2], k[3], k[4]) = (K_LOWER, K_TERMS, K_UPPER, K_METRIC, K_PREDICATE);
        (k[5], k[6], k[7], k[8]) = (K_THRESHOLD, K_COMPARISON, K_OTHER_METRIC, K_EXPECTED_TEXT);
        (k[9], k[10], k[11], k[12]) = (K_PRECONDITIONS, K_ABSENT_MEANS_NO, K_LOWER_INCLUSIVE, K_UPPER_INCLUSIVE);
        k[13] = K_SOURCES_REQUIRED;
        R.into(d, m.top[T_PS], false, k, m.ps);
        m.conflict = new uint256[](2);
        R.into(d, m.top[T_CONFLICT], false, keys2(K_ON_CONFLICT, K_NUMERIC_TOLERANCE), m.conflict);
        m.window = new uint256[](2);
        R.into(d, m.market[3], false, keys2(K_END, K_START), m.window);
        m.conf = new uint256[](5);
        R.into(d, m.top[T_CONFIDENCE], false, keys5(K_BPS2, K_BPS3, K_BPS0, K_BPS4, K_BPS1), m.conf);
        m.rowKeys = keys4(K_REQUIREMENT_ID, K_SOURCE_TARGETS, K_SELECTION_POLICY, K_MIN_PROVENANCE_TIER);
        m.row = new uint256[](4);
    }

    function keys2(uint256 a, uint256 b) private pure returns (uint256[] memory k) {
        k = new uint256[](2);
        (k[0], k[1]) = (a, b);
    }

    function keys4(uint256 a, uint256 b, uint256 c, uint256 e) private pure returns (uint256[] memory k) {
        k = new uint256[](4);
        (k[0], k[1], k[2], k[3]) = (a, b, c, e);
    }

    function keys5(uint256 a, uint256 b, uint256 c, uint256 e, uint256 g) private pure returns (uint256[] memory k) {
        k = new uint256[](5);
        (k[0], k[1], k[2], k[3], k[4]) = (a, b, c, e, g);
    }

    /// `F` COMMON (SPEC §5.6.3) of the map at 0, written at `w` (`m`: its maps read).
    function common(bytes calldata d, uint256 w, Maps memory m) private view returns (uint256) {
        uint256[] memory t = m.top;
        uint256 rules = R.find(d, m.market[2], K_RULES);
        if (!R.isMap(d, t[T_PS]) || !R.isMap(d, t[T_MARKET]) || !R.isMap(d, t[T_CONFLICT])
            || !R.isMap(d, m.market[3])) return 0;
        w = D.word(w, COMMON);
        w = D.hashed(d, w, m.ps[3]);
        w = R.optional(d, w, m.ps[13], 64);
        w = R.tolerance(d, w, m.conflict[1]);
        w = rows(d, w, t[T_REQUIREMENTS], m);
        w = D.hashed(d, w, m.market[0]);
        w = R.required(d, w, m.window[1], 0, R.TIME_MAX);
        w = R.required(d, w, m.window[0], 0, R.TIME_MAX);
        w = R.ranged(d, w, t[T_SLACK], 0, R.TIME_MAX, 0);
        w = D.texts(d, w, m.market[1], false);
        w = list(d, w, rules, RULES);
        w = R.code(d, w, m.conflict[0], R.ON_CONFLICT, 0);
        w = D.hashed(d, w, t[T_SCHEMA_REF]);
        w = R.flagOr(d, w, t[T_STRICT], 1);
        w = confidence(d, w, t[T_CONFIDENCE], m.conf);
        return semantics(d, w, m.ps);
    }

    /// The five confidence policy words (§4.2's defaults when absent; a present policy is a
    /// map at `c`, its values at `at`).
    function confidence(bytes calldata d, uint256 w, uint256 c, uint256[] memory at) private pure returns (uint256) {
        if (c != 0 && !R.isMap(d, c)) return 0;
        w = R.ranged(d, w, at[2], 0, R.BPS_MAX, 7000);
        w = R.ranged(d, w, at[4], 0, R.BPS_MAX, 5500);
        w = R.ranged(d, w, at[0], 0, R.BPS_MAX, 8000);
        w = R.ranged(d, w, at[1], 0, R.BPS_MAX, 9000);
        return R.ranged(d, w, at[3], 0, R.BPS_MAX, 0);
    }

    /// COMMON's words of `prediction_semantics` (its values at `ps`), from `predicate` on.
    function semantics(bytes calldata d, uint256 w, uint256[] memory ps) private view returns (uint256) {
        w = R.enumAt(d, w, ps[4], R.PREDICATE);
        w = D.text(d, w, ps[3]);
        uint256 x = ps[6];
        w = x == 0 ? D.word(w, 0) : R.enumAt(d, D.word(w, 1), x, R.COMPARISON);
        w = optionalDecimal(d, w, ps[5]);
        x = ps[1];
        w = x == 0 ? D.word(w, 0) : list(d, D.word(w, 1), x, TERMS);
        w = optionalDecimal(d, w, ps[0]);
        w = optionalDecimal(d, w, ps[2]);
        x = ps[11];
        w = x == 0 ? D.word(D.word(w, 0), 0) : D.flag(d, D.word(w, 1), x);
        x = ps[12];
        w = x == 0 ? D.word(D.word(w, 0), 0) : D.flag(d, D.word(w, 1), x);
        x = ps[7];
        w = x == 0 ? D.word(w, 0) : D.hashed(d, D.word(w, 1), x);
        x = ps[8];
        w = x == 0 ? D.word(w, 0) : D.hashed(d, D.word(w, 1), x);
        x = ps[10];
        w = x == 0 ? D.word(w, 0) : D.flag(d, w, x);
        x = ps[9];
        return x == 0 ? D.word(w, 0) : list(d, D.word(w, 1), x, PRECONDITIONS);
    }

    /// `P(D)`: `W(0)`, or `W(1)` and the decimal at `pos`.
    function optionalDecimal(bytes calldata d, uint256 w, uint256 pos) private pure returns (uint256) {
        return pos == 0 ? D.word(w, 0) : D.decimal(d, D.word(w, 1), pos);
    }

    uint8 private constant RULES = 1;
    uint8 private constant TERMS = 2;
    uint8 private constant PRECONDITIONS = 3;
    uint8 private constant TARGETS = 4;
    uint8 private constant FIELDS = 5;
    uint8 private constant CODES = 6;

    /// `L` of the array at `pos` (0: absent, no form), each item by `item(kind)`.
    function list(bytes calldata d, uint256 w, uint256 pos, uint8 kind) private view returns (uint256) {
        if (w == 0 || pos == 0) return 0;
        (bool ok, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!ok) return 0;
        w = D.word(w, n);
        for (uint256 i = 0; i < n && w != 0; i++) {
            w = item(d, w, p, kind);
            p = PorCbor.skip(d, p);
        }
        return w;
    }

    /// COMMON's `data_requirements` rows (`m.row`: a row's values, `R.into` per row): each
    /// `H(requirement_id) E(strategy) W(len(source_targets)) W(min_provenance_tier)`.
    function rows(bytes calldata d, uint256 w, uint256 pos, Maps memory m) private view returns (uint256) {
        if (w == 0 || pos == 0) return 0;
        (bool ok, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!ok) return 0;
        w = D.word(w, n);
        for (uint256 i = 0; i < n && w != 0; i++) {
            (w, p) = row(d, w, p, m);
        }
        return w;
    }

    /// One of `rows`' rows, the map at `p`: (the write position, the offset just after the
    /// map: `R.into`'s walk, no second one).
    function row(bytes calldata d, uint256 w, uint256 p, Maps memory m) private view returns (uint256, uint256) {
        if (!R.isMap(d, p)) return (0, p);
        uint256[] memory at = m.row;
        p = R.into(d, p, false, m.rowKeys, at);
        w = D.hashed(d, w, at[0]);
        w = R.enumAt(d, w, R.find(d, at[2], K_STRATEGY), R.STRATEGY);
        (bool isArray, uint256 targets,) = at[1] == 0 ? (false, 0, 0)
            : PorCbor.container(d, at[1], PorCbor.ARRAY);
        if (!isArray) return (0, p);
        w = D.word(w, targets);
        return (R.ranged(d, w, at[3], 0, 3, 0), p);
    }

    /// One list item at `q` of kind `kind` (a map but for CODES).
    function item(bytes calldata d, uint256 w, uint256 q, uint8 kind) private view returns (uint256) {
        if (kind == CODES) return R.required(d, w, q, 100, 599);
        if (!R.isMap(d, q)) return 0;
        if (kind == RULES) return R.ruleCode(d, w, R.find(d, q, K_RULE_ID));
        if (kind == TERMS) {
            w = R.enumAt(d, w, R.find(d, q, K_OP), R.TERM_OP);
            return D.hashed(d, w, R.find(d, q, K_METRIC));
        }
        if (kind == PRECONDITIONS) {
            w = D.hashed(d, w, R.find(d, q, K_KEY));
            w = D.hashed(d, w, R.find(d, q, K_EQUALS));
            return R.code(d, w, R.find(d, q, K_OTHERWISE), R.OTHERWISE, 0);
        }
        if (kind == TARGETS) return D.hashed(d, w, R.find(d, q, K_SOURCE_ID));
        // FIELDS: E(KIND, kind) then H(key)
        w = R.enumAt(d, w, R.find(d, q, K_KIND), R.KIND);
        return D.hashed(d, w, R.find(d, q, K_KEY));
    }

    /// `F` REQUIREMENT (SPEC §5.6.4) of a `data_requirements` entry, its values at `q`
    /// (requirement_id, source_targets, expected_fields, selection_policy,
    /// accepted_status_codes: encoded order) and its policy's at `policy` (quorum, strategy,
    /// min_sources, tie_breaker), written at `w`.
    function requirement(bytes calldata d, uint256 w, uint256[] memory q, uint256[] memory policy)
        private
        view
        returns (uint256)
    {
        w = D.word(w, REQUIREMENT);
        w = D.hashed(d, w, q[0]);
        w = R.enumAt(d, w, policy[1], R.STRATEGY);
        w = R.code(d, w, policy[3], R.TIE_BREAKER, 0);
        w = R.ranged(d, w, policy[2], 1, 64, 1);
        w = R.ranged(d, w, policy[0], 1, 64, 1);
        w = list(d, w, q[1], TARGETS);
        w = fields(d, w, q[2]);
        uint256 x = q[4];
        return x == 0 ? D.word(w, 0) : list(d, D.word(w, 1), x, CODES);
    }

    /// The requirement's fields: `expected_fields` (absent: empty), or §12.1's fallback
    /// fields when empty: `W(n)` then `E(KIND, kind) H(key)` each.
    function fields(bytes calldata d, uint256 w, uint256 pos) private view returns (uint256) {
        uint256 n;
        if (pos != 0) {
            bool ok;
            (ok, n,) = PorCbor.container(d, pos, PorCbor.ARRAY);
            if (!ok) return 0;
        }
        if (n > 0) return list(d, w, pos, FIELDS);
        // result boolean, value numeric, price numeric, timestamp timestamp
        w = D.word(D.word(D.word(w, 4), 0), 0xf6a214f7a5fcda0c2cee9660b7fc29f5649e3c68aad48e20e950137c98913a68);
        w = D.word(D.word(w, 1), 0xcd42404d52ad55ccfa9aca4adc828aa5800ad9d385a0671fbcbf724118320619);
        w = D.word(D.word(w, 1), 0x683b531f41ec88a2f345b727afe59757b73162a340a65c86bba62866f8fe556c);
        return D.word(D.word(w, 2), 0x323748f86a762247e6631bc01c26fb22c63fd0176a2e1db7b0d5b78de228cd86);
    }
}
