"""The PromptSpec regex subset and its cost, defined on the pattern text (SPEC §12.1.2).

``por-auditor/1`` bounded regexes with google-re2's ``ProgramSize()``, which no
other RE2 (Go's ``regexp``, Rust's ``regex``) reproduces.  ``por-auditor/2`` accepts
a documented subset that RE2, Go and Rust parse alike, and measures a pattern on
its parse alone:

* **positions**: the character-matching atoms (a literal, ``.``, an escape class,
  a bracket class), each counted once per copy a counted repetition makes
  (``x{n}`` n copies, ``x{n,}`` max(n, 1), ``x{n,m}`` m; ``*``, ``+``, ``?`` one);
* **width**: the largest number of positions one character can be matched by,
  which bounds the threads an NFA keeps alive per text character;
* **cost** = 1 + width, times 8 past width 10 (RE2's DFA overflows there and the
  NFA costs about 8x more per thread): regex work units per scanned byte (SPEC §17.5).

Matching stays RE2's (leftmost-first, linear time); the subset only makes sure
every engine agrees on what a pattern means and what it costs.  Pure: text in,
numbers out; no engine is consulted.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

#: Largest Unicode scalar value.
MAX_CHAR = 0x10FFFF
#: Characters that are syntax outside a class (a literal one needs a backslash).
META = frozenset("\\.+*?()|[]{}^$")
#: Characters a backslash may make literal, outside and inside classes: ASCII
#: punctuation except ``<`` and ``>`` (Rust's regex reserves ``\\<``, ``\\>``).
ESCAPABLE = frozenset(chr(c) for c in range(0x21, 0x7F)
                      if not chr(c).isalnum()) - frozenset("<>")
#: Characters that must be escaped inside a class.
CLASS_META = frozenset("\\[]-&~")
#: Control escapes.
CONTROL = {"n": 0x0A, "t": 0x09, "r": 0x0D, "f": 0x0C, "v": 0x0B}

Ranges = tuple[tuple[int, int], ...]

DIGIT: Ranges = ((0x30, 0x39),)
SPACE: Ranges = ((0x09, 0x0A), (0x0C, 0x0D), (0x20, 0x20))
WORD: Ranges = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
DOT: Ranges = ((0, 0x09), (0x0B, MAX_CHAR))


def complement(ranges: Ranges) -> Ranges:
    """The scalar values 0..MAX_CHAR not in ``ranges`` (sorted, disjoint input)."""
    out: list[tuple[int, int]] = []
    low = 0
    for start, end in ranges:
        if start > low:
            out.append((low, start - 1))
        low = max(low, end + 1)
    if low <= MAX_CHAR:
        out.append((low, MAX_CHAR))
    return tuple(out)


def normalise(ranges: list[tuple[int, int]]) -> Ranges:
    """Sorted, merged ranges."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if out and start <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return tuple(out)


PERL = {"d": DIGIT, "s": SPACE, "w": WORD,
        "D": complement(DIGIT), "S": complement(SPACE), "W": complement(WORD)}


class RegexSyntaxError(ValueError):
    """The pattern is outside the subset (``offset``: the character where it stops)."""

    def __init__(self, offset: int) -> None:
        super().__init__(offset)
        self.offset = offset


#: The widest field charged ``1 + width`` per byte; wider ones cost :data:`NFA_FACTOR`
#: times that (SPEC §17.5: past width 10 RE2's DFA overflows and runs its NFA).
DFA_WIDTH = 10
NFA_FACTOR = 8


@dataclass(frozen=True, slots=True)
class RegexMeasure:
    """What SPEC §12.1.2 reads from a pattern in the subset."""

    groups: int
    repeat_sum: int
    positions: int
    width: int

    @property
    def cost(self) -> int:
        """Regex work units per scanned byte (SPEC §17.5)."""
        return (1 + self.width) * (1 if self.width <= DFA_WIDTH else NFA_FACTOR)


#: A parsed sub-pattern: atom index -> copies.
Counts = dict[int, int]


