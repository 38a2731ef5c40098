// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorContradictionsState} from "./PorContradictionsState.sol";
import {PorDecimalText} from "./PorDecimalText.sol";

/// @title PorContradictionsOutput: the committed `contradictions` description and output
/// against the recomputed ones (SPEC §12.5.5), compared piece by piece with the canonical
/// encoding (§2: a record's keys are fixed, so their order is static), nothing built.
library PorContradictionsOutput {
    /// A cursor over the committed item: `at` the next byte, `end` the item's end; `ok`
    /// false from the first difference on.
    struct Cursor {
        bool ok;
        uint256 at;
        uint256 end;
    }

    /// The description at `desc` and the output at `out` of `d` are §12.5.5's for the
    /// merged groups, the claim count and the tolerance text item (0: "0").
    function matches(
        bytes calldata d,
        uint256 desc,
        uint256 out,
        PorContradictionsState.Group[] memory merged,
        uint256 claims,
        uint256 tolerance
    ) internal pure returns (bool) { unchecked {
        uint256 n = mark(d, merged, tolerance);
        bytes memory count = decimal(claims);
        bytes memory found = decimal(n);
        Cursor memory c = Cursor(true, desc, PorCbor.skip(d, desc));
        lit(d, c, head(3, 48 + count.length + found.length));
        lit(d, c, "contradiction check over ");
        lit(d, c, count);
        lit(d, c, " claim(s): ");
        lit(d, c, found);
        lit(d, c, " conflict(s)");
        if (!c.ok || c.at != c.end) return false;
        (c.at, c.end) = (out, PorCbor.skip(d, out));
        // Keys in §2 order: "conflicts" (9), "claim_count" (11), "numeric_tolerance" (17).
        lit(d, c, "\xa3\x69conflicts");
        lit(d, c, head(4, n));
        for (uint256 i = 0; i < merged.length; i++) {
            if (merged[i].chunk == 1) record(d, c, merged[i]);
        }
        lit(d, c, "\x6bclaim_count");
        lit(d, c, head(0, claims));
        lit(d, c, "\x71numeric_tolerance");
        if (tolerance == 0) {
            lit(d, c, "\x61\x30");
        } else {
            same(d, c, tolerance);
        }
        return c.ok && c.at == c.end;
    }}

    /// Mark each merged group that conflicts (`chunk` 1, else 0): numeric iff max - min
    /// exceeds the tolerance, exactly; boolean iff it has `other`. Returns their number.
    function mark(bytes calldata d, PorContradictionsState.Group[] memory merged, uint256 tolerance)
        private
        pure
        returns (uint256 n)
    { unchecked {
        for (uint256 i = 0; i < merged.length; i++) {
            PorContradictionsState.Group memory g = merged[i];
            bool conflicts = g.hi != 0 && !(g.numeric && PorDecimalText.absDiffLe(
                d, PorContradictionsState.value(d, g.hi), PorContradictionsState.value(d, g.lo), tolerance
            ));
            g.chunk = conflicts ? 1 : 0;
            if (conflicts) n++;
        }
    }}

    /// One conflict record: keys in §2 order key, kind, values, check_id, claim_ids,
    /// claim_count, evidence_ids; its pair (`lo`, `hi`): numeric (min, max), boolean
    /// (first, other).
    function record(bytes calldata d, Cursor memory c, PorContradictionsState.Group memory g) private pure { unchecked {
        lit(d, c, "\xa7\x63key");
        same(d, c, g.key);
        lit(d, c, g.numeric ? bytes("\x64kind\x67numeric\x66values\x82") : bytes("\x64kind\x67boolean\x66values\x82"));
        valueText(d, c, g.lo, g.numeric);
        valueText(d, c, g.hi, g.numeric);
        lit(d, c, g.numeric ? bytes("\x68check_id\x75contradiction.numeric") : bytes("\x68check_id\x75contradiction.boolean"));
        lit(d, c, "\x69claim_ids\x82");
        uint256 a = PorContradictionsState.claimId(d, g.lo);
        uint256 b = PorContradictionsState.claimId(d, g.hi);
        same(d, c, a);
        same(d, c, b);
        lit(d, c, "\x6bclaim_count");
        lit(d, c, head(0, g.count));
        lit(d, c, "\x6cevidence_ids\x82");
        same(d, c, PorCbor.skip(d, a) + 12); // after "\x6bevidence_id"
        same(d, c, PorCbor.skip(d, b) + 12);
    }}

    /// A reference's value as text: its decimal text item, or "true" / "false".
    function valueText(bytes calldata d, Cursor memory c, uint256 r, bool numeric) private pure {
        uint256 v = PorContradictionsState.value(d, r);
        if (numeric) {
            same(d, c, v);
        } else {
            lit(d, c, d[v] == 0xf5 ? bytes("\x64true") : bytes("\x65false"));
        }
    }

    /// The next bytes are `want`.
    function lit(bytes calldata d, Cursor memory c, bytes memory want) private pure { unchecked {
        uint256 len = want.length;
        c.ok = c.ok && c.at + len <= c.end && PorCbor.equal(d, c.at, want, 0, len);
        c.at += len;
    }}

    /// The next bytes are those of the item at `p`.
    function same(bytes calldata d, Cursor memory c, uint256 p) private pure { unchecked {
        uint256 len = PorCbor.skip(d, p) - p;
        c.ok = c.ok && c.at + len <= c.end && keccak256(d[c.at:c.at + len]) == keccak256(d[p:p + len]);
        c.at += len;
    }}

    /// The shortest §2 head of major type `major` with argument `n` (< 2^64).
    function head(uint8 major, uint256 n) internal pure returns (bytes memory) {
        bytes1 m = bytes1(major << 5);
        if (n < 24) return abi.encodePacked(m | bytes1(uint8(n)));
        if (n < 2 ** 8) return abi.encodePacked(m | 0x18, uint8(n));
        if (n < 2 ** 16) return abi.encodePacked(m | 0x19, uint16(n));
        if (n < 2 ** 32) return abi.encodePacked(m | 0x1a, uint32(n));
        return abi.encodePacked(m | 0x1b, uint64(n));
    }

    /// decimal(n): base ten, no sign, no leading zero.
    function decimal(uint256 n) internal pure returns (bytes memory out) { unchecked {
        if (n == 0) return "0";
        uint256 len = 0;
        for (uint256 m = n; m != 0; m /= 10) len++;
        out = new bytes(len);
        for (uint256 i = len; i > 0; i--) {
            out[i - 1] = bytes1(uint8(48 + n % 10));
            n /= 10;
        }
    }}
}
