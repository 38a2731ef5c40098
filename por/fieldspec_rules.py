"""The cross-field rules of a FieldSpec (SPEC §4.2, §12.1.5-§12.1.8), stated once.

Both declarations of the record use this one function: the pydantic model
(``por.schemas.prompt.FieldSpec``) and its generated fast-path twin
(``por.lean.hooks.field_has_locator``), so the two cannot drift apart (issue 21).
Duck-typed and free of pydantic: it reads attributes only.
"""

from __future__ import annotations

from typing import Any

from por.numbers import spelt_as_kind


def fieldspec_problem(field: Any) -> tuple[str, str] | None:
    """``(tag, sentence)`` for the first rule ``field`` breaks, else None."""
    if field.json_path is None and field.regex is None and field.per_source is None:
        return "locator", "a field needs json_path or regex"
    if field.number_format is not None and field.kind != "numeric":
        return "number_format", "number_format needs a numeric field"
    if field.time_format is not None and field.kind != "timestamp":
        return "time_format", "time_format needs a timestamp field"
    if field.value_map is not None and not all(
            spelt_as_kind(field.kind, e.value) for e in field.value_map.entries):
        return "value_map", "value_map values must be spelt as the field's kind"
    if field.per_source is not None:
        ids = [s.source_id for s in field.per_source]
        if len(set(ids)) != len(ids) or any(
                s.json_path is None and s.regex is None for s in field.per_source):
            return "per_source", "per_source ids must be unique, each with a locator"
    return None
