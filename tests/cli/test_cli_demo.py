"""``por demo``: one verified bundle per scenario, a table, the next command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from por.cli import main
from por.scenarios import list_scenarios


def test_demo_writes_and_verifies_every_scenario(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out)]) == 0
    names = list_scenarios()
    assert len(names) >= 10
    assert sorted(p.name for p in out.iterdir()) == [f"{n}.cbor" for n in names]
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["scenario", "outcome", "confidence", "rule", "por_root",
                                "verified", "expected"]
    rows = lines[1:1 + len(names)]
    assert [r.split()[0] for r in rows] == names
    assert all(r.split()[-2:] == ["yes", "yes"] for r in rows)
    assert lines[-1] == f"next: por verify {out}/*.cbor"
    assert main(["verify", "-q", *[str(p) for p in sorted(out.iterdir())]]) == 0


def test_demo_json_and_default_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "por/demo-report/1"
    assert doc["next_command"] == "por verify por-demo/*.cbor"
    assert [r["scenario"] for r in doc["results"]] == list_scenarios()
    assert all(r["verified"] and r["matched"] for r in doc["results"])
    assert len(list((tmp_path / "por-demo").iterdir())) == len(list_scenarios())


def test_demo_reports_a_mismatch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    from por import scenarios

    real = scenarios.load_scenario

    def wrong_expectation(name: str) -> scenarios.Scenario:
        s = real(name)
        expected = s.expected.model_copy(update={"confidence_bps": 1})
        return s.model_copy(update={"expected": expected})

    monkeypatch.setattr(scenarios, "load_scenario", wrong_expectation)
    assert main(["demo", "--out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "NO (confidence_bps)" in out


def test_demo_unwritable_directory_exit_2(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["demo", "--out", str(blocker / "sub")]) == 2
    assert capsys.readouterr().err.startswith("por: io.write_failed: ")


def test_verify_json_of_every_scenario_matches_the_schema(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.resources import files

    from mini_jsonschema import errors

    assert main(["demo", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    paths = [str(p) for p in sorted(tmp_path.iterdir())]
    assert main(["verify", "--json", *paths]) == 0
    doc = json.loads(capsys.readouterr().out)
    schema = json.loads(files("por.cli").joinpath("verify_report.schema.json").read_text())
    assert errors(doc, schema) == []
    assert [r["status"] for r in doc["results"]] == ["verified"] * len(paths)
