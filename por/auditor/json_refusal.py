"""Where and why an evidence body is not accepted JSON (SPEC §12.1.3).

Accepted JSON is RFC 8259 (§2-§7: the grammar, no byte order mark, whitespace
only space, tab, LF and CR) plus three refusals of por's own: nesting deeper
than 64, a member name repeated in one object, a ``\\u`` escape of a lone
surrogate.  A refused body commits a code and a *byte offset*, never a parser's
message, so every implementation commits the same warning:

* ``extract.json_syntax`` at the length of the longest prefix of the body that
  is a prefix of some RFC 8259 text (a truncated body: its length);
* ``extract.json_depth`` at the ``[`` or ``{`` that opens the 65th level;
* ``extract.json_duplicate_key`` at the opening ``"`` of a member name equal
  (after unescaping) to an earlier name of the same object;
* ``extract.json_surrogate`` at the ``\\`` of a ``\\uXXXX`` escape of U+D800-U+DFFF
  that is not a high surrogate escape immediately followed by a low one;

and the one reported is the one at the smallest offset (the four kinds of byte
differ, so there are no ties).  This module scans left to right and stops at
the first; it only runs on bodies the fast parser refused (or whose text has a
surrogate escape), so honest bodies never pay for it.  Linear: each token is
matched once by a regular expression.
"""

from __future__ import annotations

import functools
import json
import re
from typing import NoReturn

from por.jsontext import json_nesting_exceeds, json_shallow_prefix

#: Deepest nesting accepted (SPEC §12.1).
MAX_DEPTH = 64

SYNTAX = "extract.json_syntax"
DEPTH = "extract.json_depth"
DUPLICATE = "extract.json_duplicate_key"
SURROGATE = "extract.json_surrogate"

_WS = re.compile(r"[ \t\n\r]*")
_STRING_BODY = re.compile(r'(?:[^"\\\x00-\x1f]++|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*+')
_HEX = re.compile(r"[0-9a-fA-F]{0,4}")
_DIGITS = re.compile(r"[0-9]*")
_ESCAPES = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
                      r"|(\\u[dD][89a-fA-F][0-9a-fA-F]{2})|\\u[0-9a-fA-F]{4}|\\.")
#: A text with no surrogate escape anywhere needs no surrogate check.
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class Refusal(Exception):
    """The first refusal: its code and its offset in characters of the text."""

    def __init__(self, code: str, position: int) -> None:
        super().__init__(code, position)
        self.code = code
        self.position = position


def _end(pattern: re.Pattern[str], text: str, i: int) -> int:
    """End of ``pattern``'s match at ``i`` (patterns that may match empty)."""
    match = pattern.match(text, i)
    return i if match is None else match.end()


