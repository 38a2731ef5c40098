// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorFormsSort: whether a list of words whose length a signer commits holds a
/// repeat, in O(n log n) on any input (s40 attack finding 2: a pairwise check over a
/// count the signer chooses let a lying form price a proof out of a block; s41 `execa`
/// for the check chunk's P).
library PorFormsSort {
    /// Whether two of the words `a` are equal: pairwise for 16 or fewer, else a bottom-up
    /// merge sort of `a` (through a second array) and a scan of neighbours.
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
        uint256[] memory b = new uint256[](n);
        for (uint256 width = 1; width < n; width <<= 1) {
            for (uint256 lo; lo < n; lo += width << 1) {
                uint256 mid = lo + width < n ? lo + width : n;
                uint256 hi = lo + (width << 1) < n ? lo + (width << 1) : n;
                (uint256 i, uint256 j, uint256 k) = (lo, mid, lo);
                while (i < mid && j < hi) b[k++] = a[i] <= a[j] ? a[i++] : a[j++];
                while (i < mid) b[k++] = a[i++];
                while (j < hi) b[k++] = a[j++];
            }
            (a, b) = (b, a);
        }
        for (uint256 k = 1; k < n; ++k) {
            if (a[k] == a[k - 1]) return true;
        }
        return false;
    }
}
