"""Messages that teach (issue 23 item 5): what a field captured and what it accepts.

The committed ``extract.field_kind`` warning is a stable code and message;
reports are not committed, so here they may say more.  :func:`value_hint`
locates the field's raw value again in the evidence item (the same locators,
per-source entries and CSV reading as extraction, SPEC §12.1) and returns
``captured "52.4%": '%' but the format declares no percent reading
(number.percent_undeclared); accepted: ...`` (the text truncated to 80
characters and escaped).  Pure: bytes and records in, text out.

Leaves out: the committed warnings (``por.auditor.claim_extraction``).
"""

from __future__ import annotations

from typing import Any

from por.auditor.claim_extraction import parse_json_evidence, parse_json_path
from por.auditor.csv_body import CsvError, parse_csv
from por.auditor.json_path import Ambiguous, FilterBudget, lookup, parse_filtered_path
from por.auditor.regex_plan import regex_plan
from por.auditor.source_fields import located_fields
from por.auditor.value_forms import teach


def _raw(field: Any, item: Any, text: str) -> tuple[Any, bool] | None:
    """The located raw value and whether it is a text, or ``None``."""
    cells = item.content_type == "text/csv"
    if field.json_path is not None and (item.content_type == "application/json" or cells):
        try:
            document = parse_csv(text) if cells else parse_json_evidence(text)
        except (CsvError, ValueError):
            return None
        tokens = parse_json_path(field.json_path) or parse_filtered_path(field.json_path)
        try:
            found, raw = lookup(document, tokens or ())
        except (Ambiguous, FilterBudget):
            return None
        return (raw, cells) if found and tokens is not None else None
    if field.regex is None:
        return None
    compiled = regex_plan((field.regex,))[0]
    if isinstance(compiled, str):
        return None
    match = compiled.program.search(text[:1 << 20])
    return (match.group(1), True) if match is not None and match.group(1) is not None else None


def value_hint(spec: Any, item: Any, key: str) -> str | None:
    """The teaching line for field ``key`` of ``item``, or ``None`` if it converts or
    cannot be located."""
    requirement = next((r for r in spec.data_requirements
                        if r.requirement_id == item.requirement_id), None)
    if requirement is None:
        return None
    try:
        text = item.content.decode("utf-8")
    except UnicodeDecodeError:
        return None
    for field in located_fields(requirement.expected_fields, item.source.source_id):
        if field.key == key:
            located = _raw(field, item, text)
            if located is None:
                return None
            return teach(getattr(field, "spec", field), located[0], from_text=located[1])
    return None


__all__ = ["value_hint"]
