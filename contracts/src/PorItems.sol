// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorItems: the items of a checked por-cbor/1 document's arrays and maps.
/// @notice SPEC §17.1 counts an array's elements and a map's keys and values (an entry
/// counts two), all containers together. A step record holds at most `MAX_STEP_ITEMS`
/// (PorRecords.reasoningStep).
library PorItems {
    /// The items the arrays and maps of `d` (a document `PorCbor.check` accepted) hold
    /// together: one walk over the heads, strings skipped by their length (no early
    /// stop: `PorCbor.check` has already walked every item).
    function count(bytes calldata d) internal pure returns (uint256 n) {
        assembly ("memory-safe") {
            let pos := d.offset
            // items still to read: the document is one; a checked document ends at 0
            for { let left := 1 } left { left := sub(left, 1) } {
                let ib := byte(0, calldataload(pos))
                let arg := and(ib, 31)
                pos := add(pos, 1)
                // ai 24..27: 1, 2, 4, 8 argument bytes (a checked document has no 28+)
                if gt(arg, 23) {
                    let width := shl(sub(arg, 24), 1)
                    arg := shr(sub(256, shl(3, width)), calldataload(pos))
                    pos := add(pos, width)
                }
                // majors 2, 3: a string, skipped; 4, 5: an array, a map (two per entry);
                // 0, 1, 7: an integer, true or false
                let kind := and(shr(5, ib), 6)
                if eq(kind, 2) { pos := add(pos, arg) }
                if eq(kind, 4) {
                    arg := shl(and(shr(5, ib), 1), arg)
                    left := add(left, arg)
                    n := add(n, arg)
                }
            }
        }
    }
}
