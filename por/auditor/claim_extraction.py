"""Deterministic claim extraction from raw evidence bytes (seed M06 §8, SPEC §12.1).

A *claim* is one typed value read from one evidence item by one field rule.
Which fields: the item's requirement's ``expected_fields`` in declared order,
or, when it declares none, :data:`FALLBACK_FIELDS` (``result`` boolean,
``value`` and ``price`` numeric, ``timestamp`` timestamp, read from the JSON
top level; absent fallback fields are silently skipped, text evidence has no
fallback).  Claims come out in evidence order, then field order.

How (by the item's ``content_type``; the source target's
``expected_content_type`` is not consulted):

* ``application/json`` -- strict UTF-8, ``json.loads`` with
  ``parse_float=Decimal``, bounded ints (see :mod:`por.auditor.values`),
  ``NaN``/``Infinity`` and duplicate object keys refused, nesting at most
  :data:`MAX_JSON_DEPTH`.  A field with ``json_path`` is looked up by path
  (filters: :mod:`por.auditor.json_path`); one with only ``regex`` searches the text.
* ``text/csv`` -- a table (:mod:`por.auditor.csv_body`) located by ``json_path``.
* ``text/html``, ``text/plain`` -- strict UTF-8, then RE2 ``search(regex,
  text[:MAX_REGEX_INPUT_CHARS])`` with RE2 syntax and semantics, no flags;
  the value is capture group 1 (no HTML entity decoding, no stripping).

Kinds: ``numeric`` -> canonical decimal string; ``boolean`` -> ``bool``;
``timestamp`` -> ``int`` Unix seconds; ``text`` -> ``str``; each read by the
field's declared value forms, else its default spelling (:mod:`por.auditor.value_forms`).
Locators may differ per source (:mod:`por.auditor.source_fields`).

Bad input never raises: it yields no claim and an :class:`ExtractionWarning` (``extract.*``).

Claim id (seed M06 §8)::

    claim_id = "cl_" + sha256(utf8(evidence_id) || b"|" || utf8(path) || b"|"
                              || por_cbor(value)).hexdigest()[:12]

where ``path`` is the locator that produced the claim (the field's
``json_path``, or its ``regex`` when the regex was used) and ``por_cbor`` is
:func:`por.encoding.encode` of the claim value (a text string for numeric and
text claims, ``true``/``false``, an unsigned integer for timestamps).

Leaves out: which evidence counts (``logic_sanity``), reconciliation
(``selection``) and contradictions.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from por.auditor import values as v
from por.auditor.csv_body import CsvError, parse_csv
from por.auditor.json_path import (
    Ambiguous,
    FilterBudget,
    Members,
    lookup,
    parse_filtered_path,
)
from por.auditor.json_refusal import SURROGATE_ESCAPE, SYNTAX, byte_offset, first_refusal
from por.auditor.regex_plan import (
    MAX_REGEX_INPUT_CHARS,
    REGEX_BUDGET,
    REGEX_WORK_PER_BYTE,
    REGEX_WORK_SLACK,
    CompiledField,
    regex_plan,
    window_bytes,
)
from por.auditor.source_fields import located_fields
from por.auditor.value_forms import Refused, convert
from por.encoding import encode
from por.jsontext import MAX_JSON_DEPTH as JSON_DEPTH_LIMIT
from por.jsontext import JsonTextError, json_decimal, loads_strict
from por.protocol.limits import MAX_CONTENT_BYTES, FieldKind

if TYPE_CHECKING:  # inputs are read by attribute: lean records work too (issue 16)
    from por.schemas import DataRequirement, EvidenceBundle, EvidenceItem, FieldSpec, PromptSpec

ClaimValue = str | int | bool

#: Deepest JSON nesting accepted in evidence.
MAX_JSON_DEPTH = JSON_DEPTH_LIMIT
#: The longest committed ``text`` claim value, in UTF-8 bytes (SPEC §12.1.4): a
#: longer one is ``extract.value_too_long`` and no claim, so fields reading one long
#: string never commit it once each (real markets' text values: statuses, names).
TEXT_CLAIM_MAX_BYTES = 256
TEXT_TOO_LONG = f"text value is longer than {TEXT_CLAIM_MAX_BYTES} bytes"


@dataclass(frozen=True, slots=True)
class FallbackField:
    """A built-in field rule with ``FieldSpec``'s attribute names (no pydantic needed)."""

    key: str
    kind: FieldKind
    json_path: str
    regex: None = None


#: The fields read when a requirement declares none (seed M06 §8).
FALLBACK_FIELDS: tuple[FallbackField, ...] = (
    FallbackField(key="result", kind="boolean", json_path="$.result"),
    FallbackField(key="value", kind="numeric", json_path="$.value"),
    FallbackField(key="price", kind="numeric", json_path="$.price"),
    FallbackField(key="timestamp", kind="timestamp", json_path="$.timestamp"),
)

