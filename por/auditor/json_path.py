"""``json_path`` brackets: quoted names and filters (SPEC §12.1.7).

A path without brackets beyond ``[index]`` is read by
:func:`por.auditor.claim_extraction.parse_json_path` exactly as before.  A path
that form refuses is read here, by this grammar (RFC 5234 ABNF)::

    bracket-path = "$" 1*segment             ; at least one quoted name or filter
    segment      = "." name / "[" index "]" / quoted / filter
    name         = 1*(%x00-2D / %x2F-5A / %x5C / %x5E-10FFFF)   ; not "." "[" "]"
    index        = "0" / %x31-39 0*8DIGIT
    quoted       = "[" string-literal "]"    ; RFC 9535 §2.3.1.1 name selector
    filter       = "[?(@" ("." member / quoted) "==" literal ")]"
    member       = 1*(%x00-27 / %x2A-2D / %x2F-3C / %x3E-5A / %x5C / %x5E-10FFFF)
                                     ; not "." "[" "]" "(" ")" "="
    literal      = string / number / "true" / "false"
    string       = DQUOTE *(unescaped / "\\" DQUOTE / "\\\\") DQUOTE
    unescaped    = %x00-21 / %x23-5B / %x5D-10FFFF
    number       = ["-"] ("0" / %x31-39 *DIGIT) ["." 1*DIGIT]

``string-literal`` is RFC 9535's (single or double quotes; escapes ``\\b \\f \\n
\\r \\t \\/ \\\\ \\uXXXX`` and the enclosing quote; no unescaped control
character; a ``\\u`` surrogate only as a high-low pair).  A quoted name selects
that member of an object, code point for code point, so ``$['odds.home']`` reads
the member named ``odds.home``.  A filter applies to an array: the elements that
are objects whose member is a JSON string equal (code points) to ``string``
(escapes removed), a JSON number (not a boolean) equal in value to ``number``, or
the JSON boolean named.  Exactly one must match: none is
``extract.field_missing``, several is ``extract.filter_ambiguous`` (refused,
never "the first").  Work: each filter examines every element of its array once,
charged before it runs against the item's filter budget (``len(content) // 2 +
65536`` elements); a filter past what is left is ``extract.filter_budget``.
Leaves out: the unbracketed grammar and value conversion.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from por.auditor.csv_body import CsvTable

_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "/": "/", "\\": "\\",
            '"': '"', "'": "'"}
_UNESCAPED = r"\x20-\x21\x23-\x26\x28-\x5b\x5d-\ud7ff\ue000-\U0010ffff"
_ESCAPE = r'\\(?:[bfnrt/\\]|u[0-9A-Fa-f]{4})'
#: RFC 9535 §2.3.1.1 string-literal, double- or single-quoted.
_LITERAL = (f"\"(?:[{_UNESCAPED}']|{_ESCAPE}|\\\\\")*\""
            f"|'(?:[{_UNESCAPED}\"]|{_ESCAPE}|\\\\')*'")
_SEGMENT = re.compile(
    r'\.(?P<name>[^.\[\]]+)|\[(?P<index>0|[1-9][0-9]{0,8})\]'
    rf'|\[(?P<quoted>{_LITERAL})\]'
    rf'|\[\?\(@(?:\.(?P<member>[^.\[\]()=]+)|\[(?P<qmember>{_LITERAL})\])=='
    r'(?:(?P<string>"(?:[^"\\]|\\["\\])*")|(?P<number>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?)'
    r'|(?P<boolean>true|false))\)\]')
_UNICODE = re.compile(r"\\u(?P<hex>[0-9A-Fa-f]{4})|\\(?P<char>.)")


@dataclass(frozen=True, slots=True)
class Filter:
    """``[?(@.member==value)]``: the one array element whose ``member`` is ``value``
    (a ``str``, a ``Decimal`` or a ``bool``, matching only that JSON type)."""

    member: str
    value: str | Decimal | bool


Token = str | int | Filter


class Ambiguous(LookupError):
    """A filter matched more than one element."""


class FilterBudget(LookupError):
    """The item's filter work budget is spent (SPEC §12.1.7)."""


def _unquote(literal: str) -> str | None:
    """The name an RFC 9535 string-literal spells; ``None`` for a lone surrogate."""
    text = _UNICODE.sub(lambda m: chr(int(m.group("hex"), 16)) if m.group("hex")
                        else _ESCAPES[m.group("char")], literal[1:-1])
    try:  # pair UTF-16 surrogates; a lone one is refused
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError:
        return None


