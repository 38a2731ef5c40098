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

import re2  # type: ignore[import-untyped]

from por.auditor import values as v
from por.auditor.csv_body import CsvError, parse_csv
from por.auditor.json_path import Ambiguous, FilterBudget, lookup, parse_filtered_path
from por.auditor.source_fields import located_fields
from por.auditor.value_forms import Refused, convert
from por.encoding import encode
from por.jsontext import MAX_JSON_DEPTH as JSON_DEPTH_LIMIT
from por.jsontext import JsonTextError, json_decimal, loads_strict
from por.lean.limits import MAX_CONTENT_BYTES, FieldKind

if TYPE_CHECKING:  # inputs are read by attribute: lean records work too (issue 16)
    from por.schemas import DataRequirement, EvidenceBundle, EvidenceItem, FieldSpec, PromptSpec

ClaimValue = str | int | bool

#: Deepest JSON nesting accepted in evidence.
MAX_JSON_DEPTH = JSON_DEPTH_LIMIT
#: Regexes see at most this many leading characters of a text body.
MAX_REGEX_INPUT_CHARS = 1 << 20


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

    def to_value(self) -> dict[str, Any]:
        """The committed form inside an ``extract`` step."""
        out: dict[str, Any] = {"check_id": self.check_id, "message": self.message}
        if self.key is not None:
            out["key"] = self.key
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


class _BadJson(ValueError):
    pass


def parse_json_evidence(text: str) -> Any:
    """Parse evidence JSON strictly (``por.jsontext.loads_strict``: no duplicate keys, no
    NaN/Infinity, nesting at most 64, decimals for fractions, bounded integers, an
    exponent past 6 digits kept as an opaque number no field kind accepts);
    raise ``ValueError`` with a stable message."""
    try:
        return loads_strict(text, parse_int=v.json_int, parse_float=json_decimal,
                            max_depth=MAX_JSON_DEPTH)
    except JsonTextError as exc:
        raise _BadJson(str(exc)) from None


def _converted(field: Any, raw: Any, *, from_text: bool) -> ClaimValue | None:
    # The declared value forms of SPEC §12.1.3 (value_map, number_format,
    # time_format), else the kind's default spelling.
    value = convert(getattr(field, "spec", field), raw, from_text=from_text)
    return None if isinstance(value, Refused) else value


def _re2_options() -> re2.Options:
    options = re2.Options()
    options.log_errors = False  # a bad pattern is a warning here, not stderr noise
    return options


_RE2_OPTIONS = _re2_options()


def _probe_options() -> re2.Options:
    # A small memory budget makes RE2 give up early on patterns whose program
    # would be far over MAX_REGEX_PROGRAM (e.g. 83 x \pL is ~100k instructions,
    # ~50 ms to build).  64 KiB still admits ~2 700 instructions, so every
    # pattern within the cap compiles in the probe.
    options = _re2_options()
    options.max_mem = 64 * 1024
    return options


_RE2_PROBE_OPTIONS = _probe_options()


#: Limits on PromptSpec regexes (SPEC §12.1).  A pattern is hostile input to a
#: verifier: RE2 matches in time linear in the text, but the constant is the
#: size of the compiled program, and counted repetitions (``{n,m}``) expand it
#: at compile time.  So: at most this many characters...
MAX_REGEX_CHARS = 256
#: ...the bounds of all counted repetitions in a pattern add up to at most this
#: (checked on the text, before compiling; RE2 itself caps nested products at 1000)...
MAX_REGEX_REPEAT_SUM = 64
#: ...one compiled RE2 program has at most this many instructions...
MAX_REGEX_PROGRAM = 512
#: ...and the regex fields of one requirement at most this many in total, so the
#: regex work per evidence byte is bounded whatever the PromptSpec says.
MAX_REGEX_PROGRAM_PER_REQUIREMENT = 1024

#: Regex work an item may cost, in RE2 instructions x scanned characters: this many
#: per byte of the item's content, plus :data:`REGEX_WORK_SLACK`.  RE2 is linear,
#: but a pattern that overflows its DFA cache runs on the NFA at about 7 ns per
#: instruction per character; this bound keeps the regex work per evidence byte
#: within a small multiple of an honest bundle's cost, whatever the patterns.
REGEX_WORK_PER_BYTE = 64
#: Work every item may spend regardless of its size (small items, short bodies).
REGEX_WORK_SLACK = 1 << 16

_COUNTED_REPEAT = re.compile(r"\{([0-9]+)(?:,([0-9]*))?\}")

#: A compiled pattern, or the reason it may not run.
RegexPlan = tuple[Any | str, ...]


def uses_any_byte(pattern: str) -> bool:
    """True if the pattern text has the escape ``\\C`` (SPEC §12.1.2): scanning
    left to right, a backslash and the character after it form one escape, so
    ``\\\\C`` (an escaped backslash, then ``C``) is not one.  ``\\C`` matches one
    *byte*: a match could start inside a UTF-8 character, and capture offsets
    would no longer be character offsets."""
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\":
            if pattern[i + 1:i + 2] == "C":
                return True
            i += 2
        else:
            i += 1
    return False


