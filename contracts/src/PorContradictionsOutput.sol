// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorContradictionsDecimal} from "./PorContradictionsDecimal.sol";
import {PorContradictionsState} from "./PorContradictionsState.sol";
import {PorDecimal} from "./PorDecimal.sol";
import {PorText} from "./PorText.sol";

/// @title PorContradictionsOutput: the committed `contradictions` description and output
/// against the recomputed ones (SPEC §12.5.5), compared piece by piece with the canonical
/// encoding (§2: a record's keys are fixed, so their order is static), nothing built.
library PorContradictionsOutput {
    /// A cursor over the committed item: `at` the next byte, `end` the proof's end (no
    /// read past it); `ok` false from the first difference on.
    struct Cursor {
        bool ok;
        uint256 at;
        uint256 end;
    }

    // The fixed pieces, each at most 31 bytes: its bytes left-aligned in a word, its
    // length in the low byte. Keys in §2 order: the output's "conflicts", "claim_count",
    // "numeric_tolerance"; a conflict's key, kind, values, check_id, claim_ids,
    // claim_count, evidence_ids.
    uint256 private constant DESC_A = 0x636f6e74726164696374696f6e20636865636b206f7665722000000000000019;
    uint256 private constant DESC_B = 0x20636c61696d2873293a2000000000000000000000000000000000000000000b;
    uint256 private constant DESC_C = 0x20636f6e666c696374287329000000000000000000000000000000000000000c;
    uint256 private constant OUT_CONFLICTS = 0xa369636f6e666c6963747300000000000000000000000000000000000000000b;
    uint256 private constant CLAIM_COUNT = 0x6b636c61696d5f636f756e74000000000000000000000000000000000000000c;
    uint256 private constant TOLERANCE = 0x716e756d657269635f746f6c6572616e63650000000000000000000000000012;
    uint256 private constant REC_KEY = 0xa7636b6579000000000000000000000000000000000000000000000000000005;
    uint256 private constant KIND_NUMERIC = 0x646b696e64676e756d657269636676616c756573820000000000000000000015;
    uint256 private constant KIND_BOOLEAN = 0x646b696e6467626f6f6c65616e6676616c756573820000000000000000000015;
    uint256 private constant TRUE = 0x6474727565000000000000000000000000000000000000000000000000000005;
    uint256 private constant FALSE = 0x6566616c73650000000000000000000000000000000000000000000000000006;
    uint256 private constant CHECK_NUMERIC = 0x68636865636b5f696475636f6e74726164696374696f6e2e6e756d657269631f;
    uint256 private constant CHECK_BOOLEAN = 0x68636865636b5f696475636f6e74726164696374696f6e2e626f6f6c65616e1f;
    uint256 private constant CLAIM_IDS = 0x69636c61696d5f6964738200000000000000000000000000000000000000000b;
    uint256 private constant EVIDENCE_IDS = 0x6c65766964656e63655f6964738200000000000000000000000000000000000e;

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
            uint256 count = decimal(claims);
            uint256 found = decimal(n);
            // The committed item at `desc` (`out`) is one well-formed item (§2 reader) and
            // the pieces compared are the bytes of one well-formed item, the recomputed
            // one: an item's bytes end where its parse ends, so when every piece matches
            // the committed item is the recomputed one and ends where the pieces do (no
            // skip to its end first; reads are bounded by the proof).
            Cursor memory c = Cursor(true, desc, d.length);
            piece(d, c, head(3, 48 + (count & 0xff) + (found & 0xff)));
            piece(d, c, DESC_A);
            piece(d, c, count);
            piece(d, c, DESC_B);
            piece(d, c, found);
            piece(d, c, DESC_C);
            if (!c.ok) return false;
            c.at = out;
            piece(d, c, OUT_CONFLICTS);
            piece(d, c, head(4, n));
            for (uint256 i = 0; i < merged.length; i++) {
                if (merged[i].chunk == 1) record(d, c, merged[i]);
            }
            piece(d, c, CLAIM_COUNT);
            piece(d, c, head(0, claims));
            piece(d, c, TOLERANCE);
            same(d, c, tolerance);
            return c.ok;
        }
    }

    /// Mark each merged group that conflicts (`chunk` 1, else 0): numeric iff max - min
    /// exceeds the tolerance, exactly (equal texts: equal canonical decimals, no
    /// conflict, the tolerance being not negative; texts of at most 23 characters compared
    /// in place, longer ones parsed, the tolerance once); boolean iff
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
                    if (PorText.sameText(d, hi, lo)) {
                        conflicts = false;
                    } else {
                        // short texts decided in place; a longer one parsed
                        bool fast;
                        (fast, conflicts) = PorContradictionsDecimal.exceeds(d, hi, lo, tolerance);
                        if (!fast) {
                            if (!parsed) (tol, parsed) = (PorContradictionsState.decimal(d, tolerance), true);
                            conflicts = !PorDecimal.absDiffLe(
                                PorContradictionsState.decimal(d, hi), PorContradictionsState.decimal(d, lo), tol
                            );
                        }
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
            piece(d, c, head(0, g.count));
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

    /// The next bytes are the piece `p` (its bytes left-aligned, its length, at most 31,
    /// in the low byte): one calldata word compared.
    function piece(bytes calldata d, Cursor memory c, uint256 p) private pure {
        unchecked {
            uint256 len = p & 0xff;
            uint256 at = c.at;
            bool ok = c.ok && at + len <= c.end;
            assembly ("memory-safe") {
                let mask := not(shr(shl(3, len), not(0)))
                ok := and(ok, eq(and(calldataload(add(d.offset, at)), mask), and(p, mask)))
            }
            (c.ok, c.at) = (ok, at + len);
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

    /// The shortest §2 head of major type `major` with argument `n` (< 2^64; of a larger
    /// `n` its low 64 bits, as before), as a piece.
    function head(uint8 major, uint256 n) internal pure returns (uint256 p) {
        unchecked {
            uint256 w = n < 24 ? 0 : n < 2 ** 8 ? 1 : n < 2 ** 16 ? 2 : n < 2 ** 32 ? 4 : 8;
            uint256 ib = uint256(major) << 5 | (w == 0 ? n : w == 1 ? 24 : w == 2 ? 25 : w == 4 ? 26 : 27);
            p = ib << 248 | (w == 0 ? 0 : (n & type(uint64).max) << (248 - 8 * w)) | (1 + w);
        }
    }

    /// decimal(n) (n < 2^64): base ten, no sign, no leading zero, as a piece.
    function decimal(uint256 n) internal pure returns (uint256 p) {
        unchecked {
            uint256 len = 1;
            for (uint256 m = n / 10; m != 0; m /= 10) len++;
            for (uint256 i = len; i > 0; i--) {
                p |= (48 + n % 10) << (256 - 8 * i);
                n /= 10;
            }
            p |= len;
        }
    }
}
