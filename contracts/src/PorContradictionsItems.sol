// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorContradictionsItems: a cited check chunk's `items` list passed over in place
/// (SPEC §12.5.3: `read_state` reads no item; the chain only needs where the list ends,
/// to read `groups` after it), each item read as `ItemAdmission.to_value` writes it,
/// without `PorCbor.skip`'s head-by-head walk (ADR 0013, s36 contra5 addendum).
library PorContradictionsItems {
    /// The offset after the `items` list at `q` of a check chunk's state when it holds at
    /// most 23 admission maps each as written (`ItemAdmission.to_value`: {reasons (texts),
    /// admitted (a bool), source_id, evidence_id, gate_reason?, observed_at (unsigned),
    /// observed_from}, keys in that §2 order, texts), every item read exactly; else 0
    /// (the caller skips the list: `PorCbor.skip`'s offset either way). An item without
    /// reasons and gate_reason (the common one) is read first by `plain`, its fixed first
    /// 30 bytes in one word; any other falls to the general read from the same offset.
    function end(bytes calldata d, uint256 q) internal pure returns (uint256 p) {
        assembly ("memory-safe") {
            // each: the offset after the item of its kind at `r`, else 0 (0 for `r` 0)
            function text(bs, r) -> e {
                if r {
                    let ib := byte(0, calldataload(add(bs, r)))
                    let arg := and(ib, 31)
                    if and(eq(shr(5, ib), 3), lt(arg, 28)) {
                        e := add(r, 1)
                        if gt(arg, 23) {
                            let width := shl(sub(arg, 24), 1)
                            arg := shr(sub(256, shl(3, width)), calldataload(add(bs, e)))
                            e := add(e, width)
                        }
                        e := add(e, arg)
                    }
                }
            }
            function key(bs, r, enc, n) -> e {
                if r {
                    if eq(shr(sub(256, shl(3, n)), calldataload(add(bs, r))), enc) { e := add(r, n) }
                }
            }
            function unsigned(bs, r) -> e {
                if r {
                    let ib := byte(0, calldataload(add(bs, r)))
                    if lt(ib, 0x1c) {
                        e := add(r, 1)
                        if gt(ib, 23) { e := add(e, shl(sub(ib, 24), 1)) }
                    }
                }
            }
            function boolean(bs, r) -> e {
                if r {
                    let ib := byte(0, calldataload(add(bs, r)))
                    if or(eq(ib, 0xf4), eq(ib, 0xf5)) { e := add(r, 1) }
                }
            }
            // the key `enc` (`n` bytes, `sh` = 256 - 8n) at `r`, then a text: the offset
            // after the text, else 0 (0 for `r` 0)
            function keyText(bs, r, enc, sh, n) -> e {
                if r {
                    if eq(shr(sh, calldataload(add(bs, r))), enc) { e := text(bs, add(r, n)) }
                }
            }
            // the item at `r` when it is the six-entry map of an admitted or rejected item
            // without reasons (its head, reasons [], admitted, a bool and "source_id" one
            // word compare), then source_id, evidence_id, observed_at and observed_from:
            // the offset after it, else 0 (the general read decides it)
            function plain(bs, r) -> e {
                let w := calldataload(add(bs, r))
                // 0xa6 "\x67reasons" 0x80 "\x68admitted" (19 bytes), the bool, "\x69source_id"
                if eq(and(w, 0xffffffffffffffffffffffffffffffffffffff00ffffffffffffffffffff0000),
                      0xa667726561736f6e73806861646d69747465640069736f757263655f69640000) {
                    if eq(or(byte(19, w), 1), 0xf5) {
                        e := keyText(bs, text(bs, add(r, 30)), 0x6b65766964656e63655f6964, 160, 12)
                        e := unsigned(bs, key(bs, e, 0x6b6f627365727665645f6174, 12)) // "\x6bobserved_at"
                        e := keyText(bs, e, 0x6d6f627365727665645f66726f6d, 144, 14) // "\x6dobserved_from"
                    }
                }
            }
            let b := d.offset
            let n := sub(byte(0, calldataload(add(b, q))), 0x80) // wraps below 0x80
            p := add(q, 1)
            if gt(n, 23) { p := 0 }
            for {} and(gt(p, 0), gt(n, 0)) { n := sub(n, 1) } {
                {
                    let e := plain(b, p)
                    if e {
                        p := e
                        continue
                    }
                }
                // six entries, or seven with gate_reason
                let seven := sub(byte(0, calldataload(add(b, p))), 0xa6)
                if gt(seven, 1) {
                    p := 0
                    break
                }
                p := key(b, add(p, 1), 0x67726561736f6e73, 8) // "\x67reasons"
                if iszero(p) { break }
                let r := sub(byte(0, calldataload(add(b, p))), 0x80)
                if gt(r, 23) {
                    p := 0
                    break
                }
                p := add(p, 1)
                for {} and(gt(r, 0), gt(p, 0)) { r := sub(r, 1) } { p := text(b, p) }
                p := boolean(b, key(b, p, 0x6861646d6974746564, 9)) // "\x68admitted"
                p := text(b, key(b, p, 0x69736f757263655f6964, 10)) // "\x69source_id"
                p := text(b, key(b, p, 0x6b65766964656e63655f6964, 12)) // "\x6bevidence_id"
                if seven { p := text(b, key(b, p, 0x6b676174655f726561736f6e, 12)) } // "\x6bgate_reason"
                p := unsigned(b, key(b, p, 0x6b6f627365727665645f6174, 12)) // "\x6bobserved_at"
                p := text(b, key(b, p, 0x6d6f627365727665645f66726f6d, 14)) // "\x6dobserved_from"
            }
        }
    }
}
