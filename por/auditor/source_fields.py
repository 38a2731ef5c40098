"""Per-source locators (SPEC §12.1.8): one FieldSpec, a locator per ``source_id``.

Sources publish one quantity in different shapes; a field's ``per_source``
entries give, for a named source, the ``json_path``/``regex`` that replaces the
field's own for items of that source (both of the field's locators are
replaced, so an entry with only a regex reads that source by regex).  A source
without an entry uses the field's own locators; with neither, extraction
warns ``extract.no_locator`` or ``extract.bad_path`` as for any field.
The claim's committed ``path`` is the locator actually used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from por.protocol.limits import FieldKind


@dataclass(frozen=True, slots=True)
class SourceField:
    """A field with the locator its item's source needs (``per_source``, SPEC §12.1.8)."""

    key: str
    kind: FieldKind
    json_path: str | None
    regex: str | None
    spec: Any


def located_fields(fields: Sequence[Any], source_id: str) -> tuple[Any, ...]:
    """``fields`` with each ``per_source`` entry for ``source_id`` in place of the
    field's own ``json_path``/``regex`` (a field without an entry keeps its own)."""
    out: list[Any] = []
    for field in fields:
        entry = next((s for s in getattr(field, "per_source", None) or ()
                      if s.source_id == source_id), None)
        out.append(field if entry is None else SourceField(
            field.key, field.kind, entry.json_path, entry.regex, field))
    return tuple(out)


__all__ = ["SourceField", "located_fields"]