def _literal(match: re.Match[str]) -> str | Decimal | bool:
    if match.group("string") is not None:
        return re.sub(r'\\(["\\])', r"\1", match.group("string")[1:-1])
    if match.group("number") is not None:
        return Decimal(match.group("number"))
    return match.group("boolean") == "true"


@functools.lru_cache(maxsize=4096)
def parse_filtered_path(path: str) -> tuple[Token, ...] | None:
    """Tokens of a ``bracket-path`` (see the module docstring), else ``None``."""
    if not path.startswith("$"):
        return None
    tokens: list[Token] = []
    bracketed = False
    position = 1
    while position < len(path):
        match = _SEGMENT.match(path, position)
        if match is None:
            return None
        if match.group("name") is not None:
            tokens.append(match.group("name"))
        elif match.group("index") is not None:
            tokens.append(int(match.group("index")))
        else:
            bracketed = True
            literal = match.group("quoted") or match.group("qmember")
            name = _unquote(literal) if literal is not None else match.group("member")
            if name is None:
                return None
            tokens.append(name if match.group("quoted") else Filter(name, _literal(match)))
        position = match.end()
    return tuple(tokens) if bracketed else None


#: Per document: (array, member) -> the member of each element, when every element
#: is an object (else None); keyed by the array's id and holding the array itself.
Members = dict[tuple[int, str], tuple[Any, "list[Any] | None"]]


def lookup(document: Any, tokens: Sequence[Token],
           budget: list[int] | None = None, members: Members | None = None,
           ) -> tuple[bool, Any]:
    """Follow ``tokens``; ``(False, None)`` when absent; :class:`Ambiguous` on a filter
    that matches several elements; :class:`FilterBudget` when ``budget[0]`` (elements
    a filter may still examine) runs out.  A :class:`CsvTable` is an array of objects.
    ``members``: a memo shared by the lookups of one document, so filters on one
    member of one array read it once (the budget is charged for each all the same)."""
    node = document
    for token in tokens:
        if isinstance(token, Filter):
            if not isinstance(node, (list, CsvTable)):
                return False, None
            if budget is not None:
                if len(node) > budget[0]:
                    raise FilterBudget(token.member)
                budget[0] -= len(node)
            hits = _matches(node, token, {} if members is None else members)
            if len(hits) > 1:
                raise Ambiguous(token.member)
            if not hits:
                return False, None
            node = hits[0]
        elif isinstance(token, int):
            if not isinstance(node, (list, CsvTable)) or token >= len(node):
                return False, None
            node = node.record(token) if isinstance(node, CsvTable) else node[token]
        else:
            if not isinstance(node, dict) or token not in node:
                return False, None
            node = node[token]
    return True, node


def _equal(value: Any, wanted: str | Decimal | bool) -> bool:
    """A JSON value equals a filter literal of its own type (SPEC §12.1.7)."""
    if isinstance(wanted, bool) or isinstance(value, bool):
        return value is wanted
    if isinstance(wanted, str):
        return isinstance(value, str) and value == wanted
    return isinstance(value, (int, Decimal)) and value == wanted


def _matches(node: list[Any] | CsvTable, token: Filter, members: Members) -> list[Any]:
    wanted = token.value
    if isinstance(node, CsvTable):  # count and find in C: no loop per row; cells are texts
        if not isinstance(wanted, str):
            return []
        column = node.column(token.member)
        count = column.count(wanted)
        return [node.record(column.index(wanted))] * min(count, 2) if count else []
    if isinstance(wanted, str):
        entry = members.get((id(node), token.member))
        if entry is None or entry[0] is not node:
            # An array of objects only (the usual one): read the member of each in C,
            # then count and find in C.  Only a text equals a text in Python too.
            objects = len(set(map(type, node))) == 1 and type(node[0]) is dict
            entry = members[id(node), token.member] = (node, list(
                map(dict.get, node, itertools.repeat(token.member))) if objects else None)
        values = entry[1]
        if values is not None:
            count = values.count(wanted)
            return [node[values.index(wanted)]] * min(count, 2) if count else []
    return [e for e in node if isinstance(e, dict) and token.member in e
            and _equal(e[token.member], wanted)]


__all__ = ["Ambiguous", "Filter", "FilterBudget", "Members", "Token", "lookup",
           "parse_filtered_path"]