def _lone_surrogate(text: str, start: int, end: int) -> int | None:
    """Offset of the first lone surrogate escape in ``text[start:end]``, if any."""
    for match in _ESCAPES.finditer(text, start, end):
        if match.group(1) is not None:
            return match.start()
    return None


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)

    def ws(self, i: int) -> int:
        return _end(_WS, self.text, i)

    def string(self, i: int) -> int:
        """``text[i]`` is ``"``: the index after the closing quote."""
        text = self.text
        end = _end(_STRING_BODY, text, i + 1)
        if SURROGATE_ESCAPE.search(text, i + 1, end) is not None:
            lone = _lone_surrogate(text, i + 1, end)
            if lone is not None:
                raise Refusal(SURROGATE, lone)
        if end < self.n and text[end] == '"':
            return end + 1
        if end < self.n and text[end] == "\\":
            bad = end + 1
            if bad < self.n and text[bad] == "u":
                bad = _end(_HEX, text, bad + 1)
            raise Refusal(SYNTAX, min(bad, self.n))
        raise Refusal(SYNTAX, end)  # a control character, or the end

    def number(self, i: int) -> int:
        text, j = self.text, i
        if text.startswith("-", j):
            j += 1
        if j < self.n and text[j] == "0":
            j += 1
        elif j < self.n and "1" <= text[j] <= "9":
            j = self._digits(j)
        else:
            raise Refusal(SYNTAX, j)
        if j < self.n and text[j] == ".":
            j = self._required_digits(j + 1)
        if j < self.n and text[j] in "eE":
            j += 1
            if j < self.n and text[j] in "+-":
                j += 1
            j = self._required_digits(j)
        return j

    def _digits(self, j: int) -> int:
        return _end(_DIGITS, self.text, j)

    def _required_digits(self, j: int) -> int:
        end = self._digits(j)
        if end == j:
            raise Refusal(SYNTAX, j)
        return end

    def literal(self, i: int, word: str) -> int:
        for k, char in enumerate(word):
            if i + k >= self.n or self.text[i + k] != char:
                raise Refusal(SYNTAX, min(i + k, self.n))
        return i + len(word)

    def scalar(self, i: int) -> int:
        """A value that is not a container, starting at ``i`` (< n)."""
        char = self.text[i]
        if char == '"':
            return self.string(i)
        if char == "-" or "0" <= char <= "9":
            return self.number(i)
        for word in ("true", "false", "null"):
            if char == word[0]:
                return self.literal(i, word)
        raise Refusal(SYNTAX, i)

    def run(self) -> None:
        """Tokens by one regular expression; a token the state does not allow, or
        text no token matches, is handed to the exact routines above."""
        text, n = self.text, self.n
        # Open containers: a set of names for an object, None for an array.
        stack: list[set[str] | None] = []
        state = _VALUE
        i = 0
        number_at = -1  # start of the last token if it was a number
        slow_until = 0  # a run refused by _run is walked token by token
        self.budget = 2 * n  # characters the C parser may spend on values it refuses
        # The C parser recurses once per level: it only ever sees a prefix that
        # nests at most MAX_DEPTH deep (a container reaching past it is walked).
        shallow = json_shallow_prefix(text, MAX_DEPTH)
        self.shallow = text if shallow == n else text[:shallow]
        while True:
            if state == _AFTER and stack and i >= slow_until:
                end = self._run(i, stack)
                if end < 0:
                    slow_until = -end
                else:
                    i = end
            match = _TOKEN.match(text, i)
            if match is None:
                self._stop(state, self.ws(i), number_at)
            kind = match.lastindex or 0
            j = match.start(kind)
            token_end = match.end()
            if kind == _OPEN:
                if state not in (_VALUE, _FIRST):
                    self._stop(state, j, number_at)
                if len(stack) >= MAX_DEPTH:
                    raise Refusal(DEPTH, j)
                skipped = self._accepted(j, MAX_DEPTH - len(stack)) if stack else -1
                if skipped >= 0:
                    state, number_at, i = _AFTER, -1, skipped
                    continue
                if text[j] == "{":
                    stack.append(set())
                    state = _FIRST_KEY
                else:
                    stack.append(None)
                    state = _FIRST
            elif kind == _CLOSE:
                top_is_object = bool(stack) and stack[-1] is not None
                closes_object = text[j] == "}"
                if not stack or closes_object != top_is_object or state not in (
                        _AFTER, _FIRST_KEY if closes_object else _FIRST):
                    self._stop(state, j, number_at)
                stack.pop()
                state = _AFTER
            elif kind == _COMMA:
                if state != _AFTER or not stack:
                    self._stop(state, j, number_at)
                state = _KEY if stack[-1] is not None else _VALUE
            elif kind == _COLON:
                if state != _COLON_NEXT:
                    self._stop(state, j, number_at)
                state = _VALUE
            elif state in (_KEY, _FIRST_KEY):
                names = stack[-1]
                if kind != _STRING or names is None:
                    self._stop(state, j, number_at)
                self._check_string(j, token_end)
                name = text[j + 1:token_end - 1]
                if "\\" in name:
                    name = json.loads(text[j:token_end])
                if name in names:
                    raise Refusal(DUPLICATE, j)
                names.add(name)
                state = _COLON_NEXT
            elif state in (_VALUE, _FIRST):
                if kind == _STRING:
                    self._check_string(j, token_end)
                state = _AFTER
            else:
                self._stop(state, j, number_at)
            number_at = j if kind == _NUMBER else -1
            i = token_end
            if state == _AFTER and not stack:
                end = self.ws(i)
                if end < n:
                    self._stop(state, end, number_at if end == i else -1)
                return

    def _run(self, i: int, stack: list[set[str] | None]) -> int:
        """After a value inside a container: the end of the longest run of
        ``, element`` (``, "name": element`` in an object) that is accepted JSON,
        elements nested at most RUN_DEPTH deep (one C regex match and one C parse:
        the fast path of a long refused body).  Minus its end if the run holds a
        duplicate name or a lone surrogate: the caller walks it token by token, so
        the exact first refusal is found there (at most RUN_WINDOW characters)."""
        text = self.text
        names = stack[-1]
        nested = min(RUN_DEPTH, MAX_DEPTH - len(stack))
        window = min(self.n, i + RUN_WINDOW)
        run = _run_pattern(names is not None, nested).match(text, i, window)
        end = i if run is None else run.end()
        if end == i:
            return i
        comma = text.index(",", i)
        if SURROGATE_ESCAPE.search(text, comma, end) is not None and \
                _lone_surrogate(text, comma, end) is not None:
            return -end
        try:
            if names is None:
                _RUN_DECODER.decode("[" + text[comma + 1:end] + "]")
                return end
            members = _RUN_DECODER.decode("{" + text[comma + 1:end] + "}")
        except _Duplicate:
            return -end
        new = {name for name, _ in members}
        if len(new) != len(members) or not names.isdisjoint(new):
            return -end
        names |= new
        return end

    def _accepted(self, j: int, depth_left: int) -> int:
        """The end of the container at ``j`` if it is accepted JSON nesting at most
        ``depth_left`` deep (decided by the C parser, at most once per container
        that is accepted; the ones it refuses, on the path to the first refusal,
        spend a budget of twice the text), else -1: walk it token by token."""
        if self.budget <= 0:
            return -1
        text = self.text
        try:
            end = _RUN_DECODER.raw_decode(self.shallow, j)[1]
        except json.JSONDecodeError as error:
            self.budget -= error.pos - j
            return -1
        except _Duplicate:
            self.budget -= self.n - j
            return -1
        brackets = text.count("[", j, end) + text.count("{", j, end)
        if brackets > depth_left and json_nesting_exceeds(text[j:end], depth_left):
            return -1  # too deep: the walk raises extract.json_depth inside
        if SURROGATE_ESCAPE.search(text, j, end) is not None and \
                _lone_surrogate(text, j, end) is not None:
            return -1  # the walk raises extract.json_surrogate inside
        return end

    def _check_string(self, start: int, end: int) -> None:
        if SURROGATE_ESCAPE.search(self.text, start, end) is not None:
            lone = _lone_surrogate(self.text, start + 1, end - 1)
            if lone is not None:
                raise Refusal(SURROGATE, lone)

    def _stop(self, state: int, j: int, number_at: int) -> NoReturn:
        """Raise the exact refusal at ``j`` (after whitespace), where the token
        stream stopped being acceptable in ``state``."""
        n = self.n
        if state in (_VALUE, _FIRST):
            if j < n and not (state == _FIRST and self.text[j] == "]"):
                self.scalar(j)  # raises inside a malformed value
        elif state in (_KEY, _FIRST_KEY) and j < n and self.text[j] == '"':
            self.string(j)  # raises inside a malformed name
        elif state == _AFTER and number_at >= 0 and j < n and self.text[j] in ".eE":
            self.number(number_at)  # "1." or "1e": the number itself is cut short
        raise Refusal(SYNTAX, min(j, n))