_PATH_FORM = re.compile(
    r"(?:\$(?P<rest>(?:\.[^.\[\]]+|\[(?:0|[1-9][0-9]{0,8})\])*)"
    r"|(?P<first>[^.\[\]$][^.\[\]]*)(?P<tail>(?:\.[^.\[\]]+|\[(?:0|[1-9][0-9]{0,8})\])*))")
_PATH_TOKEN = re.compile(r"\.([^.\[\]]+)|\[([0-9]+)\]")


@dataclass(frozen=True, slots=True)
class Claim:
    """One typed value from one evidence item (``confidence_bps`` = the item's)."""

    claim_id: str
    kind: FieldKind
    key: str
    path: str
    value: ClaimValue
    evidence_id: str
    confidence_bps: int

    def to_value(self) -> dict[str, Any]:
        """The committed form inside an ``extract`` step (keys in canonical order)."""
        return {"key": self.key, "kind": self.kind, "path": self.path, "value": self.value,
                "claim_id": self.claim_id}


@dataclass(frozen=True, slots=True)
class ExtractionWarning:
    """A field or body that yielded no claim, and why."""

    check_id: str
    message: str
    key: str | None = None
    offset: int | None = None

    def to_value(self) -> dict[str, Any]:
        """The committed form inside an ``extract`` step (SPEC §12.1.4)."""
        out: dict[str, Any] = {"check_id": self.check_id, "message": self.message}
        if self.key is not None:
            out["key"] = self.key
        if self.offset is not None:
            out["offset"] = self.offset
        return out


@dataclass(frozen=True, slots=True)
class ClaimSet:
    """Claims in evidence order, then field order."""

    claims: tuple[Claim, ...]

    def __iter__(self) -> Iterator[Claim]:
        return iter(self.claims)

    def __len__(self) -> int:
        return len(self.claims)

    def by_evidence_id(self) -> dict[str, tuple[Claim, ...]]:
        """Claims grouped per evidence id (groups in first-seen order)."""
        groups: dict[str, list[Claim]] = {}
        for claim in self.claims:
            groups.setdefault(claim.evidence_id, []).append(claim)
        return {k: tuple(g) for k, g in groups.items()}

    def by_kind(self, kind: str) -> tuple[Claim, ...]:
        """Claims of one kind, in order."""
        return tuple(c for c in self.claims if c.kind == kind)


@dataclass(frozen=True, slots=True)
class ItemExtraction:
    """Everything extraction found in one evidence item."""

    claims: tuple[Claim, ...]
    warnings: tuple[ExtractionWarning, ...]


def claim_id_from(evidence_id: str, path: str, value: ClaimValue) -> str:
    """The seed's deterministic claim id (see the module docstring)."""
    data = (evidence_id.encode("utf-8") + b"|" + path.encode("utf-8") + b"|"
            + encode(value))
    return "cl_" + hashlib.sha256(data).hexdigest()[:12]


def requirement_for(prompt_spec: PromptSpec, requirement_id: str) -> DataRequirement | None:
    """The requirement with this id (at most 64 requirements: a scan is cheap)."""
    return next((r for r in prompt_spec.data_requirements
                 if r.requirement_id == requirement_id), None)


def fields_for(requirement: DataRequirement) -> tuple[FieldSpec | FallbackField, ...]:
    """Declared fields, or the fallback fields when none are declared."""
    if requirement.expected_fields:
        return tuple(requirement.expected_fields)
    return FALLBACK_FIELDS


@functools.lru_cache(maxsize=4096)
def parse_json_path(path: str) -> tuple[str | int, ...] | None:
    """``$.a.b[0]`` or ``a.b[0]`` -> ``("a", "b", 0)``; ``$`` is the root; else ``None``."""
    match = _PATH_FORM.fullmatch(path)
    if match is None:
        return None
    tokens: list[str | int] = []
    if match.group("first") is not None:
        tokens.append(match.group("first"))
        rest = match.group("tail")
    else:
        rest = match.group("rest")
    for name, index in _PATH_TOKEN.findall(rest):
        tokens.append(int(index) if index else name)
    return tuple(tokens)


#: The fixed message of each body refusal (SPEC §12.1.4).
JSON_MESSAGES = {
    "extract.not_utf8": "content is not valid UTF-8",
    "extract.json_syntax": "content is not RFC 8259 JSON",
    "extract.json_depth": "JSON nested deeper than 64",
    "extract.json_duplicate_key": "JSON object repeats a member name",
    "extract.json_surrogate": "JSON string escapes a lone surrogate",
}


