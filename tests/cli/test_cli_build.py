"""``por build``: JSON in, bundle.cbor out (atomically), one-line summary, exit codes."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from cli_support import SCENARIO, built_bytes

from por.cli import main

MARKETS = Path(__file__).resolve().parents[2] / "fixtures" / "markets"
SPEC = str(MARKETS / SCENARIO / "prompt_spec.json")
EVIDENCE = str(MARKETS / SCENARIO / "evidence.json")


def test_builds_the_same_bytes_as_the_library(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bundle.cbor"
    assert main(["build", "--prompt-spec", SPEC, "--evidence", EVIDENCE, "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data == built_bytes()
    from por.bundle import Bundle

    root = Bundle.from_cbor(data).commitments.por_root.hex()
    assert capsys.readouterr().out == (
        f"built {out}: YES 70.00% R_BINARY_DECISION por_root {root}\n")
    assert [p.name for p in tmp_path.iterdir()] == ["bundle.cbor"]  # no temp file left
    assert main(["verify", str(out)]) == 0


def test_overwrites_atomically(tmp_path: Path) -> None:
    out = tmp_path / "bundle.cbor"
    out.write_bytes(b"old")
    assert main(["build", "--prompt-spec", SPEC, "--evidence", EVIDENCE, "-o", str(out),
                 "--force"]) == 0
    assert out.read_bytes() == built_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bundle.cbor"]


def test_json_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.cbor"
    assert main(["build", "--json", "--prompt-spec", SPEC, "--evidence", EVIDENCE,
                 "-o", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "por/build-report/1"
    assert (doc["outcome"], doc["confidence_bps"], doc["resolution_rule_id"]) == (
        "YES", 7000, "R_BINARY_DECISION")
    assert doc["size"] == len(built_bytes())
    assert len(doc["por_root"]) == 64


def test_stdout_output(capsys: pytest.CaptureFixture[str],
                       monkeypatch: pytest.MonkeyPatch) -> None:
    sink = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(sink))
    assert main(["build", "--prompt-spec", SPEC, "--evidence", EVIDENCE, "-o", "-"]) == 0
    sys.stdout.flush()
    assert sink.getvalue() == built_bytes()
    assert capsys.readouterr().err.startswith("built -: YES 70.00% ")


def test_invalid_json_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "spec.json"
    bad.write_text("{not json")
    assert main(["build", "--prompt-spec", str(bad), "--evidence", EVIDENCE,
                 "-o", str(tmp_path / "o.cbor")]) == 1
    assert capsys.readouterr().err.startswith(f"por: schema.json: {bad}: not valid JSON")
    assert not (tmp_path / "o.cbor").exists()


@pytest.mark.parametrize("value", ["1e400", "NaN", "Infinity"])
def test_no_float_ever(tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str) -> None:
    spec = json.loads(Path(SPEC).read_text())
    text = json.dumps(spec).replace('"timestamp_slack_seconds": 0',
                                    f'"timestamp_slack_seconds": {value}')
    path = tmp_path / "spec.json"
    path.write_text(text if text != json.dumps(spec) else text[:-1] + f', "x": {value}}}')
    assert main(["build", "--prompt-spec", str(path), "--evidence", EVIDENCE,
                 "-o", str(tmp_path / "o.cbor")]) == 1
    assert capsys.readouterr().err.startswith("por: schema.")


def test_schema_error_names_the_file(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "spec.json"
    bad.write_text(json.dumps({"schema": "por.EvidenceBundle/1"}))
    assert main(["build", "--prompt-spec", str(bad), "--evidence", EVIDENCE,
                 "-o", str(tmp_path / "o.cbor")]) == 1
    assert capsys.readouterr().err.startswith(
        f"por: schema.unknown_schema: {bad}: expected schema por.PromptSpec/1")


def test_evidence_for_another_market_exit_1(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    other = MARKETS / "03-threshold-gt-boundary" / "evidence.json"
    assert main(["build", "--prompt-spec", SPEC, "--evidence", str(other),
                 "-o", str(tmp_path / "o.cbor")]) == 1
    assert capsys.readouterr().err.startswith("por: bundle.market_id: ")


def test_missing_input_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.json"
    assert main(["build", "--prompt-spec", str(missing), "--evidence", EVIDENCE,
                 "-o", str(tmp_path / "o.cbor")]) == 2
    assert capsys.readouterr().err == f"por: io.unreadable: {missing}: no such file\n"


def test_unwritable_output_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "no" / "such" / "dir" / "b.cbor"
    assert main(["build", "--prompt-spec", SPEC, "--evidence", EVIDENCE, "-o", str(out)]) == 2
    assert capsys.readouterr().err == f"por: io.write_failed: {out}: no such file\n"


def test_stdin_for_both_inputs_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--prompt-spec", "-", "--evidence", "-", "-o", "x.cbor"]) == 2
    assert capsys.readouterr().err.startswith("por: usage.stdin_twice: ")


def test_missing_options_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--prompt-spec", SPEC]) == 2
    assert "required" in capsys.readouterr().err


def test_same_bytes_under_different_hash_seeds(tmp_path: Path) -> None:
    import subprocess

    from run_support import por_env

    outputs = []
    for seed in ("0", "1", "4242"):
        out = tmp_path / f"b{seed}.cbor"
        env = por_env(PYTHONHASHSEED=seed)
        proc = subprocess.run([sys.executable, "-m", "por", "build", "--prompt-spec", SPEC,
                               "--evidence", EVIDENCE, "-o", str(out)], env=env,
                              capture_output=True, text=True, check=False)
        assert proc.returncode == 0, proc.stderr
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2] == built_bytes()
