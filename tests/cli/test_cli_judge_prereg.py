"""``por judge preregister`` and ``batch --preregistration`` / ``--run`` (SPEC §15.11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from por.cli.app import main
from por.judges import verify_judgement
from por.judges.chain import preregistration_digest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = str(ROOT / "fixtures" / "judges" / "por-judge-1.yaml")
VALID = ROOT / "fixtures" / "bundles" / "valid"
ONE, TWO = (str(VALID / n) for n in ("01-boolean-observed.cbor", "02-boolean-not-observed.cbor"))


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(argv)
    text = capsys.readouterr().out
    return code, json.loads(text) if text.strip() else {}


def _prereg(capsys: pytest.CaptureFixture[str], tmp_path: Path, *bundles: str,
            run: str = "3") -> tuple[Path, dict]:  # type: ignore[type-arg]
    path = tmp_path / f"run{run}.prereg.cbor"
    code, doc = _run(capsys, ["judge", "preregister", *bundles, "--judge-config", CONFIG,
                              "--run", run, "-o", str(path), "--json"])
    assert code == 0, doc
    return path, doc


def test_a_batch_runs_under_its_published_preregistration(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, doc = _prereg(capsys, tmp_path, TWO, ONE)  # any order: subjects are sorted
    out = tmp_path / "judged"
    code, batch = _run(capsys, ["judge", "batch", ONE, TWO, "--judge-config", CONFIG,
                                "--preregistration", str(path), "-o", str(out), "--json"])
    assert code == 0, batch
    assert batch["preregistration"]["digest"] == doc["digest"]
    assert batch["preregistration"]["run"] == 3
    summary = verify_judgement((out / "judgement.cbor").read_bytes())
    assert preregistration_digest(summary.preregistration).hex() == doc["digest"]
    assert {c.previous for c in summary.calls if c.attempt == 1} \
        == {bytes.fromhex(doc["digest"])}
    code, verified = _run(capsys, ["judge", "verify", str(out / "judgement.cbor"), "--json"])
    assert code == 0
    assert {(c["claim"], c["checked"]) for c in verified["calls"]} == {("rerun", "rerun")}


def test_a_preregistration_of_other_subjects_is_refused_before_any_call(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, _ = _prereg(capsys, tmp_path, ONE)
    out = tmp_path / "judged"
    code, failed = _run(capsys, ["judge", "batch", ONE, TWO, "--judge-config", CONFIG,
                                 "--preregistration", str(path), "-o", str(out), "--json"])
    assert code == 1 and failed["error"]["id"] == "judgement.preregistration"
    assert not (out / "judgement.cbor").exists()


def test_run_and_preregistration_together_are_a_usage_error(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, _ = _prereg(capsys, tmp_path, ONE)
    code, failed = _run(capsys, ["judge", "batch", ONE, "--judge-config", CONFIG, "--run", "2",
                                 "--preregistration", str(path), "-o", str(tmp_path / "o"),
                                 "--json"])
    assert code == 2 and failed["error"]["id"] == "usage.judge"


def test_another_run_number_is_another_judgement(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    roots = []
    for run in ("1", "2"):
        code, batch = _run(capsys, ["judge", "batch", ONE, "--judge-config", CONFIG, "--run",
                                    run, "-o", str(tmp_path / run), "--json"])
        assert code == 0 and batch["preregistration"]["run"] == int(run)
        roots.append(batch["judgement_id"])
    assert roots[0] != roots[1]


def test_verify_says_what_was_checked(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    llm = ROOT / "fixtures" / "judges" / "valid" / "llm-retry.cbor"
    assert main(["judge", "verify", str(llm)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("  calls claim rerun; checked: recorded bytes only")