class BadJson(ValueError):
    """Evidence JSON refused: a warning code and the byte offset (SPEC §12.1.3)."""

    def __init__(self, code: str, offset: int) -> None:
        super().__init__(code, offset)
        self.code = code
        self.offset = offset


def parse_json_evidence(text: str) -> Any:
    """Parse evidence JSON strictly: RFC 8259 plus SPEC §12.1.3's refusals (no
    duplicate names, nesting at most 64, no lone surrogate escape), decimals for
    fractions, bounded integers, an exponent past 6 digits kept as an opaque
    number no field kind accepts.  Raise :class:`BadJson` with the first refusal's
    code and byte offset, found by :mod:`por.auditor.json_refusal` (the fast
    parser only decides acceptance)."""
    try:
        document = loads_strict(text, parse_int=v.json_int, parse_float=json_decimal,
                                max_depth=MAX_JSON_DEPTH, exact_error=False)
    except JsonTextError:
        refusal = first_refusal(text)
        # The scanner accepts exactly what the fast parser accepts, less lone
        # surrogates (tests/properties); a disagreement fails closed here.
        code, position = refusal if refusal is not None else (SYNTAX, len(text))
        raise BadJson(code, byte_offset(text, position)) from None
    if SURROGATE_ESCAPE.search(text) is not None:
        refusal = first_refusal(text)
        if refusal is not None:
            raise BadJson(refusal[0], byte_offset(text, refusal[1]))
    return document


def _converted(field: Any, raw: Any, *, from_text: bool) -> ClaimValue | None:
    # The declared value forms of SPEC §12.1.5 (value_map, number_format,
    # time_format), else the kind's default spelling.
    value = convert(getattr(field, "spec", field), raw, from_text=from_text)
    return None if isinstance(value, Refused) else value


def _regex_capture(field: FieldSpec | FallbackField, text: str, compiled: CompiledField | str,
                   budget: list[int]) -> tuple[str | None, ExtractionWarning | None]:
    # RE2, not Python's re: a regex comes from a committed PromptSpec, so it is
    # hostile input to a verifier (ADR 0004).  The subset (SPEC §12.1.2) means
    # the same in RE2, Go and Rust; its classes are ASCII.
    if isinstance(compiled, str):
        return None, ExtractionWarning("extract.bad_regex", compiled, field.key)
    # Charged before it runs, from the pattern and sizes alone (SPEC §17.5).
    cost = compiled.measure.cost * window_bytes(text)
    if cost > budget[0]:
        return None, ExtractionWarning("extract.regex_budget", REGEX_BUDGET, field.key)
    budget[0] -= cost
    match = compiled.program.search(text[:MAX_REGEX_INPUT_CHARS])
    if match is None or match.group(1) is None:
        return None, ExtractionWarning("extract.field_missing", "regex did not match", field.key)
    return match.group(1), None


Outcome = tuple[ClaimValue | None, str, ExtractionWarning | None]
_FILTER_REFUSALS = {  # SPEC §12.1.7
    FilterBudget: ("extract.filter_budget", "json_path filter budget of the item is spent"),
    Ambiguous: ("extract.filter_ambiguous", "json_path filter matches several elements")}


def _field_json(field: Any, document: Any, text: str, quiet: bool, *,
                compiled: CompiledField | str, budget: list[int], filters: list[int],
                cells: bool = False, members: Members | None = None) -> Outcome:
    if field.json_path is None and field.regex is None:  # per_source names other sources
        return None, "", ExtractionWarning("extract.no_locator",
                                           "no locator for this source", field.key)
    if field.json_path is None:
        raw_text, warning = _regex_capture(field, text, compiled, budget)
        path = field.regex or ""
        if raw_text is None:
            return None, path, warning
        value = _converted(field, raw_text, from_text=True)
    else:
        path = field.json_path
        tokens = parse_json_path(path)
        filtered = parse_filtered_path(path) if tokens is None else None
        if tokens is None and filtered is None:
            return None, path, ExtractionWarning("extract.bad_path",
                                                 "json_path is not well formed", field.key)
        try:  # SPEC §12.1.7: a filter matching several elements is refused
            found, raw = lookup(document, tokens if tokens is not None else filtered or (),
                                filters, members)
        except (FilterBudget, Ambiguous) as exc:
            return None, path, ExtractionWarning(*_FILTER_REFUSALS[type(exc)], field.key)
        if not found:
            return None, path, None if quiet else ExtractionWarning(
                "extract.field_missing", "json_path not present", field.key)
        value = _converted(field, raw, from_text=cells)
    if value is None:
        return None, path, ExtractionWarning("extract.field_kind",
                                             f"value is not a valid {field.kind}", field.key)
    return value, path, None


