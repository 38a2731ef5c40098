// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorCborScan: the one pass of the §2 reader (`PorCbor.scan`), in assembly.
/// @notice Accepts exactly the bytes por's decoder accepts and reports the first fault of
/// a left-to-right parse (the code of `PorCbor.idOf`, the offset of the item it is in).
/// The common items take a path of their own (ADR 0015, s35 and s36 addenda): a head with
/// no argument byte and no payload (a small integer, false, true: one bit of `SIMPLE`), a
/// short text (ASCII in one test), a container with a short count, a byte string with a
/// one-byte length (a hash), a text with a one-byte length, an integer with a 1-8 byte
/// argument, a map's short text key (its encoding's value, one compare with the previous
/// key's); each path's faults are tested in one branch; a map is read a key and its value
/// at a time, so no item asks whether it is a key. s37 (ADR 0015, scan6 addendum): no path
/// tests the end of the data before its head (its bound does), a key's head and its faults
/// are one test, a top-level map's keys are found by their previous key (all ones), not by
/// a test of the depth, and each hot branch is `if iszero(x)` (one opcode less).
library PorCborScan {
    /// Nesting cap (SPEC §2, `codec.depth`): a top-level container is depth 1.
    uint256 internal constant MAX_DEPTH = 32;

    /// Where `scan` leaves the item count: past the container stack's deepest level
    /// (read by `PorCborTop.checkTop`, one word before TOP_SLOT).
    uint256 internal constant ITEMS_SLOT = 0xc60;

    /// Past ITEMS_SLOT: a top-level map's items' count in bytes (32 an item), then every
    /// item's offset (a map of 1 to 23 entries: at most 46; `PorCborTop.checkTop` reads
    /// them when they are at most TOP_ITEMS; scratch word 0: 1 when a byte string was met).
    uint256 internal constant TOP_SLOT = 0xc80; // ITEMS_SLOT + 0x20 (assembly takes literals only)
    uint256 internal constant TOP_ITEMS = 32;

    /// A top-level map's previous key (its own `prevKey` is all ones while it is open, so
    /// that each of its keys is a rare one): in frame 1's previous-key word, TOP_PREV below
    /// `sp` at each of its keys (frame 1 holds the top level's parent state, never read).
    uint256 private constant TOP_PREV = 0x20;

    /// TOP_SLOT less `sp` at a top-level key (frame 1's end: the free memory pointer +
    /// 0x80), so that the kept offsets are addressed from `sp`.
    uint256 private constant TOP_AT = 0xc00; // TOP_SLOT - 0x80

    /// Bit b set for a head byte b that is a whole item: 0x00-0x17, 0x20-0x37 (integers
    /// below 24), 0xf4, 0xf5 (false, true).
    uint256 private constant SIMPLE = 0x300000000000000000000000000000000000000000000000ffffff00ffffff;

    /// 0x80 in every byte: a word's non-ASCII bytes.
    uint256 private constant HIGH = 0x8080808080808080808080808080808080808080808080808080808080808080;

    /// A short key's value (head 0x60-0x77: at most 24 bytes, below 2^192) with a bit of
    /// this set: not ASCII; a value of 25 to 32 bytes (head 0x78-0x7f) has one too (its top
    /// byte, at bit 192 or above), so one test finds both.
    uint256 private constant RARE_KEY = 0xffffffffffffffff808080808080808080808080808080808080808080808080;

    /// A key of more than 32 encoded bytes is kept as LONG | start << 128 | length: above
    /// every key kept as its encoding's value (at most 32 bytes, the first at most 0x78).
    uint256 private constant LONG = 0x8000000000000000000000000000000000000000000000000000000000000000;

    /// (0, 0) when `data` is exactly one por-cbor/1 item, else (code, offset): codes
    /// 1-based in the order of `PorCbor.NAMES`. Offsets are calldata positions inside
    /// (absolute) and relative to `data` only in what is returned or kept.
    /// Per open container, two memory words from the free memory pointer on (not
    /// allocated: nothing outlives this block), after frame 0 (its state all ones: it ends
    /// the close loop), addressed by `sp` (absolute): its parent's `state` (the container
    /// already counted in it) and previous key (0 before a map's first: below every key;
    /// all ones in a top-level map, whose previous key is at TOP_PREV). `state`: the open
    /// container's units left, a unit being an element or a key with its value, and the
    /// top bit set for a map (so `iszero(sgt(state, 0))`: a map, or nothing left). Faults in the
    /// SPEC §2 order: at a key position a non-text major (ai < 28); in a head reserved ai,
    /// ai 31, tag, float, simple, a missing argument, a non-shortest argument; then a
    /// string's length, a key's order, its UTF-8; a container's depth, then its count
    /// against the bytes left.
    function scan(bytes calldata data) internal pure returns (uint256 code, uint256 at) {
        if (data.length == 0) return (1, 0);
        assembly ("memory-safe") {
            // Order of the previous key and this one, both long (LONG | start << 128 |
            // length): 0 equal, 1 previous after this one, 2 previous before.
            function keyOrder(prev, key) -> ord {
                let a := and(shr(128, prev), 0xffffffffffffffff)
                let la := and(prev, 0xffffffffffffffffffffffffffffffff)
                let b := and(shr(128, key), 0xffffffffffffffff)
                let lb := and(key, 0xffffffffffffffffffffffffffffffff)
                let n := la
                if lt(lb, n) { n := lb }
                for { let i := 0 } lt(i, n) { i := add(i, 32) } {
                    let x := calldataload(add(a, i))
                    let y := calldataload(add(b, i))
                    if lt(sub(n, i), 32) {
                        let sh := shl(3, sub(32, sub(n, i)))
                        x := shr(sh, x)
                        y := shr(sh, y)
                    }
                    if iszero(eq(x, y)) {
                        ord := add(1, lt(x, y))
                        break
                    }
                }
                if iszero(ord) {
                    if iszero(eq(la, lb)) { ord := add(1, lt(la, lb)) }
                }
            }
            // Strict UTF-8 of calldata [i, e): 1 for a fault (RFC 3629 §4). A window of 32
            // bytes a pass (the last: the word with zeros past `e`, so a lead cut there needs
            // a zero lane). Nothing carried: an ASCII window skipped, and the whole ASCII
            // words after it in their own loop, a last part word of ASCII ends it. Else one
            // pass of word operations (`tK`: lanes with K-bit prefixes of ones, on top): its
            // continuations exactly those its leads (and `carry`, lanes 32..34) need; C0 C1,
            // E0 ED, F0 F4, F5..FF by a 7-bit value of each lane and its next byte. The same
            // gas for every window of non-ASCII text, whatever its widths: 13.4 gas a byte,
            // 2.3 of ASCII (ADR 0017, s44 agggas; s42's windows of 29 bytes: 20.1..20.7).
            function utf8Bad(i, e) -> bad {
                let h := mload(0x20) // HIGH (scratch word 1: code size)
                let carry := 0
                let last := sub(e, 32) // a window at or below it is whole (e is past the ABI head)
                for {} 1 {} {
                    let w := calldataload(i)
                    if gt(i, last) {
                        if iszero(lt(i, e)) { break }
                        w := and(w, not(shr(shl(3, sub(e, i)), not(0)))) // zeros past the end
                    }
                    if iszero(or(carry, and(w, h))) {
                        // ASCII, nothing carried: the end if it was the last word, else the
                        // next whole words of ASCII skipped in a loop of their own, and a
                        // last part word of ASCII ends the text
                        if gt(i, last) { break }
                        i := add(i, 32)
                        for {} and(iszero(gt(i, last)), iszero(and(calldataload(i), h))) {} { i := add(i, 32) }
                        if gt(i, last) {
                            if iszero(and(calldataload(i), and(h, not(shr(shl(3, sub(e, i)), not(0)))))) { break }
                        }
                        continue
                    }
                    let s1 := shl(1, w)
                    let t6 := and(and(w, s1), h) // 11xxxxxx
                    let s2 := shl(2, w)
                    let t5 := and(t6, s2) // 111xxxxx
                    let t4 := and(t5, shl(3, w)) // 1111xxxx
                    // each lane's `v`: its bits 4..0 and the next byte's bits 5, 4 (7 bits,
                    // so a constant added below 0x80 carries into its top bit only)
                    let v := or(and(s2, 0x7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c7c),
                                and(shr(4, calldataload(add(i, 1))), 0x0303030303030303030303030303030303030303030303030303030303030303))
                    // 110xxxxx: C0, C1 (overlong) v < 8; 1110xxxx: E0 then below A0
                    // (overlong) v < 2, ED then above 9F (a surrogate) v 54, 55; 1111xxxx:
                    // F0 then below 90 (overlong) v 64, F4 then above 8F, F5..FF (above
                    // U+10FFFF) v >= 81
                    // (`sub(K, v)`: no lane borrows, its top bit set iff v <= K - 0x80)
                    let f := or(or(and(xor(t6, t5), sub(0x8787878787878787878787878787878787878787878787878787878787878787, v)),
                                   and(t4, or(sub(0xc0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0, v), add(v, 0x2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f2f)))),
                                and(xor(t5, t4), or(sub(0x8181818181818181818181818181818181818181818181818181818181818181, v), sub(0x8181818181818181818181818181818181818181818181818181818181818181, xor(v, 0x3636363636363636363636363636363636363636363636363636363636363636)))))
                    // the needs: lane k+1 of a lead, k+2 of 111x, k+3 of 1111 (`x`: a lane
                    // whose next one is needed; lanes 32..34 carried)
                    let y := or(t5, shr(8, t4))
                    let x := or(t6, shr(8, y))
                    // a fault, a continuation where none is needed, or none where one is
                    if or(f, and(xor(xor(w, t6), or(carry, shr(8, x))), h)) {
                        bad := 1
                        break
                    }
                    carry := or(or(shl(248, x), shl(240, y)), shl(232, t4))
                    i := add(i, 32)
                }
                if carry { bad := 1 }
            }
            // The head at `pos` (byte `b`) off the fast paths: (fault code or 0, its
            // argument, the offset after the head). Faults in order: no head, the data
            // ended (2); reserved ai (4; ai 31 of a string or container: 5), a tag (12), a
            // simple value but false/true (11; a float: 10), a missing argument (2), a
            // non-shortest one (6).
            function slowHead(pos, end, b) -> fault, arg, p {
                if iszero(lt(pos, end)) {
                    fault := 2
                    leave
                }
                let major := shr(5, b)
                arg := and(b, 31)
                p := add(pos, 1)
                if gt(arg, 27) {
                    fault := 4
                    if and(eq(arg, 31), and(gt(major, 1), lt(major, 6))) { fault := 5 }
                    leave
                }
                if eq(major, 6) {
                    fault := 12
                    leave
                }
                if eq(major, 7) {
                    if iszero(or(eq(arg, 20), eq(arg, 21))) {
                        fault := 11
                        if gt(arg, 24) { fault := 10 }
                        leave
                    }
                }
                if gt(arg, 23) {
                    let width := shl(sub(arg, 24), 1)
                    if gt(width, sub(end, p)) {
                        fault := 2
                        leave
                    }
                    let least := 24
                    if gt(arg, 24) { least := shl(shl(sub(arg, 24), 4), 1) }
                    arg := shr(sub(256, shl(3, width)), calldataload(p))
                    p := add(p, width)
                    if lt(arg, least) { fault := 6 }
                }
            }
            let end := add(data.offset, data.length)
            let pos := data.offset
            // the container stack's top (past the free memory pointer): frame 0 (its state
            // all ones: the close loop stops there) stands for the top level
            let sp := mload(0x40)
            mstore(sp, not(0)) // frame 0's state: all ones, no container's (see the close loop)
            let cap := add(sp, 0x840) // the depth cap: MAX_DEPTH frames open past frame 0
            sp := add(sp, 0x40)
            mstore(add(mload(0x40), TOP_SLOT), 0)
            mstore(0, 0)
            // HIGH for the rare paths (`utf8Bad`, a key's or a general text's ASCII test):
            // one PUSH32 instead of one per use (every executor holds this code)
            mstore(0x20, HIGH)
            // the items of every array and map (SPEC §17.1), kept at ITEMS_SLOT
            let total := 0
            let state := 1 // the top level: one unit, not a map
            let prevKey := 0 // below every key
            {
                // a top-level map of 1 to 23 entries (a record) opens here, as the loop
                // would open it, but with `prevKey` all ones (above every key): each of
                // its keys takes the rare branch, which keeps its offsets for `checkTop`
                // and its previous key at TOP_PREV (no key elsewhere asks whether it is a
                // top-level one). Any other top-level item is read by the loop (a map of
                // 24 or more entries holds more than TOP_ITEMS items: none are kept).
                let b := shr(248, calldataload(pos))
                let items := shl(1, and(b, 31))
                if and(lt(sub(b, 0xa1), 23), iszero(gt(add(add(pos, 1), items), end))) {
                    total := items
                    pos := add(pos, 1)
                    mstore(sp, 0) // the top level's state: its unit counted
                    sp := add(sp, 0x40)
                    state := or(and(b, 31), shl(255, 1))
                    prevKey := not(0)
                    mstore(sub(sp, 0x20), 0) // its previous key: 0, below every key (TOP_PREV)
                }
            }
            // each pass reads one unit (an element, or a key and its value) and counts it;
            // a container's first unit is read in the next pass. No path tests the end of
            // the data before its head: each one's bound does (a head at the end has its
            // item past it), the whole item's path tests it with its mask bit, and the
            // rare branch of every path tests it first (`slowHead`: 2).
            for {} 1 {} {
                // in a map, or no unit left (one signed test; `if iszero(x)` costs one
                // opcode less than `if x`: the compiler drops ISZERO ISZERO before JUMPI)
                if iszero(sgt(state, 0)) {
                    if iszero(shl(1, state)) {
                        // no unit left: close every container completed (its unit was
                        // counted in its parent's state when it opened) down to frame 0
                        for {} 1 {} {
                            sp := sub(sp, 0x40)
                            state := mload(sp)
                            prevKey := mload(add(sp, 0x20))
                            if shl(1, state) { break }
                        }
                        if iszero(not(state)) { // frame 0
                            if iszero(eq(pos, end)) { code := 3 }
                            mstore(add(mload(0x40), ITEMS_SLOT), total)
                            break
                        }
                        continue // the parent: an array's next element, or a map's key
                    }
                    {
                        // a map's key: a text; one of at most 32 encoded bytes kept as
                        // its encoding's value (the head first: such values order as the
                        // encodings do, a longer one above), a longer one as LONG | start
                        // << 128 | length. A short text head (0x60-0x77: 1 to 24 encoded
                        // bytes) is read at once; any other head is a rare case (n above
                        // 24, or 0 with a key of 0: no key orders after the previous one)
                        // read again by the general head first.
                        let key := calldataload(pos)
                        let n := sub(shr(248, key), 0x5f) // encoded bytes of a head 0x60..0x77
                        let next := add(pos, n)
                        key := shr(sub(256, shl(3, n)), key)
                        // one test for the rare: not a short text head, cut, out of order
                        // or repeated (one compare unless this key is long; both long:
                        // `keyOrder`), not ASCII (a short key's value is ASCII iff its
                        // text is: its head and length bytes are below 0x80; a long key's
                        // has its top bit set), a top-level key (`prevKey` all ones)
                        if iszero(and(gt(key, prevKey), iszero(or(and(key, RARE_KEY), gt(next, end))))) {
                            if iszero(lt(sub(n, 1), 24)) {
                                // the general head (no key at the end of the data: 2)
                                if iszero(lt(pos, end)) {
                                    code := 2
                                    break
                                }
                                let b := shr(248, calldataload(pos))
                                if and(iszero(eq(shr(5, b), 3)), lt(and(b, 31), 28)) {
                                    code := 7
                                    break
                                }
                                let arg := 0
                                code, arg, next := slowHead(pos, end, b)
                                if code { break }
                                next := add(next, arg)
                                n := sub(next, pos)
                                key := shr(sub(256, shl(3, n)), calldataload(pos))
                                if gt(n, 32) { key := or(shl(255, gt(n, 32)), or(shl(128, pos), n)) } // LONG | ... (no PUSH32)
                            }
                            if gt(next, end) {
                                code := 2
                                break
                            }
                            let prev := prevKey
                            if iszero(not(prevKey)) { prev := mload(sub(sp, TOP_PREV)) } // a top-level key
                            if or(iszero(gt(key, prev)), shr(255, key)) {
                                code := add(8, eq(key, prev))
                                if shr(255, key) {
                                    code := 0
                                    if shr(255, prev) {
                                        code := keyOrder(prev, key)
                                        code := mul(lt(code, 2), sub(9, code))
                                    }
                                }
                                if code { break }
                            }
                            if and(key, mload(0x20)) { // not ASCII (HIGH)
                                // the text's start: past a head of 1, 2, 3, 5 or 9 bytes
                                let t := add(pos, 1)
                                let ai := and(shr(248, calldataload(pos)), 31)
                                if gt(ai, 23) { t := add(t, shl(sub(ai, 24), 1)) }
                                if utf8Bad(t, next) {
                                    code := 13
                                    break
                                }
                            }
                            if iszero(not(prevKey)) {
                                // a top-level key (`sp` is frame 1's end): kept at TOP_PREV,
                                // its offset and its value's past TOP_SLOT, their count in
                                // bytes; `prevKey` stays all ones
                                mstore(sub(sp, TOP_PREV), key)
                                let t := add(sp, TOP_AT)
                                let c := add(mload(t), 0x40)
                                mstore(t, c)
                                mstore(add(t, sub(c, 0x20)), sub(pos, data.offset))
                                mstore(add(t, c), sub(next, data.offset))
                                key := not(0)
                            }
                        }
                        prevKey := key
                        pos := next
                    }
                }
                // an item (an element, a value): past the end of the data its head is
                // whatever byte is there, and each path's bound (its item's end past the
                // data's) or mask test (the whole items) finds it
                let b := shr(248, calldataload(pos))
                if and(shr(b, SIMPLE), lt(pos, end)) {
                    pos := add(pos, 1)
                    state := sub(state, 1)
                    continue
                }
                let arg := and(b, 31)
                let p := add(pos, 1)
                if iszero(gt(sub(b, 0x60), 23)) {
                    // a short text: ASCII in one test (the word's bytes past it shifted
                    // out); cut or not ASCII in one branch
                    if or(gt(add(p, arg), end), shr(shl(3, sub(32, arg)), and(calldataload(p), HIGH))) {
                        if gt(add(p, arg), end) {
                            code := 2
                            break
                        }
                        if utf8Bad(p, add(p, arg)) {
                            code := 13
                            break
                        }
                    }
                    pos := add(p, arg)
                    state := sub(state, 1)
                    continue
                }
                if iszero(gt(sub(b, 0x80), 0x3f)) {
                    // an array or a map: the rare in one branch (a count of 24 or more,
                    // the depth cap, the count past the bytes left), there in the order
                    // of faults: the head's (the end, a count of 24 or more), the depth,
                    // the count against the bytes left
                    let isMap := and(b, 0x20) // 0x20 for a map
                    let items := shl(shr(5, isMap), arg)
                    if iszero(and(and(lt(arg, 24), lt(sp, cap)), iszero(gt(add(p, items), end)))) {
                        if or(gt(arg, 23), iszero(lt(pos, end))) {
                            code, arg, p := slowHead(pos, end, b)
                            if code { break }
                            items := shl(shr(5, isMap), arg)
                        }
                        if iszero(lt(sp, cap)) {
                            code := 14
                            break
                        }
                        if gt(items, sub(end, p)) {
                            code := 2
                            break
                        }
                    }
                    total := add(total, items)
                    pos := p
                    if iszero(items) { // empty: nothing opens
                        state := sub(state, 1)
                        continue
                    }
                    // open (the parent's unit counted)
                    mstore(sp, sub(state, 1))
                    mstore(add(sp, 0x20), prevKey)
                    sp := add(sp, 0x40)
                    state := or(arg, shl(250, isMap))
                    prevKey := 0
                    continue
                }
                if iszero(xor(b, 0x58)) {
                    // a byte string of 24 to 255 bytes (a hash): its length byte missing
                    // or the string cut (2) unless the length is non-shortest (6), in one
                    // branch
                    arg := shr(248, calldataload(p))
                    p := add(add(p, 1), arg) // its end
                    if or(gt(p, end), lt(arg, 24)) {
                        code := 2
                        if lt(add(pos, 1), end) { code := sub(6, shl(2, iszero(lt(arg, 24)))) }
                        break
                    }
                    mstore(0, 1) // a byte string met (scratch word 0)
                    pos := p
                    state := sub(state, 1)
                    continue
                }
                if iszero(xor(b, 0x78)) {
                    // a text of 24 to 255 bytes: as the 0x58 path, then ASCII in one test
                    // of two words up to 64 bytes, `utf8Bad` only otherwise
                    arg := shr(248, calldataload(p))
                    p := add(add(p, 1), arg) // its end
                    if or(gt(p, end), lt(arg, 24)) {
                        code := 2
                        if lt(add(pos, 1), end) { code := sub(6, shl(2, iszero(lt(arg, 24)))) }
                        break
                    }
                    // its first word and its last (the word ending at `p`) hold the whole
                    // text up to 64 bytes; below 32 each is shifted to hold only its
                    // bytes (`k`: the bits past them), so one HIGH tests both
                    let k := arg
                    if gt(k, 32) { k := 32 }
                    k := shl(3, sub(32, k))
                    if or(gt(arg, 64), and(or(shr(k, calldataload(sub(p, arg))), shl(k, calldataload(sub(p, 32)))),
                                           HIGH)) {
                        if utf8Bad(sub(p, arg), p) {
                            code := 13
                            break
                        }
                    }
                    pos := p
                    state := sub(state, 1)
                    continue
                }
                if iszero(gt(sub(and(b, 0x1df), 0x18), 3)) {
                    // an integer with a 1, 2, 4 or 8-byte argument (0x18-0x1b, 0x38-0x3b):
                    // missing (2), or non-shortest (6: below 24, or its upper half zero), in
                    // one branch
                    let w := shl(sub(arg, 24), 1)
                    arg := shr(sub(256, shl(3, w)), calldataload(p))
                    p := add(p, w)
                    if or(gt(p, end), or(lt(arg, 24), iszero(shr(shl(2, w), arg)))) {
                        code := sub(6, shl(2, gt(p, end)))
                        break
                    }
                    pos := p
                    state := sub(state, 1)
                    continue
                }
                // the general head: its faults, the end of the data included (a head below
                // 0x40 with an argument under 24 comes here only there)
                if or(gt(arg, 23), or(gt(b, 0xbf), lt(b, 0x40))) {
                    code, arg, p := slowHead(pos, end, b)
                    if code { break }
                }
                if shr(6, b) {
                    // a byte or text string (an integer: nothing more)
                    if gt(add(p, arg), end) {
                        code := 2
                        break
                    }
                    switch and(b, 0x20)
                    case 0 { mstore(0, 1) } // a byte string met (scratch word 0)
                    default {
                        // a text here has 256 bytes or more (a 2, 4 or 8-byte length: the
                        // shorter ones take their own paths, a non-shortest length is a
                        // fault above), so it goes to `utf8Bad` (32 ASCII bytes a step)
                        if utf8Bad(p, add(p, arg)) {
                            code := 13
                            break
                        }
                    }
                    p := add(p, arg)
                }
                pos := p
                state := sub(state, 1)
            }
            if code { at := sub(pos, data.offset) }
        }
    }
}
