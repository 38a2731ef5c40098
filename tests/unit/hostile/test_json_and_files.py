"""Issue 11, items 1 and 7: the JSON nesting scan is one linear pass, huge JSON
exponents are decided by a stated rule (SPEC §12.1), and no file the CLI reads
can block it (a FIFO as --key or as the bundle).

No timed assertions: the linear-time cases are inputs that took hours with the
quadratic scan (the suite's own timeout is the guard), and the scanner is
checked against a character-by-character reference on generated text.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from por.auditor.claim_extraction import extract_item, parse_json_evidence
from por.errors import SchemaError
from por.jsontext import (
    MAX_JSON_DEPTH,
    JsonTextError,
    OutOfRangeNumber,
    json_decimal,
    json_nesting_exceeds,
    loads_strict,
)
from por.scenarios import load_scenario
from por.schemas import load_json

ROOT = Path(__file__).resolve().parents[3]
VALID = ROOT / "fixtures" / "bundles" / "valid" / "01-boolean-observed.cbor"


def reference_exceeds(text: str, limit: int) -> bool:
    """Brackets outside strings, one character at a time (an unterminated string
    runs to the end of the text)."""
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


@given(st.text(alphabet='[]{}"\\ a,:', max_size=300), st.integers(0, 6))
def test_scan_equals_the_reference(text: str, limit: int) -> None:
    assert json_nesting_exceeds(text, limit) == reference_exceeds(text, limit)


@pytest.mark.parametrize("text", [
    '"\\' * 2_000_000,                 # the quadratic case: 4 MB of "\ (hours before)
    '"' + "\\\"" * 1_000_000,          # one unterminated string of escaped quotes
    "[" + "[]," * 1_000_000 + "[]]",   # wide, shallow: every bracket counted once
])
def test_large_hostile_scans_finish(text: str) -> None:
    assert json_nesting_exceeds(text) is False


def test_depth_limit_still_applies() -> None:
    assert json_nesting_exceeds("[" * (MAX_JSON_DEPTH + 1)) is True
    assert json_nesting_exceeds('"' + "[" * 100 + '"') is False  # inside a string
    assert json_nesting_exceeds("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH) is False


def test_json_forms_cap_containers_outside_strings() -> None:
    with pytest.raises(SchemaError) as info:
        load_json("[" + "[]," * 1_000_000 + "[]]")
    assert info.value.check_id == "schema.json"
    assert "more than 1000000 arrays and objects" in info.value.message
    # Brackets inside strings are text, not containers.
    assert len(load_json('["' + "[]" * 1_100_000 + '"]')[0]) == 2_200_000


# --- huge exponents (SPEC §12.1) -------------------------------------------------------

@pytest.mark.parametrize("literal", ["1e1000000000000000000", "-2.5E+9999999",
                                     "1e-10000000", "7e00000000000000000000000001234567"])
def test_out_of_range_exponent_is_opaque(literal: str) -> None:
    assert isinstance(json_decimal(literal), OutOfRangeNumber)
    document = parse_json_evidence(f'{{"price": {literal}, "ok": 1.5}}')
    assert isinstance(document["price"], OutOfRangeNumber)
    assert document["ok"] == Decimal("1.5")


@pytest.mark.parametrize("literal", ["1e999999", "1.5e3", "1e0000000000000000000005"])
def test_in_range_exponent_is_a_decimal(literal: str) -> None:
    assert isinstance(json_decimal(literal), Decimal)


def test_forms_for_people_refuse_an_out_of_range_number() -> None:
    with pytest.raises(JsonTextError, match="out of range"):
        loads_strict('{"a": 1e1000000000000000000}')
    with pytest.raises(SchemaError) as info:
        load_json(b'{"a": 1e1000000000000000000}')
    assert info.value.check_id == "schema.json"


def test_evidence_with_a_huge_exponent_gives_a_field_warning() -> None:
    scenario = load_scenario("03-threshold-gt-boundary")
    spec = scenario.prompt_spec
    item = scenario.evidence.items[0].model_copy(
        update={"content": b'{"price": 1e1000000000000000000, "value": 1e1000000000000000000}'})
    requirement = next(r for r in spec.data_requirements
                       if r.requirement_id == item.requirement_id)
    result = extract_item(requirement, item)
    assert result.claims == ()
    assert {w.check_id for w in result.warnings} <= {"extract.field_kind",
                                                      "extract.field_missing"}


def test_build_and_verify_decide_a_huge_exponent(tmp_path: Path) -> None:
    scenario = load_scenario("03-threshold-gt-boundary")
    items = [item.model_copy(update={"content": b'{"value": 1e1000000000000000000}'})
             for item in scenario.evidence.items]
    spec_path, ev_path, out = tmp_path / "s.json", tmp_path / "e.json", tmp_path / "b.cbor"
    spec_path.write_text(json.dumps(scenario.prompt_spec.to_json_obj()))
    evidence = scenario.evidence.model_copy(update={"items": items})
    ev_path.write_text(json.dumps(evidence.to_json_obj()))
    run = [sys.executable, "-m", "por"]
    built = subprocess.run([*run, "build", "--prompt-spec", str(spec_path), "--evidence",
                            str(ev_path), "-o", str(out)], capture_output=True, text=True,
                           timeout=120, check=False)
    assert built.returncode == 0, built.stderr
    assert "INVALID" in built.stdout  # no admissible value: decided, not a crash
    verified = subprocess.run([*run, "verify", str(out)], capture_output=True, text=True,
                              timeout=120, check=False)
    assert verified.returncode == 0, verified.stdout + verified.stderr


# --- files that could block -------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs")
@pytest.mark.parametrize("argv", [
    ["verify", "--key", "{fifo}", str(VALID)],
    ["verify", "{fifo}"],
    ["check-proof", "{fifo}"],
])
def test_a_fifo_never_blocks(tmp_path: Path, argv: list[str]) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    args = [a.replace("{fifo}", str(fifo)) for a in argv]
    # timeout is a guard against a hang (the old behaviour), not a timing assertion.
    done = subprocess.run([sys.executable, "-m", "por", *args], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode in (1, 2), done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    if "--key" in argv:
        assert "key.unreadable" in done.stderr
