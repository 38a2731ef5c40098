// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";

/// @title PorDecimalText: exact comparison of canonical decimal texts (SPEC §3.2) in a
/// checked por-cbor/1 document. A canonical decimal has at most 64 characters, so it is
/// (sign, integer part < 10^64, fraction scaled by 10^62 < 10^62): two words, each sum
/// or difference exact. Used by `PorContradictionsStep` until `PorDecimal`'s two-word
/// arithmetic (`cmp`, `absDiffLe`) is merged; both must agree with Python's `Decimal`.
library PorDecimalText {
    /// The fraction's scale: a canonical decimal has at most 62 fraction digits.
    uint256 private constant ONE = 10 ** 62;

    /// The canonical decimal text item at `pos` (0: the text "0"): (negative, integer
    /// part, fraction * 10^62).
    function read(bytes calldata d, uint256 pos) private pure returns (bool neg, uint256 i, uint256 f) {
        unchecked {
            if (pos == 0) return (false, 0, 0);
            (, uint256 p, uint256 len) = PorCbor.str(d, pos, PorCbor.TEXT);
            uint256 end = p + len;
            neg = d[p] == "-";
            if (neg) p++;
            for (; p < end && d[p] != "."; p++) i = i * 10 + uint8(d[p]) - 48;
            uint256 scale = ONE;
            for (p++; p < end; p++) {
                scale /= 10;
                f += (uint8(d[p]) - 48) * scale;
            }
        }
    }

    /// -1, 0 or 1 as the decimal text item at `a` is below, equal to or above the one at `b`.
    function cmp(bytes calldata d, uint256 a, uint256 b) internal pure returns (int256) {
        unchecked {
            (bool an, uint256 ai, uint256 af) = read(d, a);
            (bool bn, uint256 bi, uint256 bf) = read(d, b);
            if (an != bn) return an ? int256(-1) : int256(1); // never -0 (canonical)
            if (ai == bi && af == bf) return 0;
            bool less = ai < bi || (ai == bi && af < bf);
            return less != an ? int256(-1) : int256(1);
        }
    }

    /// |a - b| <= t for the decimal text items at `a`, `b` and `t`, exactly.
    function absDiffLe(bytes calldata d, uint256 a, uint256 b, uint256 t) internal pure returns (bool) {
        unchecked {
            (bool an, uint256 ai, uint256 af) = read(d, a);
            (bool bn, uint256 bi, uint256 bf) = read(d, b);
            (, uint256 ti, uint256 tf) = read(d, t);
            uint256 i;
            uint256 f;
            if (an != bn) {
                (i, f) = (ai + bi, af + bf); // < 2 * 10^64 and < 2 * 10^62
                if (f >= ONE) (i, f) = (i + 1, f - ONE);
            } else {
                if (ai < bi || (ai == bi && af < bf)) (ai, af, bi, bf) = (bi, bf, ai, af);
                (i, f) = af >= bf ? (ai - bi, af - bf) : (ai - bi - 1, af + ONE - bf);
            }
            return i < ti || (i == ti && f <= tf);
        }
    }
}
