// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorCheckSpec} from "./PorCheckSpec.sol";
import {PorCheckStep} from "./PorCheckStep.sol";

/// @title PorCheckAdmit: a check chunk's items admitted or not (SPEC §12.2, §12.5.3):
/// each item's reasons as `PorCheckStep`'s bits, in SPEC §12.5.3's order.
library PorCheckAdmit {
    /// The item's reasons, as bits in SPEC §12.5.3's order (sanity.confidence cannot
    /// hold: the card's confidence_bps is 0..10000); `allowed`/`targets` the hashes of
    /// market.allowed_sources (`hashes`) and R's target source ids (`spec.tags`).
    function admit(bytes calldata d, PorCheckSpec.Spec memory spec, bytes32[] memory allowed, bytes32[] memory targets, PorCheckStep.Item memory it)
        internal
        pure
    {
        uint256 status = (it.reasons >> 8) & 0xffff;
        uint256 tier = it.reasons >> 128;
        uint256 r = 0;
        bytes32 sid = PorCheckKeys.textHash(d, it.sid);
        if (!inList(allowed, sid)) r |= PorCheckStep.ALLOWED;
        if (!inList(targets, sid)) r |= PorCheckStep.TARGET;
        (, uint256 t) = PorCbor.uintAt(d, it.observed);
        if (t < spec.start || t > spec.end) r |= PorCheckStep.WINDOW;
        if (tier < spec.minTier) r |= PorCheckStep.PROVENANCE;
        if (spec.codes == 0 ? status < 200 || status > 299 : !hasCode(d, spec.codes, status)) r |= PorCheckStep.STATUS;
        if (r == 0 && blank(d, it.sid)) r = PorCheckStep.GATE;
        it.reasons = r;
    }

    /// The text hashes of the list of texts at `list`, each text hashed once for all
    /// the items (R's targets' are `spec.tags`, hashed where the executor read them).
    function hashes(bytes calldata d, uint256 list) internal pure returns (bytes32[] memory h) {
        (, uint256 n, uint256 p) = PorCbor.container(d, list, PorCbor.ARRAY);
        h = new bytes32[](n);
        for (uint256 i = 0; i < n; i++) {
            (h[i], p) = (PorCheckKeys.textHash(d, p), PorCbor.skip(d, p));
        }
    }

    /// The text hash `sid` is in `list` (equal hashes: equal texts).
    function inList(bytes32[] memory list, bytes32 sid) private pure returns (bool found) {
        assembly ("memory-safe") {
            let e := add(list, shl(5, add(mload(list), 1)))
            for { let p := add(list, 32) } lt(p, e) { p := add(p, 32) } {
                if eq(mload(p), sid) {
                    found := 1
                    break
                }
            }
        }
    }

    function hasCode(bytes calldata d, uint256 list, uint256 code) private pure returns (bool) {
        (, uint256 n, uint256 p) = PorCbor.container(d, list, PorCbor.ARRAY);
        for (uint256 i = 0; i < n; i++) {
            (, uint256 v) = PorCbor.uintAt(d, p);
            if (v == code) return true;
            p = PorCbor.skip(d, p);
        }
        return false;
    }

    /// SPEC §12.4: empty or made only of the 25 White_Space code points.
    function blank(bytes calldata d, uint256 sid) internal pure returns (bool) {
        // a short text whose first byte is printable ASCII (0x21..0x7e) is not white
        // space: most ids (one word read, before the text is located)
        bool printable;
        assembly ("memory-safe") {
            let w := calldataload(add(d.offset, sid))
            printable := and(lt(sub(byte(0, w), 0x61), 23), lt(sub(byte(1, w), 0x21), 0x5e))
        }
        if (printable) return false;
        (, uint256 i, uint256 len) = PorCbor.str(d, sid, PorCbor.TEXT);
        uint256 e = i + len;
        while (i < e) {
            uint256 c = uint8(d[i]);
            uint256 cp;
            if (c < 0x80) {
                (cp, i) = (c, i + 1);
            } else if (c < 0xe0) {
                (cp, i) = ((c & 0x1f) << 6 | uint8(d[i + 1]) & 0x3f, i + 2);
            } else if (c < 0xf0) {
                cp = (c & 0x0f) << 12 | (uint256(uint8(d[i + 1])) & 0x3f) << 6 | uint8(d[i + 2]) & 0x3f;
                i += 3;
            } else {
                return false; // four bytes: above U+FFFF, never white space
            }
            bool space = (cp >= 0x09 && cp <= 0x0d) || cp == 0x20 || cp == 0x85 || cp == 0xa0 || cp == 0x1680
                || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 || cp == 0x2029 || cp == 0x202f || cp == 0x205f
                || cp == 0x3000;
            if (!space) return false;
        }
        return true;
    }
}
