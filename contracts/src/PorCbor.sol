// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCborScan} from "./PorCborScan.sol";

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
    /// checks other text about 28 bytes at a time (`PorCborScan.scan`).
    function check(bytes calldata data) internal pure returns (bytes32, uint256) {
        (uint256 code, uint256 at) = scan(data);
        return (idOf(code), at);
    }

    /// Nesting cap (SPEC §2, `codec.depth`): a top-level container is depth 1.
    uint256 internal constant MAX_DEPTH = PorCborScan.MAX_DEPTH;

    /// Where `scan` leaves a top-level map's items' count and their offsets
    /// (`PorCborTop.checkTop`): `PorCborScan.TOP_SLOT`, at most TOP_ITEMS of them.
    uint256 internal constant TOP_SLOT = PorCborScan.TOP_SLOT;
    uint256 internal constant TOP_ITEMS = PorCborScan.TOP_ITEMS;

    /// (0, 0) when `data` is exactly one por-cbor/1 item, else (code, offset), the code
    /// 1-based in the order of NAMES (`idOf`): `PorCborScan.scan`.
    function scan(bytes calldata data) internal pure returns (uint256 code, uint256 at) {
        return PorCborScan.scan(data);
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

    /// The offset just after the item at `pos` (iterative: a counter of items left; a
    /// string's length and a container's count added without a branch, by `shr(6, head)`:
    /// 1 a string, 2 an array or map, 0 or 3 neither).
    function skip(bytes calldata data, uint256 pos) internal pure returns (uint256 next) {
        assembly ("memory-safe") {
            next := add(data.offset, pos)
            for { let units := 1 } units {} {
                let hb := shr(248, calldataload(next))
                if lt(sub(hb, 0x60), 24) {
                    // a short text (most often a key): its head and bytes
                    next := add(next, sub(hb, 0x5f))
                    units := sub(units, 1)
                    continue
                }
                let a := and(hb, 31)
                next := add(next, 1)
                if gt(a, 23) {
                    let width := shl(sub(a, 24), 1)
                    a := shr(sub(256, shl(3, width)), calldataload(next))
                    next := add(next, width)
                }
                // a nibble of 0x421100 per major (hb >> 5): bit 0 a string (its bytes follow),
                // bits 1-2 the units a count opens (1 an array's, 2 a map's)
                let f := shr(shr(3, and(hb, 0xe0)), 0x421100)
                next := add(next, mul(and(f, 1), a))
                units := add(units, sub(mul(and(shr(1, f), 3), a), 1))
            }
            next := sub(next, data.offset)
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
