"""``por verify``: exit codes, text and JSON output, several inputs, stdin."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from importlib.resources import files
from typing import Any

import pytest
from cli_support import GARBAGE, built_bytes
from mini_jsonschema import errors

from por.cli import main

SCHEMA: dict[str, Any] = json.loads(
    files("por.cli").joinpath("verify_report.schema.json").read_text(encoding="utf-8"))


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["verify", "--json", *argv])
    captured = capsys.readouterr()
    document = json.loads(captured.out)  # exactly one document: json.loads refuses two
    assert errors(document, SCHEMA) == []
    return code, document


# --- exit codes per case -------------------------------------------------------

Case = tuple[str, int, str, str | None]
#: fixture name, exit code, text word, check id of the failure
CASES: list[Case] = [
    ("valid", 0, "OK", None),
    ("tampered_path", 1, "FAIL", "commit.evidence_root"),
    ("garbage", 1, "FAIL", "codec.reserved"),
    ("missing", 2, "ERROR", "io.unreadable"),
    ("unsupported", 2, "ERROR", "manifest.unsupported_auditor_version"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_text_line_and_exit_code(request: pytest.FixtureRequest,
                                 capsys: pytest.CaptureFixture[str], case: Case) -> None:
    fixture, code, word, check_id = case
    path = request.getfixturevalue(fixture)
    assert main(["verify", path]) == code
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == 1
    if check_id is None:
        assert lines[0] == f"OK {path}"
    else:
        assert lines[0].startswith(f"{word} {path}: {check_id}: ")
    assert captured.err == ""


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_json_same_exit_code_and_schema(request: pytest.FixtureRequest,
                                        capsys: pytest.CaptureFixture[str], case: Case) -> None:
    fixture, code, _, check_id = case
    path = request.getfixturevalue(fixture)
    got, document = run_json(capsys, path)
    assert got == code
    assert document["schema"] == "por/verify-report/1"
    assert document["exit_code"] == code
    [result] = document["results"]
    assert result["input"] == path
    assert result["exit_code"] == code
    assert result["status"] == {0: "verified", 1: "rejected", 2: "error"}[code]
    failed = [c["id"] for c in result["checks"] if c["status"] == "failed"]
    assert failed == ([] if check_id is None else [check_id])


def test_json_verified_result_fields(valid: str, capsys: pytest.CaptureFixture[str]) -> None:
    from por.bundle import Bundle

    _, document = run_json(capsys, valid)
    [result] = document["results"]
    root = Bundle.from_cbor(built_bytes()).commitments.por_root.hex()
    assert result["por_root"] == root
    assert result["market_id"] == "acme-r3-ships-2026-04"
    assert (result["outcome"], result["confidence_bps"], result["resolution_rule_id"]) == (
        "YES", 7000, "R_BINARY_DECISION")
    ids = [c["id"] for c in result["checks"]]
    assert ids[:2] == ["codec.ok", "schema.ok"]
    assert "replay.judge_ok" in ids
    assert all(c["status"] == "ok" for c in result["checks"])


def test_json_failure_carries_expected_actual_and_challenge(
        tampered_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, document = run_json(capsys, tampered_path)
    failure = document["results"][0]["checks"][-1]
    assert failure["id"] == "commit.evidence_root"
    assert failure["challenge"] == {"kind": "evidence_leaf"}
    assert len(failure["recomputed"]) == 64
    assert failure["recomputed"] != failure["committed"]
    assert failure["recomputed"] == failure["recomputed"].lower()


def test_json_unreadable_result(missing: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, document = run_json(capsys, missing)
    [result] = document["results"]
    assert result["por_root"] is None
    assert result["checks"] == [{
        "id": "io.unreadable", "status": "failed", "severity": "error",
        "message": "no such file", "committed": None, "recomputed": None, "challenge": None,
        "details": None,
    }]


def test_schema_validator_can_fail(valid: str, capsys: pytest.CaptureFixture[str]) -> None:
    _, document = run_json(capsys, valid)
    broken = json.loads(json.dumps(document))
    broken["results"][0]["por_root"] = "ABC"
    del broken["results"][0]["checks"][0]["severity"]
    broken["results"][0]["status"] = "fine"
    found = errors(broken, SCHEMA)
    assert len(found) == 3, found


# --- several inputs, stdin ------------------------------------------------------

@pytest.mark.parametrize(("fixtures", "code"), [
    (["valid", "valid"], 0),
    (["valid", "tampered_path"], 1),
    (["tampered_path", "valid", "garbage"], 1),
    (["valid", "missing"], 2),
    (["missing", "tampered_path"], 2),
    (["unsupported", "valid", "garbage"], 2),
])
def test_worst_exit_code_wins(request: pytest.FixtureRequest,
                              capsys: pytest.CaptureFixture[str],
                              fixtures: list[str], code: int) -> None:
    paths = [request.getfixturevalue(f) for f in fixtures]
    assert main(["verify", *paths]) == code
    *lines, summary = capsys.readouterr().out.splitlines()
    assert [line.split(" ")[1].rstrip(":") for line in lines] == paths
    assert summary.startswith(f"summary: {len(paths)} inputs, ")
    got, document = run_json(capsys, *paths)
    assert got == code
    assert document["exit_code"] == code
    assert [r["input"] for r in document["results"]] == paths


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


@pytest.mark.parametrize(("data", "code", "word"), [
    (None, 0, "OK"), (GARBAGE, 1, "FAIL"), (b"", 1, "FAIL")])
def test_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
               data: bytes | None, code: int, word: str) -> None:
    _stdin(monkeypatch, built_bytes() if data is None else data)
    assert main(["verify", "-"]) == code
    assert capsys.readouterr().out.startswith(f"{word} -")


def test_stdin_twice_is_a_usage_error(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    _stdin(monkeypatch, GARBAGE)
    assert main(["verify", "-", "-"]) == 2
    assert capsys.readouterr().err == (
        "por: usage.stdin_twice: standard input (-) can be read only once\n")


# --- output levels ------------------------------------------------------------

@pytest.mark.parametrize("fixture", ["valid", "tampered_path", "missing"])
def test_quiet_prints_nothing(request: pytest.FixtureRequest,
                              capsys: pytest.CaptureFixture[str], fixture: str) -> None:
    path = request.getfixturevalue(fixture)
    code = main(["verify", path])
    capsys.readouterr()
    assert main(["verify", "-q", path]) == code
    assert capsys.readouterr() == ("", "")


def test_verbose_lists_every_check(valid: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "-v", valid]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"OK {valid}"
    for check_id in ("codec.ok", "schema.ok", "commit.ok", "manifest.ok", "replay.audit_ok",
                     "trace.ok", "replay.judge_ok"):
        assert f"  ok      {check_id}: " in out
    assert "  verdict    YES 70.00% R_BINARY_DECISION\n" in out


def test_verbose_failure_shows_expected_actual_challenge(
        tampered_path: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "-v", tampered_path]) == 1
    out = capsys.readouterr().out
    assert "  FAILED  commit.evidence_root: " in out
    assert "          committed  " in out
    assert "          recomputed " in out
    assert "          challenge  evidence_leaf\n" in out
    assert "(claimed, not verified)" in out


def test_quiet_and_verbose_exclude_each_other(garbage: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "-q", "-v", garbage]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_quiet_and_json_exclude_each_other(garbage: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "-q", "--json", garbage]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("por: usage.options: ")
    assert json.loads(captured.out)["schema"] == "por/error/1"


# --- limits and odd inputs ----------------------------------------------------

def test_max_size(valid: str, capsys: pytest.CaptureFixture[str]) -> None:
    size = len(built_bytes())
    assert main(["verify", "--max-size", str(size), valid]) == 0
    assert main(["verify", "--max-size", str(size - 1), valid]) == 1
    assert capsys.readouterr().out.splitlines()[1].startswith(
        f"FAIL {valid}: codec.too_large: ")


@pytest.mark.parametrize("value", ["0", "-5", "ten"])
def test_max_size_must_be_positive(garbage: str, value: str) -> None:
    assert main(["verify", "--max-size", value, garbage]) == 2


def test_directory_is_unreadable(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(tmp_path)]) == 2
    assert capsys.readouterr().out == f"ERROR {tmp_path}: io.unreadable: is a directory\n"


def test_no_input_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify"]) == 2
    assert "required: BUNDLE" in capsys.readouterr().err


def test_control_characters_in_names_are_escaped(
        write: Callable[[str, bytes], str], capsys: pytest.CaptureFixture[str]) -> None:
    path = write("evil\x1b[2J\nOK x.cbor", GARBAGE)
    assert main(["verify", path]) == 1
    out = capsys.readouterr().out
    assert out.count("\n") == 1
    assert "\\x1b[2J\\x0aOK x.cbor: codec." in out
