"""``por judge preregister`` and ``batch --preregistration`` / ``--run`` (SPEC §15.11)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from por.cli.app import main
from por.cli.schema import schema_for
from por.locked_judges import verify_judgement
from por.locked_judges.chain import preregistration_digest
from por.signing.keyfiles import write_key_files
from por.signing.keys import PrivateKey

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


def _keys(tmp_path: Path) -> tuple[Path, Path]:
    secret = hashlib.sha256(b"por test-only secp256k1 key: pre-registration").digest()
    write_key_files(tmp_path / "op.key", PrivateKey("secp256k1", secret))
    return tmp_path / "op.key", tmp_path / "op.key.pub"


def test_a_signed_preregistration_checks_against_the_judgement_run_under_it(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    key, pub = _keys(tmp_path)
    prereg, sig = tmp_path / "p.cbor", tmp_path / "p.sig.cbor"
    code, doc = _run(capsys, ["judge", "preregister", ONE, "--judge-config", CONFIG, "-o",
                              str(prereg), "--key", str(key), "--at", "1767225600",
                              "--signature-output", str(sig), "--json"])
    assert code == 0 and doc["signer"] and sig.exists()
    assert not list(Draft202012Validator(schema_for("judge-preregistration")).iter_errors(doc))
    out = tmp_path / "judged"
    assert main(["judge", "batch", ONE, "--judge-config", CONFIG, "--preregistration",
                 str(prereg), "-o", str(out), "-q"]) == 0
    capsys.readouterr()
    judgement = str(out / "judgement.cbor")
    code, checked = _run(capsys, ["judge", "check-preregistration", judgement, "--signature",
                                  str(sig), "--key", str(pub), "--now", "1767225601", "--json"])
    assert code == 0 and checked["digest"] == doc["digest"] and checked["trusted"]
    validator = Draft202012Validator(schema_for("judge-preregistration-check"))
    assert not list(validator.iter_errors(checked))
    # A judgement of another run (run 2) is not what was signed.
    other = tmp_path / "run2"
    assert main(["judge", "batch", ONE, "--judge-config", CONFIG, "--run", "2", "-o",
                 str(other), "-q"]) == 0
    capsys.readouterr()
    code, failed = _run(capsys, ["judge", "check-preregistration", str(other / "judgement.cbor"),
                                 "--signature", str(sig), "--json"])
    assert code == 1 and failed["error"]["id"] == "judgement.preregistration_signature"
    # Past its period: signature.expired.
    code, failed = _run(capsys, ["judge", "check-preregistration", judgement, "--signature",
                                 str(sig), "--now", str(1767225600 + 8 * 24 * 3600), "--json"])
    assert code == 1 and failed["error"]["id"] == "signature.expired"


def test_key_without_signature_output_is_a_usage_error(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    key, _ = _keys(tmp_path)
    code, failed = _run(capsys, ["judge", "preregister", ONE, "--judge-config", CONFIG, "-o",
                                 str(tmp_path / "p.cbor"), "--key", str(key), "--at", "1",
                                 "--json"])
    assert code == 2 and failed["error"]["id"] == "usage.options"


def test_replay_keeps_the_original_run_number(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    original = tmp_path / "run5"
    assert main(["judge", "batch", ONE, "--judge-config", CONFIG, "--run", "5", "-o",
                 str(original), "-q"]) == 0
    capsys.readouterr()
    assert main(["judge", "replay", str(original / "judgement.cbor"), "--judge-config", CONFIG,
                 "-o", str(tmp_path / "again"), "-q"]) == 0
    again = (tmp_path / "again" / "judgement.cbor").read_bytes()
    assert again == (original / "judgement.cbor").read_bytes()  # a reexecution, byte for byte
