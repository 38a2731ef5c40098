// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorDecimal} from "./PorDecimal.sol";

/// @title PorDecimalMath: PorDecimal's exact arithmetic on canonical decimal texts
/// (SPEC §3.2), text in and out. Stateless; a public utility and the test surface of
/// the library. `ok` is false when an operand is not canonical; `fits` is false when the
/// exact result's canonical text has more than 64 characters (then `text` is empty).
contract PorDecimalMath {
    /// -1, 0 or 1 as a <, =, > b.
    function cmp(string calldata a, string calldata b) external pure returns (bool ok, int256 c) {
        (bool okA, PorDecimal.Dec memory x) = read(a);
        (bool okB, PorDecimal.Dec memory y) = read(b);
        if (!(okA && okB)) return (false, 0);
        return (true, PorDecimal.cmp(x, y));
    }

    /// a + b.
    function add(string calldata a, string calldata b)
        external
        pure
        returns (bool ok, bool fits, string memory text)
    {
        (bool okA, PorDecimal.Dec memory x) = read(a);
        (bool okB, PorDecimal.Dec memory y) = read(b);
        if (!(okA && okB)) return (false, false, "");
        return written(PorDecimal.add(x, y));
    }

    /// a - b.
    function sub(string calldata a, string calldata b)
        external
        pure
        returns (bool ok, bool fits, string memory text)
    {
        (bool okA, PorDecimal.Dec memory x) = read(a);
        (bool okB, PorDecimal.Dec memory y) = read(b);
        if (!(okA && okB)) return (false, false, "");
        return written(PorDecimal.sub(x, y));
    }

    /// |a - b| <= t.
    function absDiffLe(string calldata a, string calldata b, string calldata t)
        external
        pure
        returns (bool ok, bool le)
    {
        (bool okA, PorDecimal.Dec memory x) = read(a);
        (bool okB, PorDecimal.Dec memory y) = read(b);
        (bool okT, PorDecimal.Dec memory z) = read(t);
        if (!(okA && okB && okT)) return (false, false);
        return (true, PorDecimal.absDiffLe(x, y, z));
    }

    /// The sum of canonical terms (SPEC §12.4.1 sums a metric and a few terms).
    function sum(string[] calldata terms) external pure returns (bool ok, bool fits, string memory text) {
        PorDecimal.Dec memory acc;
        for (uint256 i = 0; i < terms.length; i++) {
            (bool okI, PorDecimal.Dec memory x) = read(terms[i]);
            if (!okI) return (false, false, "");
            acc = PorDecimal.add(acc, x);
        }
        return written(acc);
    }

    function read(string calldata s) private pure returns (bool, PorDecimal.Dec memory) {
        bytes calldata b = bytes(s);
        return PorDecimal.parse(b, 0, b.length);
    }

    function written(PorDecimal.Dec memory v) private pure returns (bool, bool, string memory) {
        (bool fits, bytes memory text) = PorDecimal.toText(v);
        return (true, fits, string(text));
    }
}
