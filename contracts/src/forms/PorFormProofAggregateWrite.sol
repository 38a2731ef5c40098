// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorFormProofAggregateWrite: a reader of a map whose keys are all named, beside
/// `PorFormProofDeduce`'s (ADR 0017, s42 addendum `fpagg2`: gas levers of the AGGREGATE
/// family, whose fields and votes hold ~100 small open maps; its `D(d)` writer is now
/// `PorFormProofDecimal.decimal`, s42 addendum `fpunify`).
library PorFormProofAggregateWrite {
    /// The `n` entries of a map from `p` when every key is one of `names` (the common case:
    /// its rest word is 0): (true, the map's end), each named key's value offset in `out`
    /// (0: absent); (false, 0) at the first other key, `out` then partly written (the caller
    /// takes `PorFormProofDeduce.rest`'s answer). A key's word and a value's end as
    /// `PorFormProofDeduce.rest`'s walk makes them.
    function named(bytes calldata d, uint256 p, uint256 n, uint256[] memory names, uint256[] memory out)
        internal
        pure
        returns (bool all, uint256 end)
    {
        assembly ("memory-safe") {
            let b := d.offset
            let first := add(names, 32)
            let last := add(first, shl(5, mload(names)))
            for { let s := 0 } lt(s, mload(out)) { s := add(s, 1) } { mstore(add(add(out, 32), shl(5, s)), 0) }
            all := 1
            for {} n { n := sub(n, 1) } {
                let len := and(byte(0, calldataload(add(b, p))), 31)
                let v := add(p, 1)
                if gt(len, 23) {
                    let width := shl(sub(len, 24), 1)
                    len := shr(sub(256, shl(3, width)), calldataload(add(b, v)))
                    v := add(v, width)
                }
                let key := 0
                if lt(len, 32) { key := or(and(calldataload(add(b, v)), not(shr(shl(3, len), not(0)))), len) }
                v := add(v, len)
                let slot := first
                for {} lt(slot, last) { slot := add(slot, 32) } {
                    if eq(mload(slot), key) { break }
                }
                if iszero(lt(slot, last)) {
                    all := 0
                    break
                }
                mstore(add(out, sub(slot, names)), v)
                // the value's end
                let q := add(b, v)
                for { let units := 1 } units {} {
                    let hb := shr(248, calldataload(q))
                    let a := and(hb, 31)
                    q := add(q, 1)
                    if gt(a, 23) {
                        let width := shl(sub(a, 24), 1)
                        a := shr(sub(256, shl(3, width)), calldataload(q))
                        q := add(q, width)
                    }
                    let f := shr(shr(3, and(hb, 0xe0)), 0x421100)
                    q := add(q, mul(and(f, 1), a))
                    units := add(units, sub(mul(and(shr(1, f), 3), a), 1))
                }
                p := sub(q, b)
            }
            if all { end := p }
        }
    }
}
