"""The PromptSpec caps of ADR 0011 decision 3 (SPEC §4.2, §17.6): vectors.

Each cap has a spec exactly at it (accepted) and one past it (``schema.value``,
the path named first in the message), read from canonical bytes as a verifier
reads them and from the JSON form as ``por build`` reads it; a bundle carrying an
over-cap spec fails its schema check. Provenance: generated here from the
committed fixture ``01-boolean-observed`` (SPEC §4.2's caps: 8 requirements, 10
source targets and 8 expected fields per requirement, 8192 canonical bytes).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from por.encoding import decode, encode
from por.errors import PorError
from por.protocol.limits import (
    MAX_EXPECTED_FIELDS,
    MAX_PROMPT_SPEC_BYTES,
    MAX_REQUIREMENTS,
    MAX_SOURCE_TARGETS,
    MAX_SPEC_EXPECTED_FIELDS,
)
from por.schemas import PromptSpec
from verifier import check_bundle

ROOT = Path(__file__).resolve().parents[2]
RAW: dict[str, Any] = decode(
    (ROOT / "fixtures" / "bundles" / "valid" / "01-boolean-observed.cbor").read_bytes())
PROMPT: dict[str, Any] = decode(RAW["prompt_spec"])
REQ = "PromptSpec.data_requirements"


def _requirements(n: int) -> dict[str, Any]:
    spec = copy.deepcopy(PROMPT)
    first = spec["data_requirements"][0]
    spec["data_requirements"] = [dict(first, requirement_id=f"r{i}") for i in range(n)]
    return spec


def _sources(n: int) -> dict[str, Any]:
    spec = copy.deepcopy(PROMPT)
    req = spec["data_requirements"][0]
    req["source_targets"] = [dict(req["source_targets"][0], source_id=f"s{i:02d}")
                             for i in range(n)]
    return spec


def _fields(n: int) -> dict[str, Any]:
    spec = copy.deepcopy(PROMPT)
    req = spec["data_requirements"][0]
    req["expected_fields"] = [dict(req["expected_fields"][0], key=f"k{i}") for i in range(n)]
    return spec


def _spread_fields(n: int) -> dict[str, Any]:
    """``n`` expected fields over all requirements: 8 requirements, at most 8 fields each."""
    spec = _requirements(MAX_REQUIREMENTS)
    field = spec["data_requirements"][0]["expected_fields"][0]
    for i, req in enumerate(spec["data_requirements"]):
        count = n // MAX_REQUIREMENTS + (1 if i < n % MAX_REQUIREMENTS else 0)
        req["expected_fields"] = [dict(field, key=f"k{i}_{j}") for j in range(count)]
    return spec


def _sized(n: int) -> dict[str, Any]:
    """The fixture's spec with its first description padded to ``n`` canonical bytes."""
    spec = copy.deepcopy(PROMPT)
    req = spec["data_requirements"][0]
    req["description"] = ""
    base = len(encode(spec))
    req["description"] = "x" * (n - base)  # at most 3 bytes of head too long
    while len(encode(spec)) > n:
        req["description"] = req["description"][:-1]
    assert len(encode(spec)) == n
    return spec


CAPS: list[tuple[str, Callable[[int], dict[str, Any]], int, str]] = [
    ("data_requirements", _requirements, MAX_REQUIREMENTS, REQ),
    ("source_targets", _sources, MAX_SOURCE_TARGETS, f"{REQ}.0.source_targets"),
    ("expected_fields", _fields, MAX_EXPECTED_FIELDS, f"{REQ}.0.expected_fields"),
    ("spec_fields", _spread_fields, MAX_SPEC_EXPECTED_FIELDS, "PromptSpec.(record)"),
    ("bytes", _sized, MAX_PROMPT_SPEC_BYTES, "PromptSpec.(record)"),
]


def _outcome(read: Callable[[], object]) -> str:
    try:
        read()
    except PorError as exc:
        return f"{exc.check_id} {exc.message.split(':')[0]}"
    return "ok"


def test_the_caps_are_adr_0011s() -> None:
    assert (MAX_REQUIREMENTS, MAX_SOURCE_TARGETS, MAX_EXPECTED_FIELDS,
            MAX_SPEC_EXPECTED_FIELDS, MAX_PROMPT_SPEC_BYTES) == (8, 10, 8, 16, 8192)


@pytest.mark.parametrize(("name", "make", "cap", "path"), CAPS, ids=[c[0] for c in CAPS])
def test_at_the_cap_accepted_past_it_refused(
        name: str, make: Callable[[int], dict[str, Any]], cap: int, path: str) -> None:
    at, past = make(cap), make(cap + 1)
    assert _outcome(lambda: PromptSpec.from_cbor(encode(at))) == "ok"
    assert _outcome(lambda: PromptSpec.from_cbor(encode(past))) == f"schema.value {path}"
    json_at = PromptSpec.from_cbor(encode(at)).to_json_obj()
    assert _outcome(lambda: PromptSpec.from_json_obj(json_at)) == "ok"


@pytest.mark.parametrize(("name", "make", "cap", "path"), CAPS, ids=[c[0] for c in CAPS])
def test_the_json_form_past_the_cap_is_refused(
        name: str, make: Callable[[int], dict[str, Any]], cap: int, path: str) -> None:
    """``por build`` reads the JSON form: it refuses what verify refuses (SPEC §17.6)."""
    past = make(cap + 1)  # the fixture's spec has no byte strings: its JSON form is itself
    assert _outcome(lambda: PromptSpec.from_json_obj(past)) == f"schema.value {path}"


def test_a_bundle_with_an_over_cap_spec_fails_its_schema_check() -> None:
    raw = dict(RAW, prompt_spec=encode(_sized(MAX_PROMPT_SPEC_BYTES + 1)))
    report = check_bundle(encode(raw))
    failed = [c.check_id for c in report.checks if not c.ok and c.severity == "error"]
    assert failed[:1] == ["schema.value"]


def _without_default(n: int) -> dict[str, Any]:
    """A spec whose bytes omit ``timestamp_slack_seconds`` (default 0): its canonical
    form, which spells it, is ``n`` bytes; the bytes read are shorter."""
    spec = _sized(n)
    assert spec.pop("timestamp_slack_seconds") == 0
    return spec


def test_the_byte_cap_is_on_the_canonical_form_not_the_bytes_read() -> None:
    """``from_cbor`` measures the cap on the bytes it read when they are the record's
    canonical form (issue 22: no re-encoding on verify); bytes that are not (a
    defaulted field omitted) are measured re-encoded, so the check id is the one the
    re-encoding always gave: the cap first, ``schema.non_canonical_record`` after."""
    past = _without_default(MAX_PROMPT_SPEC_BYTES + 1)
    assert len(encode(past)) < MAX_PROMPT_SPEC_BYTES
    assert _outcome(lambda: PromptSpec.from_cbor(encode(past))) == \
        "schema.value PromptSpec.(record)"
    at = _without_default(MAX_PROMPT_SPEC_BYTES)
    assert _outcome(lambda: PromptSpec.from_cbor(encode(at))) == \
        "schema.non_canonical_record por.PromptSpec/1"
    exact = PromptSpec.from_cbor(encode(_sized(MAX_PROMPT_SPEC_BYTES)))
    assert len(exact.to_cbor()) == MAX_PROMPT_SPEC_BYTES