class _Parser:
    def __init__(self, pattern: str) -> None:
        self.text = pattern
        self.i = 0
        self.atoms: list[Ranges] = []
        self.groups = 0
        self.repeat_sum = 0
        #: Whether the sub-pattern just parsed can match the empty text.
        self.nullable = False

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def fail(self) -> RegexSyntaxError:
        return RegexSyntaxError(self.i)

    def alternation(self) -> Counts:
        counts = self.branch()
        nullable = self.nullable
        while self.peek() == "|":
            self.i += 1
            _add(counts, self.branch(), 1)
            nullable = nullable or self.nullable
        self.nullable = nullable
        return counts

    def branch(self) -> Counts:
        counts: Counts = {}
        nullable = True
        while self.peek() not in ("", "|", ")"):
            _add(counts, self.piece(), 1)
            nullable = nullable and self.nullable
        self.nullable = nullable
        return counts

    def piece(self) -> Counts:
        char = self.peek()
        if char in ("^", "$"):
            self.i += 1
            if self.peek() in ("*", "+", "?", "{"):
                raise self.fail()
            self.nullable = True
            return {}
        self.nullable = False
        atom = self.atom()
        if self.nullable and self.peek() in ("*", "+", "?", "{"):
            raise self.fail()  # a group that can match the empty text takes no quantifier
        copies = self.quantifier()
        if self.peek() == "?" and copies is not None:
            self.i += 1  # lazy: same positions
        if copies is None:
            return atom
        if self.peek() in ("*", "+", "?", "{"):
            raise self.fail()
        out: Counts = {}
        _add(out, atom, copies)
        return out

    def quantifier(self) -> int | None:
        """The copies a quantifier makes (None: no quantifier); sets ``nullable`` when
        its lower bound is 0."""
        char = self.peek()
        if char in ("*", "+", "?"):
            self.i += 1
            self.nullable = char != "+"
            return 1
        if char != "{":
            return None
        self.i += 1
        low = self.count()
        high: int | None = low
        if self.peek() == ",":
            self.i += 1
            high = None if self.peek() == "}" else self.count()
        if self.peek() != "}" or (high is not None and high < low):
            raise self.fail()
        self.i += 1
        self.repeat_sum += low if high is None else high
        self.nullable = low == 0
        return max(low, 1) if high is None else high

    def count(self) -> int:
        start = self.i
        while self.peek().isascii() and self.peek().isdigit():
            self.i += 1
        digits = self.text[start:self.i]
        if not digits or (len(digits) > 1 and digits[0] == "0"):
            raise self.fail()
        return int(digits)  # exact: `{9999999,1000000}` has n > m (SPEC §12.1.2)

    def atom(self) -> Counts:
        char = self.peek()
        if char == "(":
            self.i += 1
            if self.text.startswith("?:", self.i):
                self.i += 2
            elif self.peek() == "?":
                raise self.fail()
            else:
                self.groups += 1
            inner = self.alternation()
            if self.peek() != ")":
                raise self.fail()
            self.i += 1
            return inner
        if char == "[":
            return self.new_atom(self.bracket())
        if char == ".":
            self.i += 1
            return self.new_atom(DOT)
        if char == "\\":
            return self.new_atom(self.escape(PERL))
        if char == "" or char in META:
            raise self.fail()
        self.i += 1
        return self.new_atom(((ord(char), ord(char)),))

    def new_atom(self, ranges: Ranges) -> Counts:
        self.atoms.append(ranges)
        return {len(self.atoms) - 1: 1}

    def escape(self, classes: dict[str, Ranges]) -> Ranges:
        name = self.text[self.i + 1:self.i + 2]
        if name in ESCAPABLE:
            value = ord(name)
        elif name in CONTROL:
            value = CONTROL[name]
        elif name in classes:
            self.i += 2
            return classes[name]
        else:
            raise self.fail()
        self.i += 2
        return ((value, value),)

    def class_char(self) -> int:
        char = self.peek()
        if char == "\\":
            ((value, _),) = self.escape({})
            return value
        if char == "" or char in CLASS_META:
            raise self.fail()
        self.i += 1
        return ord(char)

    def bracket(self) -> Ranges:
        self.i += 1
        negated = self.peek() == "^"
        if negated:
            self.i += 1
        ranges: list[tuple[int, int]] = []
        while True:
            if self.peek() == "]" and ranges:
                self.i += 1
                break
            if self.peek() == "\\" and self.text[self.i + 1:self.i + 2] in PERL:
                ranges.extend(self.escape(PERL))
                continue
            low = self.class_char()
            high = low
            if self.peek() == "-":
                self.i += 1
                high = self.class_char()
                if high < low:
                    raise RegexSyntaxError(self.i - 1)
            ranges.append((low, high))
        merged = normalise(ranges)
        return complement(merged) if negated else merged


def _add(into: Counts, counts: Counts, times: int) -> None:
    for atom, copies in counts.items():
        into[atom] = into.get(atom, 0) + copies * times


def _scalars(ranges: Ranges) -> Ranges:
    """``ranges`` less the surrogates U+D800..U+DFFF, which are not characters."""
    out: list[tuple[int, int]] = []
    for start, end in ranges:
        out.extend(part for part in ((start, min(end, 0xD7FF)), (max(start, 0xE000), end))
                   if part[0] <= part[1])
    return tuple(out)


def width_of(atoms: list[Ranges], counts: Counts) -> int:
    """The largest total of copies whose atoms all contain one character."""
    events: list[tuple[int, int]] = []
    for atom, copies in counts.items():
        for start, end in _scalars(atoms[atom]):
            events.append((start, copies))
            events.append((end + 1, -copies))
    events.sort()
    best = level = 0
    for _, delta in events:
        level += delta
        best = max(best, level)
    return best


@functools.lru_cache(maxsize=1024)
def measure(pattern: str) -> RegexMeasure:
    """Parse ``pattern`` in the subset (SPEC §12.1.2) and measure it; raises
    :class:`RegexSyntaxError` for a pattern outside it."""
    parser = _Parser(pattern)
    counts = parser.alternation()
    if parser.i != len(pattern):
        raise parser.fail()
    return RegexMeasure(groups=parser.groups, repeat_sum=parser.repeat_sum,
                        positions=sum(counts.values()), width=width_of(parser.atoms, counts))


__all__ = ["DFA_WIDTH", "NFA_FACTOR", "RegexMeasure", "RegexSyntaxError", "measure"]