def _field_text(field: Any, text: str, compiled: CompiledField | str,
                budget: list[int]) -> Outcome:
    if field.regex is None:
        return None, field.json_path or "", ExtractionWarning(
            "extract.no_locator", "text evidence needs a regex", field.key)
    raw_text, warning = _regex_capture(field, text, compiled, budget)
    if raw_text is None:
        return None, field.regex, warning
    value = _converted(field, raw_text, from_text=True)
    if value is None:
        return None, field.regex, ExtractionWarning(
            "extract.field_kind", f"value is not a valid {field.kind}", field.key)
    return value, field.regex, None


def extract_item(requirement: DataRequirement | None, item: EvidenceItem) -> ItemExtraction:
    """Claims and warnings for one item (``requirement`` = the item's, if declared)."""
    if requirement is None:
        return ItemExtraction((), (ExtractionWarning(
            "extract.unknown_requirement", "requirement_id is not in the prompt spec"),))
    content = item.content  # read once: a lean item slices it out of the bundle
    if len(content) > MAX_CONTENT_BYTES:  # defence in depth: the schema bounds it
        return ItemExtraction((), (ExtractionWarning("extract.too_large",
                                                     "content exceeds the size cap"),))
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as exc:  # start: the end of the longest valid prefix
        return ItemExtraction((), (ExtractionWarning("extract.not_utf8", JSON_MESSAGES[
            "extract.not_utf8"], offset=exc.start),))
    fields = located_fields(fields_for(requirement), item.source.source_id)
    quiet = not requirement.expected_fields
    document: Any = None
    cells = item.content_type == "text/csv"
    if item.content_type == "application/json":
        try:
            document = parse_json_evidence(text)
        except BadJson as exc:
            return ItemExtraction((), (ExtractionWarning(exc.code, JSON_MESSAGES[exc.code],
                                                         offset=exc.offset),))
    elif cells and not quiet:
        try:  # SPEC §12.1.6: rows as header -> cell objects, located by json_path
            document = parse_csv(text)
        except CsvError as exc:
            return ItemExtraction((), (ExtractionWarning("extract.bad_csv", exc.message),))
    elif quiet:
        return ItemExtraction((), ())
    claims: list[Claim] = []
    warnings: list[ExtractionWarning] = []
    plan = regex_plan(tuple(field.regex for field in fields))
    budget = [REGEX_WORK_PER_BYTE * len(content) + REGEX_WORK_SLACK]
    filters = [len(content) // 2 + REGEX_WORK_SLACK]  # elements filters may examine (§12.1.7)
    members: Members = {}  # each array's member values, read once for all filters
    for field, compiled in zip(fields, plan, strict=True):
        if item.content_type == "application/json" or cells:
            value, path, warning = _field_json(field, document, text, quiet,
                                               compiled=compiled, budget=budget,
                                               filters=filters, cells=cells,
                                               members=members)
        else:
            value, path, warning = _field_text(field, text, compiled, budget)
        if type(value) is str and field.kind == "text" and len(
                value.encode("utf-8")) > TEXT_CLAIM_MAX_BYTES:  # SPEC §12.1.4
            value, warning = None, ExtractionWarning("extract.value_too_long",
                                                     TEXT_TOO_LONG, field.key)
        if warning is not None:
            warnings.append(warning)
        if value is not None:
            claims.append(Claim(claim_id=claim_id_from(item.evidence_id, path, value),
                                kind=field.kind, key=field.key, path=path, value=value,
                                evidence_id=item.evidence_id,
                                confidence_bps=item.confidence_bps))
    return ItemExtraction(tuple(claims), tuple(warnings))


class ClaimExtractor:
    """Seed M06 §8 entry point: every item of a bundle, in bundle order."""

    def extract(self, prompt_spec: PromptSpec, evidence: EvidenceBundle) -> ClaimSet:
        """All claims of the bundle (evidence order, then field order)."""
        claims: list[Claim] = []
        for item in evidence.items:
            found = extract_item(requirement_for(prompt_spec, item.requirement_id), item)
            claims.extend(found.claims)
        return ClaimSet(tuple(claims))


__all__ = [
    "FALLBACK_FIELDS",
    "MAX_JSON_DEPTH",
    "MAX_REGEX_INPUT_CHARS",
    "REGEX_WORK_PER_BYTE",
    "REGEX_WORK_SLACK",
    "BadJson",
    "Claim",
    "ClaimExtractor",
    "ClaimSet",
    "ClaimValue",
    "ExtractionWarning",
    "FallbackField",
    "ItemExtraction",
    "claim_id_from",
    "extract_item",
    "fields_for",
    "parse_json_evidence",
    "parse_json_path",
    "requirement_for",
]
