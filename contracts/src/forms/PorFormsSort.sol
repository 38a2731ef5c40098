// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorFormsIndex as I} from "./PorFormsIndex.sol";

/// @title PorFormsSort: whether a list of words whose length a signer commits holds a
/// repeat, in O(n log n) on any input (s40 attack finding 2: a pairwise check over a
/// count the signer chooses let a lying form price a proof out of a block; s41 `execa`
/// for the check chunk's P).
/// @notice One merge sort serves the executors on forms: above 16 words, `PorFormsIndex.order`
/// (s42 `dedbound`: this library's own merge sort of the words is gone).
library PorFormsSort {
    /// Whether two of the words `a` are equal: pairwise for 16 or fewer, else the
    /// positions sorted by word (`PorFormsIndex.order`) and a scan of neighbours.
    function repeats(uint256[] memory a) internal pure returns (bool) {
        uint256 n = a.length;
        if (n <= 16) {
            for (uint256 k = 1; k < n; ++k) {
                for (uint256 j; j < k; ++j) {
                    if (a[j] == a[k]) return true;
                }
            }
            return false;
        }
        bytes32[] memory w;
        assembly {
            w := a
        }
        uint256[] memory o = I.order(w);
        for (uint256 k = 1; k < n; ++k) {
            if (a[o[k]] == a[o[k - 1]]) return true;
        }
        return false;
    }
}