def _compile_one(pattern: str) -> Any | str:
    if len(pattern) > MAX_REGEX_CHARS:
        return f"regex longer than {MAX_REGEX_CHARS} characters"
    if uses_any_byte(pattern):
        return "regex uses \\C (any byte)"
    total = 0
    for low, high in _COUNTED_REPEAT.findall(pattern):
        bound = high or low
        total += int(bound) if len(bound) <= 6 else MAX_REGEX_REPEAT_SUM + 1
    if total > MAX_REGEX_REPEAT_SUM:
        return f"counted repetitions add up to more than {MAX_REGEX_REPEAT_SUM}"
    too_large = f"RE2 program larger than {MAX_REGEX_PROGRAM} instructions"
    try:
        probe = re2.compile(pattern, options=_RE2_PROBE_OPTIONS)
    except re2.error as exc:
        # Same reason text as the cap below, so the committed warning does not
        # depend on how a given RE2 version accounts for memory.
        return too_large if b"too large" in bytes(str(exc), "utf-8") else (
            "regex does not compile (RE2)")
    if probe.groups < 1:
        return "regex has no capture group"
    if probe.programsize > MAX_REGEX_PROGRAM:
        return too_large
    # Compile again with the default memory: the search's DFA cache needs it.
    return re2.compile(pattern, options=_RE2_OPTIONS)


@functools.lru_cache(maxsize=1024)
def regex_plan(patterns: tuple[str | None, ...]) -> RegexPlan:
    """Per field of one requirement (in order): its compiled RE2 pattern, or why
    it may not run.  A pure function of the patterns, so every item and every
    one-step re-execution sees the same plan (SPEC §12.1)."""
    plan: list[Any | str] = []
    budget = MAX_REGEX_PROGRAM_PER_REQUIREMENT
    for pattern in patterns:
        entry = "" if pattern is None else _compile_one(pattern)
        if not isinstance(entry, str):
            if entry.programsize > budget:
                entry = (f"regex fields of the requirement exceed "
                         f"{MAX_REGEX_PROGRAM_PER_REQUIREMENT} RE2 instructions")
            else:
                budget -= entry.programsize
        plan.append(entry)
    return tuple(plan)


def _regex_capture(field: FieldSpec | FallbackField, text: str, compiled: Any | str,
                   budget: list[int]) -> tuple[str | None, ExtractionWarning | None]:
    # RE2, not Python's re: a regex comes from a committed PromptSpec, so it is
    # hostile input to a verifier (ADR 0004).  Its classes (\d, \s, \w) are
    # ASCII, the same in every language that has RE2 (SPEC §12.1).
    if isinstance(compiled, str):
        return None, ExtractionWarning("extract.bad_regex", compiled, field.key)
    pattern = compiled
    # Charged before it runs, from sizes alone (SPEC §12.1, §17): the same on every machine.
    cost = pattern.programsize * min(len(text), MAX_REGEX_INPUT_CHARS)
    if cost > budget[0]:
        return None, ExtractionWarning("extract.regex_budget",
                                       "regex work budget of the item is spent", field.key)
    budget[0] -= cost
    match = pattern.search(text[:MAX_REGEX_INPUT_CHARS])
    if match is None or match.group(1) is None:
        return None, ExtractionWarning("extract.field_missing", "regex did not match", field.key)
    return match.group(1), None


Outcome = tuple[ClaimValue | None, str, ExtractionWarning | None]
_FILTER_REFUSALS = {  # SPEC §12.1.5
    FilterBudget: ("extract.filter_budget", "json_path filter budget of the item is spent"),
    Ambiguous: ("extract.filter_ambiguous", "json_path filter matches several elements")}


def _field_json(field: Any, document: Any, text: str, quiet: bool, *,
                compiled: Any | str, budget: list[int], filters: list[int],
                cells: bool = False) -> Outcome:
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
        try:  # SPEC §12.1.5: a filter matching several elements is refused
            found, raw = lookup(document, tokens if tokens is not None else filtered or (),
                                filters)
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


def _field_text(field: Any, text: str, compiled: Any | str,
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
            "extract.unknown_requirement",
            f"requirement {item.requirement_id!r} is not in the prompt spec"),))
    content = item.content  # read once: a lean item slices it out of the bundle
    if len(content) > MAX_CONTENT_BYTES:  # defence in depth: the schema bounds it
        return ItemExtraction((), (ExtractionWarning("extract.too_large",
                                                     "content exceeds the size cap"),))
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return ItemExtraction((), (ExtractionWarning("extract.not_utf8",
                                                     "content is not valid UTF-8"),))
    fields = located_fields(fields_for(requirement), item.source.source_id)
    quiet = not requirement.expected_fields
    document: Any = None
    cells = item.content_type == "text/csv"
    if item.content_type == "application/json":
        try:
            document = parse_json_evidence(text)
        except ValueError as exc:
            return ItemExtraction((), (ExtractionWarning("extract.bad_json", str(exc)),))
    elif cells and not quiet:
        try:  # SPEC §12.1.4: rows as header -> cell objects, located by json_path
            document = parse_csv(text)
        except CsvError as exc:
            return ItemExtraction((), (ExtractionWarning("extract.bad_csv", str(exc)),))
    elif quiet:
        return ItemExtraction((), ())
    claims: list[Claim] = []
    warnings: list[ExtractionWarning] = []
    plan = regex_plan(tuple(field.regex for field in fields))
    budget = [REGEX_WORK_PER_BYTE * len(content) + REGEX_WORK_SLACK]
    filters = [len(content) // 2 + REGEX_WORK_SLACK]  # elements filters may examine (§12.1.5)
    for field, compiled in zip(fields, plan, strict=True):
        if item.content_type == "application/json" or cells:
            value, path, warning = _field_json(field, document, text, quiet,
                                               compiled=compiled, budget=budget,
                                               filters=filters, cells=cells)
        else:
            value, path, warning = _field_text(field, text, compiled, budget)
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