_VALUE, _FIRST, _KEY, _FIRST_KEY, _COLON_NEXT, _AFTER = range(6)
_OPEN, _CLOSE, _COMMA, _COLON, _STRING, _NUMBER, _LITERAL = range(1, 8)
_TOKEN = re.compile(
    r'[ \t\n\r]*+(?:([\[{])|([\]}])|(,)|(:)'
    r'|("(?:[^"\\\x00-\x1f]++|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*+")'
    r"|(-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+(?:[eE][+-]?+[0-9]++)?+)"
    r"|(true|false|null))")


# Runs (the fast path): the same tokens, a number only where a delimiter follows
# it (so never cut short by the window, and "1." is left to the exact routines),
# containers nested at most RUN_DEPTH deep, at most RUN_WINDOW characters.
RUN_DEPTH = 3
RUN_WINDOW = 1 << 16
_WS_P = r"[ \t\n\r]*+"
_STRING_P = r'"(?:[^"\\\x00-\x1f]++|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*+"'
_SCALAR_P = (r'(?:' + _STRING_P + r"|-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+"
             r"(?:[eE][+-]?+[0-9]++)?+(?=[ \t\n\r,\]}])|true|false|null)")


def _element_pattern(depth: int) -> str:
    """A value whose containers nest at most ``depth`` deep."""
    if depth == 0:
        return _SCALAR_P
    inner = _element_pattern(depth - 1)
    array = (r"\[" + _WS_P + r"(?:" + inner + _WS_P + r"(?:," + _WS_P + r"(?!\])|(?=\])))*+\]")
    member = _STRING_P + _WS_P + ":" + _WS_P + inner
    obj = r"\{" + _WS_P + r"(?:" + member + _WS_P + r"(?:," + _WS_P + r"(?!\})|(?=\})))*+\}"
    return f"(?:{_SCALAR_P}|{array}|{obj})"


