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

    /// Read one head at `pos` with the SPEC §2 order of faults: reserved ai, indefinite,
    /// tag/float/simple by the initial byte, truncated argument, non-shortest argument.
    function checkedHead(bytes calldata data, uint256 pos)
        internal
        pure
        returns (bytes32 err, uint8 major, uint256 arg, uint256 next)
    {
        uint256 ib = uint8(data[pos]);
        major = uint8(ib >> 5);
        uint256 ai = ib & 0x1f;
        next = pos + 1;
        if (ai >= 28) {
            if (ai == 31 && major >= 2 && major <= 5) return (INDEFINITE, major, 0, next);
            return (RESERVED, major, 0, next);
        }
        if (major == 6) return (TAG, major, 0, next);
        if (major == 7) {
            if (ai == 20 || ai == 21) return (0, major, ai, next);
            if (ai >= 25) return (FLOAT, major, 0, next);
            return (SIMPLE, major, 0, next);
        }
        if (ai < 24) return (0, major, ai, next);
        uint256 width = 1 << (ai - 24);
        if (width > data.length - next) return (TRUNCATED, major, 0, data.length);
        arg = uint256(bytes32(data[next:next + width])) >> (256 - 8 * width);
        next += width;
        uint256 least = ai == 24 ? 24 : (uint256(1) << (4 << (ai - 24)));
        if (arg < least) return (NON_CANONICAL, major, arg, next);
    }

    /// Parser state: per open container the items left (maps count keys and values)
    /// and, for maps, the previous key's encoding (start << 128 | length; 0: none yet).
    /// Slot 0 is the top level.
    struct State {
        uint256[MAX_DEPTH + 1] rem;
        uint256[MAX_DEPTH + 1] prevKey;
        bool[MAX_DEPTH + 1] isMap;
        uint256 depth;
        uint256 pos;
    }

    /// (0, 0) when `data` is exactly one por-cbor/1 item, else (check id, offset).
    /// Work: one pass, O(bytes); the UTF-8 scan skips ASCII 32 bytes at a time.
    function check(bytes calldata data) internal pure returns (bytes32, uint256) {
        if (data.length == 0) return (EMPTY, 0);
        State memory st;
        st.rem[0] = 1;
        while (true) {
            if (st.pos >= data.length) return (TRUNCATED, st.pos);
            uint256 start = st.pos;
            bytes32 err = item(data, st);
            if (err != 0) return (err, start);
            st.rem[st.depth] -= 1;
            while (st.rem[st.depth] == 0) {
                if (st.depth == 0) {
                    if (st.pos != data.length) return (TRAILING, st.pos);
                    return (0, 0);
                }
                st.depth -= 1;
            }
        }
        return (0, 0); // unreachable
    }

    /// One item at st.pos: a scalar or string is consumed; a non-empty container is
    /// opened (its count becomes the new level, and the caller's decrement is undone).
    function item(bytes calldata data, State memory st) private pure returns (bytes32) {
        uint256 start = st.pos;
        uint256 depth = st.depth;
        bool atKey = st.isMap[depth] && st.rem[depth] % 2 == 0;
        if (atKey) {
            uint256 ib = uint8(data[start]);
            if (ib >> 5 != 3 && ib & 0x1f < 28) return KEY_TYPE;
        }
        (bytes32 err, uint8 major, uint256 arg, uint256 next) = checkedHead(data, start);
        if (err != 0) return err;
        st.pos = next;
        if (major == BYTES || major == TEXT) {
            if (arg > data.length - next) return TRUNCATED;
            if (atKey) {
                uint256 keyLen = next + arg - start;
                uint256 prev = st.prevKey[depth];
                if (prev != 0) {
                    int256 order = compare(data, prev >> 128, uint128(prev), start, keyLen);
                    if (order == 0) return DUPLICATE_KEY;
                    if (order > 0) return KEY_ORDER;
                }
                st.prevKey[depth] = (start << 128) | keyLen;
            }
            if (major == TEXT && !validUtf8(data, next, arg)) return INVALID_UTF8;
            st.pos = next + arg;
        } else if (major == ARRAY || major == MAP) {
            if (depth >= MAX_DEPTH) return DEPTH;
            uint256 items = major == MAP ? arg * 2 : arg;
            if (items > data.length - next) return TRUNCATED;
            if (items > 0) {
                st.rem[depth] -= 1;
                st.depth = depth + 1;
                st.rem[depth + 1] = items + 1;
                st.isMap[depth + 1] = major == MAP;
                st.prevKey[depth + 1] = 0;
            }
        }
        return 0;
    }

    /// Bytewise order of data[a:a+la] and data[b:b+lb]: -1, 0 or 1.
    function compare(bytes calldata data, uint256 a, uint256 la, uint256 b, uint256 lb)
        internal
        pure
        returns (int256)
    {
        uint256 n = la < lb ? la : lb;
        for (uint256 i = 0; i < n; i += 32) {
            uint256 take = n - i < 32 ? n - i : 32;
            uint256 mask = type(uint256).max << (256 - 8 * take);
            uint256 x = uint256(bytes32(data[a + i:a + i + take])) & mask;
            uint256 y = uint256(bytes32(data[b + i:b + i + take])) & mask;
            if (x != y) return x < y ? int256(-1) : int256(1);
        }
        if (la == lb) return 0;
        return la < lb ? int256(-1) : int256(1);
    }

    /// Strict UTF-8 (RFC 3629): no overlongs, no surrogates, nothing above U+10FFFF.
    function validUtf8(bytes calldata data, uint256 pos, uint256 len) internal pure returns (bool) {
        uint256 end = pos + len;
        uint256 i = pos;
        while (i < end) {
            if (end - i >= 32) {
                uint256 word = uint256(bytes32(data[i:i + 32]));
                if (word & 0x8080808080808080808080808080808080808080808080808080808080808080 == 0) {
                    i += 32;
                    continue;
                }
            }
            uint256 c = uint8(data[i]);
            if (c < 0x80) {
                i += 1;
                continue;
            }
            uint256 n;
            uint256 lo = 0x80;
            uint256 hi = 0xbf;
            if (c >= 0xc2 && c <= 0xdf) {
                n = 1;
            } else if (c >= 0xe0 && c <= 0xef) {
                n = 2;
                if (c == 0xe0) lo = 0xa0;
                if (c == 0xed) hi = 0x9f;
            } else if (c >= 0xf0 && c <= 0xf4) {
                n = 3;
                if (c == 0xf0) lo = 0x90;
                if (c == 0xf4) hi = 0x8f;
            } else {
                return false;
            }
            if (end - i <= n) return false;
            uint256 b = uint8(data[i + 1]);
            if (b < lo || b > hi) return false;
            for (uint256 k = 2; k <= n; k++) {
                b = uint8(data[i + k]);
                if (b < 0x80 || b > 0xbf) return false;
            }
            i += n + 1;
        }
        return true;
    }

    // --- readers of checked documents --------------------------------------------------

    /// The head at `pos` of a checked document.
    function head(bytes calldata data, uint256 pos)
        internal
        pure
        returns (uint8 major, uint256 arg, uint256 next)
    {
        uint256 ib = uint8(data[pos]);
        major = uint8(ib >> 5);
        uint256 ai = ib & 0x1f;
        next = pos + 1;
        if (ai < 24) return (major, ai, next);
        uint256 width = 1 << (ai - 24);
        arg = uint256(bytes32(data[next:next + width])) >> (256 - 8 * width);
        next += width;
    }

    /// The offset just after the item at `pos` (iterative: a counter of items left).
    function skip(bytes calldata data, uint256 pos) internal pure returns (uint256) {
        uint256 left = 1;
        while (left > 0) {
            (uint8 major, uint256 arg, uint256 next) = head(data, pos);
            left -= 1;
            pos = next;
            if (major == BYTES || major == TEXT) pos += arg;
            else if (major == ARRAY) left += arg;
            else if (major == MAP) left += 2 * arg;
        }
        return pos;
    }

    /// True when the item at `pos` is the text `key`.
    function isText(bytes calldata data, uint256 pos, bytes memory key) internal pure returns (bool) {
        (uint8 major, uint256 len, uint256 next) = head(data, pos);
        if (major != TEXT || len != key.length) return false;
        return keccak256(data[next:next + len]) == keccak256(key);
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
