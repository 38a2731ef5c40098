// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorContradictionsState} from "./PorContradictionsState.sol";
import {PorDecimal} from "./PorDecimal.sol";

/// @title PorContradictionsOutput: the committed `contradictions` description and output
/// against the recomputed ones (SPEC §12.5.5), compared piece by piece with the canonical
/// encoding (§2: a record's keys are fixed, so their order is static), nothing built.
library PorContradictionsOutput {
    /// A cursor over the committed item: `at` the next byte, `end` the item's end; `ok`
    /// false from the first difference on; `text` the fixed pieces (`TEXT`).
    struct Cursor {
        bool ok;
        uint256 at;
        uint256 end;
        bytes text;
    }

    // The fixed pieces: (offset << 8 | length) in TEXT. Keys in §2 order: the output's
    // "conflicts", "claim_count", "numeric_tolerance"; a conflict's key, kind, values,
    // check_id, claim_ids, claim_count, evidence_ids.
    uint256 private constant DESC_A = 25;
    uint256 private constant DESC_B = 6411;
    uint256 private constant DESC_C = 9228;
    uint256 private constant OUT_CONFLICTS = 12299;
    uint256 private constant CLAIM_COUNT = 15116;
    uint256 private constant TOLERANCE = 18194;
    uint256 private constant REC_KEY = 22789;
    uint256 private constant KIND_NUMERIC = 24085;
    uint256 private constant KIND_BOOLEAN = 29461;
    uint256 private constant TRUE = 34821;
    uint256 private constant FALSE = 36102;
    uint256 private constant CHECK_NUMERIC = 37663;
    uint256 private constant CHECK_BOOLEAN = 45599;
    uint256 private constant CLAIM_IDS = 53515;
    uint256 private constant EVIDENCE_IDS = 56334;
    bytes internal constant TEXT = hex"636f6e74726164696374696f6e20636865636b206f7665722020636c61696d2873293a2020636f6e666c696374287329a369636f6e666c696374736b636c61696d5f636f756e74716e756d657269635f746f6c6572616e6365a7636b6579646b696e64676e756d657269636676616c75657382646b696e6467626f6f6c65616e6676616c7565738264747275656566616c736568636865636b5f696475636f6e74726164696374696f6e2e6e756d6572696368636865636b5f696475636f6e74726164696374696f6e2e626f6f6c65616e69636c61696d5f696473826c65766964656e63655f69647382";

    /// The description at `desc` and the output at `out` of `d` are §12.5.5's for the
    /// merged groups, the claim count and the tolerance text item.
    function matches(
        bytes calldata d,
        uint256 desc,
        uint256 out,
        PorContradictionsState.Group[] memory merged,
        uint256 claims,
        uint256 tolerance
    ) internal pure returns (bool) {
        unchecked {
            uint256 n = mark(d, merged, tolerance);
            bytes memory count = decimal(claims);
            bytes memory found = decimal(n);
            Cursor memory c = Cursor(true, desc, PorCbor.skip(d, desc), TEXT);
            put(d, c, head(3, 48 + count.length + found.length));
            piece(d, c, DESC_A);
            put(d, c, count);
            piece(d, c, DESC_B);
            put(d, c, found);
            piece(d, c, DESC_C);
            if (!c.ok || c.at != c.end) return false;
            (c.at, c.end) = (out, PorCbor.skip(d, out));
            piece(d, c, OUT_CONFLICTS);
            put(d, c, head(4, n));
            for (uint256 i = 0; i < merged.length; i++) {
                if (merged[i].chunk == 1) record(d, c, merged[i]);
            }
            piece(d, c, CLAIM_COUNT);
            put(d, c, head(0, claims));
            piece(d, c, TOLERANCE);
            same(d, c, tolerance);
            return c.ok && c.at == c.end;
        }
    }

    /// Mark each merged group that conflicts (`chunk` 1, else 0): numeric iff max - min
    /// exceeds the tolerance, exactly (equal texts: equal canonical decimals, no
    /// conflict, the tolerance being not negative; the tolerance parsed once); boolean iff
    /// it has `other`. Returns their number.
    function mark(bytes calldata d, PorContradictionsState.Group[] memory merged, uint256 tolerance)
        private
        pure
        returns (uint256 n)
    {
        unchecked {
            PorDecimal.Dec memory tol;
            bool parsed;
            for (uint256 i = 0; i < merged.length; i++) {
                PorContradictionsState.Group memory g = merged[i];
                bool conflicts = g.hi != 0;
                if (conflicts && g.numeric) {
                    uint256 hi = PorContradictionsState.value(d, g.hi);
                    uint256 lo = PorContradictionsState.value(d, g.lo);
                    if (PorCheckKeys.sameText(d, hi, lo)) {
                        conflicts = false;
                    } else {
                        if (!parsed) (tol, parsed) = (PorContradictionsState.decimal(d, tolerance), true);
                        conflicts = !PorDecimal.absDiffLe(
                            PorContradictionsState.decimal(d, hi), PorContradictionsState.decimal(d, lo), tol
                        );
                    }
                }
                g.chunk = conflicts ? 1 : 0;
                if (conflicts) n++;
            }
        }
    }

    /// One conflict record; its pair (`lo`, `hi`): numeric (min, max), boolean (first, other).
    function record(bytes calldata d, Cursor memory c, PorContradictionsState.Group memory g) private pure {
        unchecked {
            piece(d, c, REC_KEY);
            same(d, c, g.key);
            piece(d, c, g.numeric ? KIND_NUMERIC : KIND_BOOLEAN);
            valueText(d, c, g.lo, g.numeric);
            valueText(d, c, g.hi, g.numeric);
            piece(d, c, g.numeric ? CHECK_NUMERIC : CHECK_BOOLEAN);
            piece(d, c, CLAIM_IDS);
            uint256 a = PorContradictionsState.claimId(d, g.lo);
            uint256 b = PorContradictionsState.claimId(d, g.hi);
            same(d, c, a);
            same(d, c, b);
            piece(d, c, CLAIM_COUNT);
            put(d, c, head(0, g.count));
            piece(d, c, EVIDENCE_IDS);
            same(d, c, PorCbor.skip(d, a) + 12); // after "\x6bevidence_id"
            same(d, c, PorCbor.skip(d, b) + 12);
        }
    }

    /// A reference's value as text: its decimal text item, or "true" / "false".
    function valueText(bytes calldata d, Cursor memory c, uint256 r, bool numeric) private pure {
        uint256 v = PorContradictionsState.value(d, r);
        if (numeric) {
            same(d, c, v);
        } else {
            piece(d, c, d[v] == 0xf5 ? TRUE : FALSE);
        }
    }

    /// The next bytes are the fixed piece `p` (offset << 8 | length in TEXT).
    function piece(bytes calldata d, Cursor memory c, uint256 p) private pure {
        unchecked {
            uint256 len = p & 0xff;
            c.ok = c.ok && c.at + len <= c.end && PorCbor.equal(d, c.at, c.text, p >> 8, len);
            c.at += len;
        }
    }

    /// The next bytes are `want`.
    function put(bytes calldata d, Cursor memory c, bytes memory want) private pure {
        unchecked {
            uint256 len = want.length;
            c.ok = c.ok && c.at + len <= c.end && PorCbor.equal(d, c.at, want, 0, len);
            c.at += len;
        }
    }

    /// The next bytes are those of the item at `p`.
    function same(bytes calldata d, Cursor memory c, uint256 p) private pure {
        unchecked {
            uint256 len = PorCbor.skip(d, p) - p;
            uint256 at = c.at;
            bool ok = c.ok && at + len <= c.end;
            // word by word in calldata (no copy, no hash)
            assembly ("memory-safe") {
                let a := add(d.offset, at)
                let b := add(d.offset, p)
                for { let i := 0 } and(ok, lt(i, len)) { i := add(i, 32) } {
                    let x := calldataload(add(a, i))
                    let y := calldataload(add(b, i))
                    if lt(sub(len, i), 32) {
                        let sh := shl(3, sub(32, sub(len, i)))
                        x := shr(sh, x)
                        y := shr(sh, y)
                    }
                    ok := eq(x, y)
                }
            }
            (c.ok, c.at) = (ok, at + len);
        }
    }

    /// The shortest §2 head of major type `major` with argument `n` (< 2^64).
    function head(uint8 major, uint256 n) internal pure returns (bytes memory out) {
        unchecked {
            uint256 w = n < 24 ? 0 : n < 2 ** 8 ? 1 : n < 2 ** 16 ? 2 : n < 2 ** 32 ? 4 : 8;
            out = new bytes(1 + w);
            out[0] = bytes1(uint8(major << 5) | uint8(w == 0 ? n : 23 + (w == 1 ? 1 : w == 2 ? 2 : w == 4 ? 3 : 4)));
            for (uint256 i = 0; i < w; i++) out[w - i] = bytes1(uint8(n >> (8 * i)));
        }
    }

    /// decimal(n): base ten, no sign, no leading zero.
    function decimal(uint256 n) internal pure returns (bytes memory out) {
        unchecked {
            uint256 len = 1;
            for (uint256 m = n / 10; m != 0; m /= 10) len++;
            out = new bytes(len);
            for (uint256 i = len; i > 0; i--) {
                out[i - 1] = bytes1(uint8(48 + n % 10));
                n /= 10;
            }
        }
    }
}
