"""Field-level differences between a committed record and a recomputed one.

``field_diffs(committed, recomputed)`` walks two JSON values (the
``to_json_obj`` forms of two ReasoningSteps) in a fixed order and returns one
:class:`FieldDiff` per differing scalar, named by a dotted path with list
indices (``output.numeric_value``, ``evidence_ids[3]``, ``evidence_ids.length``).
Bounded: at most ``limit`` differences are kept and every shown value is cut to
``MAX_SHOWN`` characters of its JSON text, so a step citing 10^5 items gives a
short report.  Leaves out: deciding who won (``one_step``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

#: Most differences kept per outcome.
MAX_DIFFS: Final = 20
#: Longest JSON text shown for one value (longer ones end in "...").
MAX_SHOWN: Final = 200


@dataclass(frozen=True)
class FieldDiff:
    """One differing field: its path and both values as short JSON text."""

    field: str
    committed: str
    recomputed: str

    def to_json_obj(self) -> dict[str, str]:
        """``{"field", "committed", "recomputed"}`` (values as JSON text)."""
        return {"field": self.field, "committed": self.committed,
                "recomputed": self.recomputed}

    def line(self) -> str:
        """``output.numeric_value: committed "99412.37", recomputed "100412.37"``."""
        return f"{self.field}: committed {self.committed}, recomputed {self.recomputed}"


def shown(value: Any) -> str:
    """A value as compact JSON text, cut to :data:`MAX_SHOWN` characters."""
    text = json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "..."


def field_diffs(committed: Any, recomputed: Any, *, limit: int = MAX_DIFFS) -> list[FieldDiff]:
    """The differing fields of two JSON values, depth first, keys in sorted order."""
    found: list[FieldDiff] = []
    _walk("", committed, recomputed, found, limit)
    return found


def _walk(path: str, a: Any, b: Any, found: list[FieldDiff], limit: int) -> None:
    if len(found) >= limit or (type(a) is type(b) and a == b):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            name = f"{path}.{key}" if path else str(key)
            if key not in a or key not in b:
                found.append(FieldDiff(name, shown(a.get(key)) if key in a else "(absent)",
                                       shown(b.get(key)) if key in b else "(absent)"))
            else:
                _walk(name, a[key], b[key], found, limit)
            if len(found) >= limit:
                return
        return
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            found.append(FieldDiff(f"{path}.length", str(len(a)), str(len(b))))
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            _walk(f"{path}[{i}]", x, y, found, limit)
            if len(found) >= limit:
                return
        return
    found.append(FieldDiff(path or "(record)", shown(a), shown(b)))


__all__ = ["MAX_DIFFS", "FieldDiff", "field_diffs", "shown"]