@functools.cache
def _run_pattern(in_object: bool, depth: int) -> re.Pattern[str]:
    """``, element`` (``, "name": element``) repeated; compiled on first use, as
    only refused bodies need it (about 50 ms for all of them)."""
    name = _STRING_P + _WS_P + ":" + _WS_P if in_object else ""
    return re.compile(r"(?:" + _WS_P + "," + _WS_P + name + _element_pattern(depth) + r")*+")


class _Duplicate(Exception):
    """A member name repeated in one object of a run."""


def _run_pairs(pairs: list[tuple[str, object]]) -> list[tuple[str, object]]:
    if len(pairs) > 1 and len({name for name, _ in pairs}) != len(pairs):
        raise _Duplicate
    return pairs


def _refuse_constant(name: str) -> NoReturn:
    raise _Duplicate  # NaN, Infinity: refused like a duplicate (the walk finds it)


#: Decodes a run already matched by _run_pattern: only its names matter.
_RUN_DECODER = json.JSONDecoder(parse_float=str, parse_int=str, object_pairs_hook=_run_pairs,
                                parse_constant=_refuse_constant)


def first_refusal(text: str) -> tuple[str, int] | None:
    """``(code, character offset)`` of the first refusal in ``text``, or None if
    it is accepted JSON (SPEC §12.1.3)."""
    try:
        _Scanner(text).run()
    except Refusal as refusal:
        return refusal.code, refusal.position
    return None


def byte_offset(text: str, position: int) -> int:
    """The UTF-8 byte offset of character ``position`` of ``text``."""
    return len(text[:position].encode("utf-8", "surrogatepass"))


__all__ = ["DEPTH", "DUPLICATE", "MAX_DEPTH", "SURROGATE", "SURROGATE_ESCAPE", "SYNTAX",
           "byte_offset", "first_refusal"]
