"""``json_path`` filters: select an array element by a member's value (SPEC §12.1.7).

A path without a filter is read by :func:`por.auditor.claim_extraction.parse_json_path`
exactly as before.  A path that form refuses is read here, by this grammar
(RFC 5234 ABNF)::

    filtered-path = "$" 1*segment
    segment       = "." name / "[" index "]" / filter
    name          = 1*(%x00-2D / %x2F-5A / %x5C / %x5E-10FFFF)   ; not "." "[" "]"
    index         = "0" / %x31-39 0*8DIGIT
    filter        = "[?(@." member "==" string ")]"
    member        = 1*(%x00-27 / %x2A-2D / %x2F-3C / %x3E-5A / %x5C / %x5E-10FFFF)
                                     ; not "." "[" "]" "(" ")" "="
    string        = DQUOTE *(unescaped / "\\" DQUOTE / "\\\\") DQUOTE
    unescaped     = %x00-21 / %x23-5B / %x5D-10FFFF

A filter applies to an array: the elements that are objects whose ``member``
is a JSON string equal (code points) to ``string`` (escapes removed).  Exactly
one must match: none is ``extract.field_missing``, several is
``extract.filter_ambiguous`` (refused, never "the first").  Work: each filter
examines every element of its array once, charged before it runs against the
item's filter budget (``len(content) // 2 + 65536`` elements); a filter past what is
left is ``extract.filter_budget``.  Leaves out: the unfiltered grammar and value conversion.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from por.auditor.csv_body import CsvTable

_SEGMENT = re.compile(
    r'\.(?P<name>[^.\[\]]+)|\[(?P<index>0|[1-9][0-9]{0,8})\]'
    r'|\[\?\(@\.(?P<member>[^.\[\]()=]+)==(?P<string>"(?:[^"\\]|\\["\\])*")\)\]')


@dataclass(frozen=True, slots=True)
class Filter:
    """``[?(@.member=="text")]``: the one array element whose ``member`` is ``text``."""

    member: str
    text: str


Token = str | int | Filter


class Ambiguous(LookupError):
    """A filter matched more than one element."""


class FilterBudget(LookupError):
    """The item's filter work budget is spent (SPEC §12.1.7)."""


@functools.lru_cache(maxsize=4096)
def parse_filtered_path(path: str) -> tuple[Token, ...] | None:
    """Tokens of a ``filtered-path`` (see the module docstring), else ``None``."""
    if not path.startswith("$"):
        return None
    tokens: list[Token] = []
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
            quoted = match.group("string")[1:-1]
            tokens.append(Filter(match.group("member"),
                                 re.sub(r'\\(["\\])', r"\1", quoted)))
        position = match.end()
    return tuple(tokens) if any(isinstance(t, Filter) for t in tokens) else None


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


def _matches(node: list[Any] | CsvTable, token: Filter, members: Members) -> list[Any]:
    if isinstance(node, CsvTable):  # count and find in C: no loop per row
        column = node.column(token.member)
        count = column.count(token.text)
        return [node.record(column.index(token.text))] * min(count, 2) if count else []
    entry = members.get((id(node), token.member))
    if entry is None or entry[0] is not node:
        # An array of objects only (the usual one): read the member of each in C,
        # then count and find in C.  A value equal to the filter's text is a text.
        objects = len(set(map(type, node))) == 1 and type(node[0]) is dict
        entry = members[id(node), token.member] = (node, list(
            map(dict.get, node, itertools.repeat(token.member))) if objects else None)
    values = entry[1]
    if values is not None:
        count = values.count(token.text)
        return [node[values.index(token.text)]] * min(count, 2) if count else []
    return [e for e in node if isinstance(e, dict) and isinstance(e.get(token.member), str)
            and e[token.member] == token.text]


__all__ = ["Ambiguous", "Filter", "FilterBudget", "Members", "Token", "lookup",
           "parse_filtered_path"]
