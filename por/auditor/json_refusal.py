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

import json
import re

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
        match = _WS.match(self.text, i)
        assert match is not None
        return match.end()

    def string(self, i: int) -> int:
        """``text[i]`` is ``"``: the index after the closing quote."""
        text = self.text
        match = _STRING_BODY.match(text, i + 1)
        assert match is not None
        end = match.end()
        lone = _lone_surrogate(text, i + 1, end)
        if lone is not None:
            raise Refusal(SURROGATE, lone)
        if end < self.n and text[end] == '"':
            return end + 1
        if end < self.n and text[end] == "\\":
            bad = end + 1
            if bad < self.n and text[bad] == "u":
                hexes = _HEX.match(text, bad + 1)
                assert hexes is not None
                bad = hexes.end()
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
        match = _DIGITS.match(self.text, j)
        assert match is not None
        return match.end()

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
        text, n = self.text, self.n
        # Stack of open containers: a set of names for an object, None for an array.
        stack: list[set[str] | None] = []
        i = self.ws(0)
        expect_value = True
        while True:
            if expect_value:
                if i >= n:
                    raise Refusal(SYNTAX, n)
                char = text[i]
                if char in "[{":
                    if len(stack) >= MAX_DEPTH:
                        raise Refusal(DEPTH, i)
                    stack.append(set() if char == "{" else None)
                    i = self.ws(i + 1)
                    close = "}" if char == "{" else "]"
                    if i < n and text[i] == close:
                        stack.pop()
                        i = self.ws(i + 1)
                        expect_value = False
                    elif char == "{":
                        i = self.member_name(i, stack[-1])
                    continue
                i = self.ws(self.scalar(i))
                expect_value = False
                continue
            if not stack:
                if i < n:
                    raise Refusal(SYNTAX, i)
                return
            if i >= n:
                raise Refusal(SYNTAX, n)
            top = stack[-1]
            char = text[i]
            if char == ",":
                i = self.ws(i + 1)
                if top is not None:
                    i = self.member_name(i, top)
                expect_value = True
            elif char == ("]" if top is None else "}"):
                stack.pop()
                i = self.ws(i + 1)
            else:
                raise Refusal(SYNTAX, i)

    def member_name(self, i: int, names: set[str] | None) -> int:
        """A name, ``:`` and the whitespace before the value; ``i`` is after ``{``/``,`` ws."""
        assert names is not None
        if i >= self.n or self.text[i] != '"':
            raise Refusal(SYNTAX, min(i, self.n))
        end = self.string(i)
        name = json.loads(self.text[i:end])
        if name in names:
            raise Refusal(DUPLICATE, i)
        names.add(name)
        i = self.ws(end)
        if i >= self.n or self.text[i] != ":":
            raise Refusal(SYNTAX, min(i, self.n))
        return self.ws(i + 1)


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
