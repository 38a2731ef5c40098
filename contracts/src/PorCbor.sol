// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorCbor: a strict reader of por-cbor/1 (SPEC §2) over calldata.
/// @notice `check` accepts exactly the bytes por's decoder accepts (one canonical item,
/// definite lengths, shortest heads, text keys in strictly increasing encoded order, valid
/// UTF-8, no floats, tags or simple values but false/true, depth <= 32) and otherwise
/// returns the SPEC §2 check id of the first fault met in a left-to-right parse, as
/// keccak256 of the id text, with its offset. The readers below (`head`, `skip`, `get`, ...)
/// assume a document `check` accepted: they do not re-check.
library PorCbor {
    bytes32 internal constant EMPTY = keccak256("codec.empty");
    bytes32 internal constant TRUNCATED = keccak256("codec.truncated");
    bytes32 internal constant TRAILING = keccak256("codec.trailing_bytes");
    bytes32 internal constant RESERVED = keccak256("codec.reserved");
    bytes32 internal constant INDEFINITE = keccak256("codec.indefinite");
    bytes32 internal constant NON_CANONICAL = keccak256("codec.non_canonical");
    bytes32 internal constant KEY_TYPE = keccak256("codec.key_type");
    bytes32 internal constant KEY_ORDER = keccak256("codec.key_order");
    bytes32 internal constant DUPLICATE_KEY = keccak256("codec.duplicate_key");
    bytes32 internal constant FLOAT = keccak256("codec.float");
    bytes32 internal constant SIMPLE = keccak256("codec.simple");
    bytes32 internal constant TAG = keccak256("codec.tag");
    bytes32 internal constant INVALID_UTF8 = keccak256("codec.invalid_utf8");
    bytes32 internal constant DEPTH = keccak256("codec.depth");

    /// Nesting cap (SPEC §2, `codec.depth`): a top-level container is depth 1.
    uint256 internal constant MAX_DEPTH = 32;

    uint8 internal constant UINT = 0;
    uint8 internal constant NINT = 1;
    uint8 internal constant BYTES = 2;
    uint8 internal constant TEXT = 3;
    uint8 internal constant ARRAY = 4;
    uint8 internal constant MAP = 5;
    uint8 internal constant SIMPLE_VALUE = 7;

    /// The ids' names after `codec.`, in the order of `scan`'s codes (1-based), each a
    /// 1-byte length then the text: EMPTY ... DEPTH above.
    bytes private constant NAMES = "\x05empty\x09truncated\x0etrailing_bytes\x08reserved\x0aindefinite"
        "\x0dnon_canonical\x08key_type\x09key_order\x0dduplicate_key\x05float\x06simple\x03tag"
        "\x0cinvalid_utf8\x05depth";

    /// The id of a code `scan` returns (0: accepted): keccak256 of `codec.` and its name,
    /// hashed when a fault is met (a table of the fourteen hashes would be in every
    /// contract reading por-cbor, ~460 bytes of code).
    function idOf(uint256 code) internal pure returns (bytes32 id) {
        if (code == 0) return 0;
        bytes memory names = NAMES;
        assembly ("memory-safe") {
            let p := add(names, 32)
            for { let i := 1 } lt(i, code) { i := add(i, 1) } { p := add(p, add(1, byte(0, mload(p)))) }
            let len := byte(0, mload(p))
            let buf := mload(0x40)
            mstore(buf, "codec.")
            mcopy(add(buf, 6), add(p, 1), len)
            id := keccak256(buf, add(6, len))
        }
    }

    /// (0, 0) when `data` is exactly one por-cbor/1 item, else (check id, offset).
    /// Work: one pass, O(bytes); the UTF-8 scan skips ASCII 32 bytes at a time and
    /// checks other text about 28 bytes at a time (`utf8Bad`).
    function check(bytes calldata data) internal pure returns (bytes32, uint256) {
        (uint256 code, uint256 at) = scan(data);
        return (idOf(code), at);
    }

    /// Where `scan` leaves the item count: past the container stack's deepest level
    /// (read by `PorCborTop.checkTop`, one word before TOP_SLOT).
    uint256 private constant ITEMS_SLOT = 0xc60; // (MAX_DEPTH + 1) * 0x60

    /// Past ITEMS_SLOT: a top-level map's items' count, then its first TOP_ITEMS items'
    /// offsets (`PorCborTop.checkTop`; scratch word 0: 1 when a byte string was met).
    uint256 internal constant TOP_SLOT = 0xc80; // ITEMS_SLOT + 0x20 (assembly takes literals only)
    uint256 internal constant TOP_ITEMS = 32;

    /// The parse of `check`, in assembly (a high-level loop costs ~1 000 gas per item).
    /// Per open container, three memory words: items left (a map counts keys and
    /// values), 1 for a map, the previous key's encoding (start << 128 | length).
    /// Faults in the SPEC §2 order: at a key position a non-text major (ai < 28);
    /// in a head reserved ai, ai 31, tag, float, simple, a missing argument, a
    /// non-shortest argument; then a string's length, a key's order, its UTF-8; a
    /// container's depth, then its count against the bytes left.
    function scan(bytes calldata data) internal pure returns (uint256 code, uint256 at) {
        if (data.length == 0) return (1, 0);
        assembly ("memory-safe") {
            // Order of the previous key and this one (start << 128 | length), both
            // longer than 32 encoded bytes (shorter ones compare as words in the loop):
            // 0 equal, 1 previous after this one, 2 previous before.
            function keyOrder(base, prev, key) -> ord {
                let a := shr(128, prev)
                let la := and(prev, 0xffffffffffffffffffffffffffffffff)
                let b := shr(128, key)
                let lb := and(key, 0xffffffffffffffffffffffffffffffff)
                let n := la
                if lt(lb, n) { n := lb }
                for { let i := 0 } lt(i, n) { i := add(i, 32) } {
                    let x := calldataload(add(base, add(a, i)))
                    let y := calldataload(add(base, add(b, i)))
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
            // Strict UTF-8 of [i, e): 1 for a fault (RFC 3629 §4: no overlong, surrogate or
            // code point above U+10FFFF). Word-parallel: 32 ASCII bytes are skipped at a
            // time; otherwise a window of up to 28 bytes is classified in one pass of word
            // operations, each byte's bits 7..0 moved to its lane's top bit (`H`): the
            // continuations it holds must be exactly those its leads (and the last
            // window's, `carry`) require, and the five bytes with a narrower second byte
            // (E0, ED, F0, F4; C0, C1 and F5..FF never appear) are checked against their
            // next lane. About 7 gas a byte, any mix of code points.
            function utf8Bad(base, i, e) -> bad {
                let h := mul(0x80, div(not(0), 0xff)) // 0x80 in every lane
                let carry := 0
                for {} lt(i, e) {} {
                    let w := calldataload(add(base, i))
                    {
                        let take := sub(e, i)
                        if gt(take, 32) { take := 32 }
                        if iszero(or(carry, and(w, and(h, not(shr(shl(3, take), not(0))))))) {
                            i := add(i, take)
                            continue
                        }
                    }
                    let l := sub(e, i)
                    if gt(l, 28) { l := 28 }
                    // the top bit of lanes 0..l-1
                    let m := and(h, not(shr(shl(3, l), not(0))))
                    let f := 0 // a lane's fault
                    let need := carry // the lanes that must be continuations
                    {
                        let t5 := and(and(and(w, shl(1, w)), shl(2, w)), m) // 111xxxxx
                        {
                            let lead2 := and(and(and(w, shl(1, w)), m), not(t5)) // 110xxxxx
                            // C0, C1 (overlong)
                            f := and(lead2, not(or(or(shl(3, w), shl(4, w)), or(shl(5, w), shl(6, w)))))
                            need := or(need, shr(8, lead2))
                        }
                        let t4 := and(t5, shl(3, w)) // 1111xxxx
                        {
                            let lead3 := xor(t5, t4) // 1110xxxx
                            // E0 then below A0 (overlong); ED then above 9F (a surrogate)
                            f := or(f, and(and(lead3, not(or(or(shl(4, w), shl(5, w)), or(shl(6, w), shl(7, w))))),
                                           not(shl(10, w))))
                            f := or(f, and(and(and(lead3, and(shl(4, w), shl(5, w))), and(shl(7, w), not(shl(6, w)))),
                                           shl(10, w)))
                            need := or(need, or(shr(8, lead3), shr(16, lead3)))
                        }
                        let t3 := and(t4, shl(4, w)) // 11111xxx: F8..FF
                        let lead4 := xor(t4, t3) // 11110xxx
                        let n := or(shl(10, w), shl(11, w)) // the next lane's bit 5 or 4
                        // F0 then below 90 (overlong); F4 then above 8F, F5..F7 (above U+10FFFF)
                        f := or(or(f, t3), and(lead4, not(xor(shl(5, w), or(or(shl(6, w), shl(7, w)), n)))))
                        need := or(need, or(shr(8, lead4), or(shr(16, lead4), shr(24, lead4))))
                    }
                    // a fault, a continuation where none is needed, or none where one is
                    if or(f, and(xor(and(w, not(shl(1, w))), need), m)) {
                        bad := 1
                        break
                    }
                    carry := shl(shl(3, l), need)
                    i := add(i, l)
                }
                if carry { bad := 1 }
            }
            let base := data.offset
            let end := data.length
            // the container stack: scratch memory from the free memory pointer on (not
            // allocated: nothing outlives this block), three words per open container
            let depth := 0
            // the items of every array and map (SPEC §17.1), kept past the stack's deepest
            // level (`ITEMS_SLOT`) for `PorCborTop.checkTop`
            mstore(add(mload(0x40), ITEMS_SLOT), 0)
            mstore(add(mload(0x40), TOP_SLOT), 0)
            mstore(0, 0)
            // the open container's items left, 1 for a map, previous key (saved in
            // `stack` while a child is open)
            let rem := 1
            let inMap := 0
            let prevKey := sub(shl(248, 0x60), 1) // NO_KEY: below every short key
            let pos := 0
            for {} 1 {} {
                if iszero(lt(pos, end)) {
                    code := 2
                    at := pos
                    break
                }
                at := pos // the item's start
                let major := byte(0, calldataload(add(base, pos)))
                let ai := and(major, 31)
                major := shr(5, major)
                pos := add(pos, 1)
                let atKey := 0
                if inMap {
                    atKey := iszero(and(rem, 1))
                    if atKey {
                        if and(iszero(eq(major, 3)), lt(ai, 28)) {
                            code := 7
                            break
                        }
                    }
                }
                let arg := ai
                // a long or reserved argument, a tag, a simple value: the head's faults
                if or(gt(ai, 23), gt(major, 5)) {
                    if gt(ai, 27) {
                        code := 4
                        if and(eq(ai, 31), and(gt(major, 1), lt(major, 6))) { code := 5 }
                        break
                    }
                    if eq(major, 6) {
                        code := 12
                        break
                    }
                    if eq(major, 7) {
                        if iszero(or(eq(ai, 20), eq(ai, 21))) {
                            code := 11
                            if gt(ai, 24) { code := 10 }
                            break
                        }
                    }
                    if gt(ai, 23) {
                        let width := shl(sub(ai, 24), 1)
                        if gt(width, sub(end, pos)) {
                            code := 2
                            break
                        }
                        arg := shr(sub(256, shl(3, width)), calldataload(add(base, pos)))
                        pos := add(pos, width)
                        let least := 24
                        if gt(ai, 24) { least := shl(shl(sub(ai, 24), 4), 1) }
                        if lt(arg, least) {
                            code := 6
                            break
                        }
                    }
                }
                switch shr(1, major)
                case 1 {
                    // a byte or text string
                    if gt(arg, sub(end, pos)) {
                        code := 2
                        break
                    }
                    if atKey {
                        // a key of at most 32 encoded bytes (all of por's) is kept as its
                        // zero-padded word (first byte its head, nonzero): such words order
                        // as the encodings do, and a longer key (kept as start << 128 |
                        // length, first byte 0) orders after every one of them; `prevKey`
                        // starts below every short key (`NO_KEY`, first byte 0x5f)
                        let key := sub(add(pos, arg), at) // its encoded length, then the key
                        if lt(key, 33) {
                            key := and(calldataload(add(base, at)), not(shr(shl(3, key), not(0))))
                            // its head and length bytes are below 0x80: the word is ASCII iff
                            // the text is (`atKey`, no longer needed, says so from here on)
                            atKey := iszero(and(key, mul(0x80, div(not(0), 0xff))))
                        }
                        if iszero(shr(248, key)) {
                            key := or(shl(128, at), key)
                            atKey := 0
                        }
                        // both short (heads 0x60..0x78 and NO_KEY's 0x5f share a bit): one
                        // compare; 9 a duplicate, 8 out of order
                        if and(shr(248, prevKey), shr(248, key)) {
                            if iszero(gt(key, prevKey)) {
                                code := add(8, eq(key, prevKey))
                                break
                            }
                        }
                        // the previous key long: this one orders after it only if it is
                        // long too and after it (`keyOrder`: 0 equal, 1 previous after
                        // this one, 2 previous before; in `ai`, no longer needed)
                        if iszero(shr(248, prevKey)) {
                            ai := 1
                            if iszero(shr(248, key)) {
                                ai := keyOrder(base, prevKey, key)
                            }
                            if iszero(ai) {
                                code := 9
                                break
                            }
                            if eq(ai, 1) {
                                code := 8
                                break
                            }
                        }
                        prevKey := key
                        if eq(depth, 1) { // a top-level key: its offset and its value's
                            let top := add(mload(0x40), TOP_SLOT)
                            let c := mload(top)
                            if lt(c, TOP_ITEMS) {
                                mstore(add(top, shl(5, add(c, 1))), at)
                                mstore(add(top, shl(5, add(c, 2))), add(pos, arg))
                            }
                            mstore(top, add(c, 2))
                        }
                    }
                    if eq(major, 2) { mstore(0, 1) } // a byte string met (scratch word 0)
                    if eq(major, 3) {
                        // a text of at most 32 ASCII bytes needs no call (`atKey`: a key
                        // known to be ASCII)
                        if iszero(atKey) {
                            if lt(arg, 33) {
                                atKey := iszero(and(calldataload(add(base, pos)),
                                    and(0x8080808080808080808080808080808080808080808080808080808080808080,
                                        not(shr(shl(3, arg), not(0))))))
                            }
                        }
                        if iszero(atKey) {
                            if utf8Bad(base, pos, add(pos, arg)) {
                                code := 13
                                break
                            }
                        }
                    }
                    pos := add(pos, arg)
                }
                case 2 {
                    // an array or a map
                    if iszero(lt(depth, MAX_DEPTH)) {
                        code := 14
                        break
                    }
                    let items := shl(sub(major, 4), arg)
                    if gt(items, sub(end, pos)) {
                        code := 2
                        break
                    }
                    let total := add(mload(0x40), ITEMS_SLOT)
                    mstore(total, add(mload(total), items))
                    if items {
                        // open: the parent's item is counted when the container closes
                        let lvl := add(mload(0x40), mul(depth, 0x60))
                        mstore(lvl, rem)
                        mstore(add(lvl, 0x20), inMap)
                        mstore(add(lvl, 0x40), prevKey)
                        depth := add(depth, 1)
                        rem := add(items, 1)
                        inMap := eq(major, 5)
                        prevKey := sub(shl(248, 0x60), 1) // NO_KEY
                    }
                }
                // count the item; close every container it completes
                rem := sub(rem, 1)
                if iszero(rem) {
                    for {} iszero(rem) {} {
                        if iszero(depth) { break }
                        depth := sub(depth, 1)
                        let lvl := add(mload(0x40), mul(depth, 0x60))
                        rem := sub(mload(lvl), 1)
                        inMap := mload(add(lvl, 0x20))
                        prevKey := mload(add(lvl, 0x40))
                    }
                    if iszero(rem) {
                        at := 0
                        if iszero(eq(pos, end)) {
                            code := 3
                            at := pos
                        }
                        break
                    }
                }
            }
        }
    }

    // --- readers of checked documents --------------------------------------------------

    /// The head at `pos` of a checked document.
    function head(bytes calldata data, uint256 pos)
        internal
        pure
        returns (uint8 major, uint256 arg, uint256 next)
    {
        assembly ("memory-safe") {
            let ib := byte(0, calldataload(add(data.offset, pos)))
            major := shr(5, ib)
            arg := and(ib, 31)
            next := add(pos, 1)
            if gt(arg, 23) {
                let width := shl(sub(arg, 24), 1)
                arg := shr(sub(256, shl(3, width)), calldataload(add(data.offset, next)))
                next := add(next, width)
            }
        }
    }

    /// The offset just after the item at `pos` (iterative: a counter of items left).
    function skip(bytes calldata data, uint256 pos) internal pure returns (uint256 next) {
        assembly ("memory-safe") {
            next := pos
            for { let left := 1 } left { left := sub(left, 1) } {
                let ib := byte(0, calldataload(add(data.offset, next)))
                let major := shr(5, ib)
                let arg := and(ib, 31)
                next := add(next, 1)
                if gt(arg, 23) {
                    let width := shl(sub(arg, 24), 1)
                    arg := shr(sub(256, shl(3, width)), calldataload(add(data.offset, next)))
                    next := add(next, width)
                }
                if or(eq(major, 2), eq(major, 3)) { next := add(next, arg) }
                if eq(major, 4) { left := add(left, arg) }
                if eq(major, 5) { left := add(left, shl(1, arg)) }
            }
        }
    }

    /// True when the item at `pos` is the text `key`.
    function isText(bytes calldata data, uint256 pos, bytes memory key) internal pure returns (bool same) {
        uint256 n = key.length;
        if (n < 24) {
            // head and text in one word: 0x60 | n, then the n bytes
            assembly ("memory-safe") {
                let got := shr(shl(3, sub(31, n)), calldataload(add(data.offset, pos)))
                let want := or(shl(shl(3, n), or(0x60, n)), shr(shl(3, sub(32, n)), mload(add(key, 32))))
                same := eq(got, want)
            }
            return same;
        }
        (uint8 major, uint256 len, uint256 next) = head(data, pos);
        if (major != TEXT || len != key.length) return false;
        return equal(data, next, key, 0, len);
    }

    /// data[at:at+len] equals key[from:from+len] (word by word, no copy).
    function equal(bytes calldata data, uint256 at, bytes memory key, uint256 from, uint256 len)
        internal
        pure
        returns (bool same)
    {
        assembly ("memory-safe") {
            same := 1
            let src := add(data.offset, at)
            let ref := add(add(key, 32), from)
            for { let i := 0 } lt(i, len) { i := add(i, 32) } {
                let x := calldataload(add(src, i))
                let y := mload(add(ref, i))
                if lt(sub(len, i), 32) {
                    let sh := shl(3, sub(32, sub(len, i)))
                    x := shr(sh, x)
                    y := shr(sh, y)
                }
                if iszero(eq(x, y)) {
                    same := 0
                    break
                }
            }
        }
    }

    /// Offset and length of the text or byte string at `pos` whose major is `want`;
    /// ok false for another type.
    function str(bytes calldata data, uint256 pos, uint8 want)
        internal
        pure
        returns (bool ok, uint256 offset, uint256 len)
    {
        (uint8 major, uint256 arg, uint256 next) = head(data, pos);
        if (major != want) return (false, 0, 0);
        return (true, next, arg);
    }

    /// The unsigned integer at `pos`; ok false for another type.
    function uintAt(bytes calldata data, uint256 pos) internal pure returns (bool ok, uint256 v) {
        (uint8 major, uint256 arg,) = head(data, pos);
        return (major == UINT, arg);
    }

    /// The bool at `pos`: (ok, value).
    function boolAt(bytes calldata data, uint256 pos) internal pure returns (bool ok, bool v) {
        uint8 ib = uint8(data[pos]);
        return (ib == 0xf4 || ib == 0xf5, ib == 0xf5);
    }

    /// The 32-byte byte string at `pos`.
    function hashAt(bytes calldata data, uint256 pos) internal pure returns (bool ok, bytes32 v) {
        (uint8 major, uint256 arg, uint256 next) = head(data, pos);
        if (major != BYTES || arg != 32) return (false, 0);
        return (true, bytes32(data[next:next + 32]));
    }

    /// The container at `pos` of type `want` (ARRAY or MAP): (ok, count, first item).
    function container(bytes calldata data, uint256 pos, uint8 want)
        internal
        pure
        returns (bool ok, uint256 count, uint256 first)
    {
        (uint8 major, uint256 arg, uint256 next) = head(data, pos);
        return (major == want, arg, next);
    }

    /// The value of `key` in the map at `pos` (0 when absent or not a map); keys are
    /// scanned in order, values skipped.
    function get(bytes calldata data, uint256 pos, bytes memory key) internal pure returns (uint256) {
        (bool ok, uint256 count, uint256 at) = container(data, pos, MAP);
        if (!ok) return 0;
        for (uint256 i = 0; i < count; i++) {
            if (isText(data, at, key)) return skip(data, at);
            at = skip(data, skip(data, at));
        }
        return 0;
    }
}
