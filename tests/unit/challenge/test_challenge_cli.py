"""``por challenge``, ``por check-proof`` and ``write_challenges_for_report``, in-process.

The subcommands are registered on a parser of their own and run through the
real dispatcher (``por.cli.app.dispatch``), as the lead wires them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from challenge_support import make_bundle
from test_challenge_scenarios import forged_bundle

from por.cli.app import dispatch
from por.cli.challenge_cmd import add_challenge_parser, add_check_proof_parser
from por.cli.challenge_files import write_challenges_for_report
from por.schemas import ChallengeRef, CheckResult
from verifier import VerificationReport, check_bundle

ROOT = Path(__file__).resolve().parents[3]


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="por")
    commands = parser.add_subparsers(dest="command", required=True)
    add_challenge_parser(commands)
    add_check_proof_parser(commands)
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    return dispatch(args)


@pytest.fixture
def bundle_file(tmp_path: Path) -> Path:
    path = tmp_path / "bundle.cbor"
    path.write_bytes(make_bundle(3).to_cbor())
    return path


def test_challenge_then_check(bundle_file: Path, tmp_path: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
    proof = tmp_path / "ev.cbor"
    assert run(["challenge", str(bundle_file), "--evidence", "ev_0001", "-o", str(proof)]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith(f"OK {proof}: evidence_leaf proof (por.InclusionProof/1), ")
    # A valid inclusion proof of a valid record proves presence only: the
    # challenge is lost (exit 1), the proof valid.
    assert run(["check-proof", str(proof)]) == 1
    text = capsys.readouterr().out
    assert text.startswith(f"LOST {proof}: proof valid: evidence_leaf leaf 1 of 3 is in the "
                           "evidence tree under por_root ")
    assert "; challenge lost (inclusion.valid_record): " in text
    assert run(["check-proof", "-v", str(proof)]) == 1
    verbose = capsys.readouterr().out
    assert "level leaf: index 1 of 3" in verbose and "level component: index 2 of 7" in verbose
    assert verbose.count("  ok\n") == 2 and "MISMATCH" not in verbose


def test_check_proof_json(bundle_file: Path, tmp_path: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:
    proof = tmp_path / "v.cbor"
    assert run(["challenge", str(bundle_file), "--verdict", "-o", str(proof), "--json"]) == 0
    made = json.loads(capsys.readouterr().out)
    assert (made["schema"], made["kind"], made["size"]) == (
        "por/challenge/1", "verdict", proof.stat().st_size)
    root = made["por_root"]
    assert run(["check-proof", "--json", "--por-root", root, str(proof)]) == 1
    document = json.loads(capsys.readouterr().out)
    assert (document["schema"], document["status"], document["challenge"],
            document["exit_code"]) == ("por/proof-check/1", "valid", "lost", 1)
    assert document["challenge_id"] == made["challenge_id"]
    assert document["inclusions"][0]["levels"][1]["recomputed_root"] == root


def test_check_proof_failures(bundle_file: Path, tmp_path: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
    proof = tmp_path / "p.cbor"
    assert run(["challenge", str(bundle_file), "--prompt-spec", "-o", str(proof)]) == 0
    capsys.readouterr()
    assert run(["check-proof", "--por-root", "00" * 32, str(proof)]) == 1
    assert capsys.readouterr().out.startswith(f"LOST {proof}: proof invalid: proof.por_root: ")
    assert run(["check-proof", "--json", "--por-root", "00" * 32, str(proof)]) == 1
    assert json.loads(capsys.readouterr().out)["check_id"] == "proof.por_root"
    broken = tmp_path / "broken.cbor"
    broken.write_bytes(proof.read_bytes()[:-3])
    assert run(["check-proof", "-q", str(broken)]) == 1
    assert capsys.readouterr().out == ""
    assert run(["check-proof", str(tmp_path / "missing.cbor")]) == 2
    assert "io.unreadable" in capsys.readouterr().err
    assert run(["check-proof", "--por-root", "xyz", str(proof)]) == 2
    assert run(["check-proof", "--por-root", "zz" * 32, str(proof)]) == 2


def test_challenge_usage_errors(bundle_file: Path, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["challenge", str(bundle_file), "--evidence", "nope", "-o",
                str(tmp_path / "x")]) == 2
    assert "proof.no_such_leaf" in capsys.readouterr().err
    assert run(["challenge", str(bundle_file), "--verdict", "--inclusion"]) == 2
    assert run(["challenge", str(bundle_file)]) == 2  # one target is required
    assert run(["challenge", str(bundle_file), "--verdict", "--prompt-spec"]) == 2
    not_bundle = tmp_path / "junk.cbor"
    not_bundle.write_bytes(b"\xa0")
    assert run(["challenge", str(not_bundle), "--verdict"]) == 1
    assert not (tmp_path / "x").exists()


def test_default_output_name_and_stdout(bundle_file: Path, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch,
                                        capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(["challenge", str(bundle_file), "--bundle"]) == 0
    written = sorted(tmp_path.glob("por_bundle-*.cbor"))
    assert len(written) == 1 and len(written[0].stem) == len("por_bundle-") + 16
    capsysbinary.readouterr()
    assert run(["challenge", str(bundle_file), "--bundle", "-o", "-"]) == 0
    assert capsysbinary.readouterr().out == written[0].read_bytes()


def test_one_step_outcomes_exit_won_or_lost(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    bundle, data = forged_bundle()
    path = tmp_path / "forged.cbor"
    path.write_bytes(data)
    proof = tmp_path / "step.cbor"
    assert run(["challenge", str(path), "--step", "step_0007", "-o", str(proof)]) == 0
    capsys.readouterr()
    assert run(["check-proof", str(proof)]) == 0
    line = capsys.readouterr().out
    assert line.startswith(f"WON {proof}: proof valid: ")
    assert "; challenge won (one_step.mismatch): " in line
    assert 'output.event_observed: committed false, recomputed true' in line
    assert run(["check-proof", "-v", str(proof)]) == 0
    verbose = capsys.readouterr().out
    assert "  diff output.event_observed: committed false, recomputed true\n" in verbose
    assert run(["challenge", str(path), "--step", "step_0008", "-o", str(proof),
                "--force"]) == 0
    assert run(["check-proof", "-v", str(proof)]) == 1
    assert "; challenge lost (one_step.match): " in capsys.readouterr().out
    assert run(["challenge", str(path), "--step", "step_0008", "--inclusion", "-o",
                str(proof), "--force"]) == 0
    assert run(["check-proof", "--json", str(proof)]) == 1
    assert json.loads(capsys.readouterr().out.split("\n", 1)[1])["proof_schema"] \
        == "por.InclusionProof/1"
    assert bundle.steps[7] == json_leaf(proof)


def json_leaf(proof: Path) -> bytes:
    from por.challenge import InclusionProof, proof_from_cbor

    record = proof_from_cbor(proof.read_bytes())
    assert isinstance(record, InclusionProof)
    return record.leaf


def test_write_challenges_for_report(tmp_path: Path) -> None:
    bundle, data = forged_bundle()
    report = check_bundle(data)
    files = write_challenges_for_report(report, data, tmp_path / "challenges")
    paths = [f.path for f in files if f.path is not None]
    # the forged deduce step: its FormStepProof is the first candidate (SPEC §10.1)
    assert len(paths) == 1 and paths[0].name.startswith("deduce-")
    assert "(challenge won: one_step.mismatch)" in files[0].line
    assert run(["check-proof", "-q", str(paths[0])]) == 0
    # Every ref kind, including one without a leaf and a duplicate, and a passing check:
    # the forged bundle's top level is consistent and its records are valid, so only
    # the forged step's FormStepProof is won; every other ref gets no file.
    refs = [ChallengeRef(kind="por_bundle"), ChallengeRef(kind="evidence_leaf"),
            ChallengeRef(kind="evidence_leaf", evidence_id=_first_evidence_id(bundle)),
            ChallengeRef(kind="prompt_spec"), ChallengeRef(kind="verdict"),
            ChallengeRef(kind="reasoning_leaf", step_id="step_0007"),
            ChallengeRef(kind="reasoning_leaf", leaf_index=99)]
    checks = [CheckResult(check_id="x", ok=False, severity="error", message="m", challenge=r)
              for r in refs]
    checks.append(CheckResult(check_id="y", ok=True, severity="info", message="m",
                              challenge=ChallengeRef(kind="verdict", reason="unused")))
    handmade = VerificationReport(status="rejected", checks=checks)
    files = write_challenges_for_report(handmade, data, tmp_path / "all")
    written = [f.path for f in files if f.path is not None]
    assert [p.name.split("-")[0] for p in written] == ["deduce"]
    assert all(f.line.startswith("no proof: every proof this bundle supports for ")
               for f in files if f.path is None)
    for path in written:
        assert run(["check-proof", "-q", str(path)]) == 0
    none = write_challenges_for_report(handmade, b"\xa0", tmp_path / "none")
    assert [f.path for f in none] == [None] and none[0].line.startswith("no proof: ")
    assert not (tmp_path / "none").exists()
    assert write_challenges_for_report(VerificationReport(status="verified", checks=[]),
                                       data, tmp_path / "ok") == []


def _first_evidence_id(bundle: object) -> str:
    from por.schemas import EvidenceItem

    return EvidenceItem.from_cbor(bundle.evidence[0]).evidence_id  # type: ignore[attr-defined]


def test_help_stays_light() -> None:
    code = (
        "import argparse, sys\n"
        "from por.cli.challenge_cmd import add_challenge_parser, add_check_proof_parser\n"
        "p = argparse.ArgumentParser(prog='por'); c = p.add_subparsers()\n"
        "add_challenge_parser(c); add_check_proof_parser(c)\n"
        "for argv in (['challenge', '--help'], ['check-proof', '--help']):\n"
        "    try:\n"
        "        p.parse_args(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = [m for m in ('pydantic', 'cbor2', 'cryptography') if m in sys.modules]\n"
        "print('HEAVY', heavy)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    assert "exit codes:" in result.stdout
    assert result.stdout.strip().endswith("HEAVY []")
