"""Issue 10, findings 1 and 2: ``por explain``, ``por build`` explaining INVALID,
refusing a PromptSpec that can never resolve, ``-o`` never overwriting an input;
every ``--json`` document validated against its shipped schema."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from mini_jsonschema import errors

from por.cli import main
from por.cli.schema import schema_for

MARKETS = Path(__file__).resolve().parents[2] / "fixtures" / "markets"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def valid_against(name: str, document: Any) -> None:
    assert errors(document, schema_for(name)) == []


@pytest.fixture
def market(tmp_path: Path) -> Path:
    for name in ("prompt_spec.json", "evidence.json"):
        shutil.copy(MARKETS / "03-threshold-gt-boundary" / name, tmp_path / name)
    return tmp_path


def _edited(market: Path, old: str, new: str) -> Path:
    path = market / "edited.json"
    text = (market / "prompt_spec.json").read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def test_build_says_why_a_typo_makes_it_invalid(capsys: pytest.CaptureFixture[str],
                                                market: Path) -> None:
    spec = _edited(market, '"$.close"', '"$.closee"')
    code, out, err = run(capsys, "build", "--prompt-spec", str(spec), "--evidence",
                         str(market / "evidence.json"), "-o", str(market / "b.cbor"))
    assert code == 0 and " INVALID " in out
    lines = err.splitlines()
    assert lines[0].startswith("why INVALID: R_VALIDITY: validity: ")
    assert ("why INVALID: extract.field_missing: ev-acme-exchange-close close ($.closee): "
            "json_path not present (step_0001)") in lines
    code, out, _ = run(capsys, "build", "--json", "--prompt-spec", str(spec), "--evidence",
                       str(market / "evidence.json"), "-o", str(market / "b.cbor"), "--force")
    assert any("extract.field_missing" in w for w in json.loads(out)["why"])


def test_build_of_a_yes_or_no_prints_no_reasons(capsys: pytest.CaptureFixture[str],
                                                market: Path) -> None:
    code, _, err = run(capsys, "build", "--prompt-spec", str(market / "prompt_spec.json"),
                       "--evidence", str(market / "evidence.json"), "-o",
                       str(market / "b.cbor"))
    assert (code, err) == (0, "")


@pytest.mark.parametrize(("old", "new", "check_id", "says"), [
    ('"R_CONFLICT"', '"R_CONFLICTS"', "judge.schema_lock.rule_ids", "R_CONFLICTS"),
    ('"metric": "close"', '"metric": "closing"', "spec.metric_unprovided", "'closing'"),
    ('"metric": "close"', '"metric": "as_of"', "spec.metric_unprovided", "only as timestamp"),
])
def test_build_refuses_a_spec_that_can_never_resolve(  # noqa: PLR0917
        capsys: pytest.CaptureFixture[str], market: Path, old: str, new: str,
        check_id: str, says: str) -> None:
    spec = _edited(market, old, new)
    out_file = market / "never.cbor"
    code, out, err = run(capsys, "build", "--prompt-spec", str(spec), "--evidence",
                         str(market / "evidence.json"), "-o", str(out_file))
    assert (code, out) == (1, "")
    assert err.startswith(f"por: {check_id}: ") and says in err and err.count("\n") == 1
    assert not out_file.exists()


@pytest.mark.parametrize("which", ["prompt_spec.json", "evidence.json"])
def test_build_never_overwrites_its_input(capsys: pytest.CaptureFixture[str], market: Path,
                                          which: str) -> None:
    before = (market / which).read_bytes()
    code, _, err = run(capsys, "build", "--prompt-spec", str(market / "prompt_spec.json"),
                       "--evidence", str(market / "evidence.json"), "-o", str(market / which))
    assert code == 2 and "usage.output_is_input" in err
    assert (market / which).read_bytes() == before


def test_explain_names_the_rule_and_the_values(capsys: pytest.CaptureFixture[str],
                                               market: Path) -> None:
    bundle = market / "b.cbor"
    assert run(capsys, "build", "--prompt-spec", str(market / "prompt_spec.json"),
               "--evidence", str(market / "evidence.json"), "-o", str(bundle))[0] == 0
    code, out, _ = run(capsys, "explain", str(bundle))
    assert code == 0
    assert "decided  R_BINARY_DECISION by binary_decision" in out
    assert "compared numeric_value 100 > threshold 100" in out
    assert "ev-acme-exchange-close close = 100 (numeric, $.close)" in out
    code, out, _ = run(capsys, "explain", "--json", str(bundle))
    doc = json.loads(out)
    valid_against("explain", doc)
    assert doc["decision"]["matches_committed"] is True
    assert [s["step_id"] for s in doc["steps"]][:2] == ["step_0001", "step_0002"]
    assert doc["evaluation_variables"]["numeric_value"] == "100"


def test_tree_view(capsys: pytest.CaptureFixture[str], market: Path) -> None:
    bundle = market / "b.cbor"
    assert run(capsys, "build", "--prompt-spec", str(market / "prompt_spec.json"),
               "--evidence", str(market / "evidence.json"), "-o", str(bundle))[0] == 0
    code, out, _ = run(capsys, "explain", "--tree", "--limit", "2", str(bundle))
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("por_root ")
    assert sum("] " in line for line in lines) == 7
    assert any("... 4 more" in line for line in lines)
    code, out, _ = run(capsys, "explain", "--tree", "--json", str(bundle))
    doc = json.loads(out)
    valid_against("tree", doc)
    assert [c["name"] for c in doc["components"]][2] == "evidence"


def test_explain_of_junk_is_one_line(capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    junk = tmp_path / "junk.cbor"
    junk.write_bytes(b"\xa0")
    code, out, err = run(capsys, "explain", str(junk))
    assert (code, out) == (1, "") and err.count("\n") == 1 and err.startswith("por: ")
