// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorDecimal: canonical decimal strings (SPEC §3.2) in a por-cbor/1 document.
library PorDecimal {
    /// Longest canonical decimal (SPEC §3.2).
    uint256 internal constant MAX_LENGTH = 64;

    /// d[off:off+len] matches `-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?`, is not `-0` and has
    /// at most 64 characters (por.numbers.is_canonical_decimal).
    function isCanonical(bytes calldata d, uint256 off, uint256 len) internal pure returns (bool) {
        if (len == 0 || len > MAX_LENGTH) return false;
        uint256 i = off;
        uint256 end = off + len;
        if (d[i] == "-") i++;
        if (i == end || !digit(d[i])) return false;
        uint256 intStart = i;
        if (d[i] == "0") {
            i++;
        } else {
            while (i < end && digit(d[i])) i++;
        }
        if (i == end) return !(intStart > off && i - intStart == 1 && d[intStart] == "0");
        if (d[i] != "." || i + 1 == end) return false;
        for (uint256 j = i + 1; j < end; j++) {
            if (!digit(d[j])) return false;
        }
        return d[end - 1] != "0";
    }

    function digit(bytes1 c) private pure returns (bool) {
        return c >= "0" && c <= "9";
    }
}
