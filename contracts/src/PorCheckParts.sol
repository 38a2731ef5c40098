// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorInclusion} from "./PorInclusion.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";

/// @title PorCheckParts: the verified parts handed from an executor to the contract holding
/// its kind's re-execution (EIP-170 splits `check_requirement` in two): each part's leaf
/// offset and length, the step's and the carried records' value offsets, all the
/// re-execution reads, so the second contract neither parses the proof's parts again
/// nor receives their structures.
/// @notice One flat list of words (`pack`) handed over as `bytes` (32 bytes a word), so
/// the call's ABI copies it at once, not word by word as it encodes an array, nor a
/// nested one with its offsets and checks: `[n, evidenceCount, (leaf, leafLength) x n,
/// len(at), at..., then per part i: len(records[i]), records[i]...]`, taken apart by
/// `unpack` with one copy per array.
library PorCheckParts {
    /// `parts` (leaves only), the step's value offsets `at` and the carried records'
    /// `records` (one per part) as one flat list.
    function pack(PorOneStepCheck.Parts memory parts, uint256[][] memory records, uint256[] memory at)
        internal
        pure
        returns (bytes memory packed)
    {
        unchecked {
            uint256[] memory w;
            uint256 n = parts.all.length;
            uint256 size = 3 + 2 * n + at.length + n;
            for (uint256 i = 0; i < n; i++) size += records[i].length;
            w = new uint256[](size);
            (w[0], w[1]) = (n, parts.evidenceCount);
            for (uint256 i = 0; i < n; i++) {
                (w[2 + 2 * i], w[3 + 2 * i]) = (parts.all[i].leaf, parts.all[i].leafLength);
            }
            uint256 q = put(w, 2 + 2 * n, at);
            for (uint256 i = 0; i < n; i++) q = put(w, q, records[i]);
            // the same memory as bytes: its length in bytes
            assembly ("memory-safe") {
                mstore(w, shl(5, mload(w)))
                packed := w
            }
        }
    }

    /// `a`'s length then its words into `w` from `q`; the place after them.
    function put(uint256[] memory w, uint256 q, uint256[] memory a) private pure returns (uint256 next) {
        assembly ("memory-safe") {
            let len := mload(a)
            let to := add(add(w, 32), shl(5, q))
            mstore(to, len)
            mcopy(add(to, 32), add(a, 32), shl(5, len))
            next := add(q, add(1, len))
        }
    }

    /// `pack`'s list back: the parts (leaves only; the rest after the step, the
    /// PromptSpec and the `evidenceCount` carried items are prior steps), `records`, `at`.
    function unpack(bytes calldata w)
        internal
        pure
        returns (PorOneStepCheck.Parts memory parts, uint256[][] memory records, uint256[] memory at)
    {
        unchecked {
            uint256 n = word(w, 0);
            parts.all = new PorInclusion.Part[](n);
            for (uint256 i = 0; i < n; i++) {
                (parts.all[i].leaf, parts.all[i].leafLength) = (word(w, 2 + 2 * i), word(w, 3 + 2 * i));
            }
            uint256 e = word(w, 1);
            (parts.evidenceCount, parts.priorCount) = (e, n - 2 - e);
            uint256 q;
            (at, q) = take(w, 2 + 2 * n);
            records = new uint256[][](n);
            for (uint256 i = 0; i < n; i++) (records[i], q) = take(w, q);
        }
    }

    /// Word `i` of `w` (reverts past its end).
    function word(bytes calldata w, uint256 i) private pure returns (uint256 v) {
        require((i + 1) << 5 <= w.length);
        assembly ("memory-safe") {
            v := calldataload(add(w.offset, shl(5, i)))
        }
    }

    /// The array whose length is word `q`, its words after it, copied to memory; the place
    /// after them.
    function take(bytes calldata w, uint256 q) private pure returns (uint256[] memory a, uint256 next) {
        unchecked {
            uint256 len = word(w, q);
            next = q + 1 + len;
            require(next << 5 <= w.length);
            a = new uint256[](len);
            assembly ("memory-safe") {
                calldatacopy(add(a, 32), add(w.offset, shl(5, add(q, 1))), shl(5, len))
            }
        }
    }
}
