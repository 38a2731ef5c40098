"""Issue 10 findings 3, 4 and 7, issue 11 item 7: the dispute path from the command line.

* one vocabulary: ``WON``/``LOST`` first words, exit 0 won / 1 lost / 2 no verdict,
  ``status`` valid|invalid and ``challenge`` won|lost in the JSON (schema-checked);
* ``verify --challenges`` writes only proofs ``check-proof`` says are won; a
  corrupted copy gets ``no proof: ...`` and no file; names never collide;
* ``--por-root`` takes the ``0x`` form ``attestation`` prints and surrounding
  spaces, and a short root is a usage error, never an internal error;
* ``check-proof -v`` escapes control characters: a proof cannot forge a line;
* ``challenge --evidence nope`` lists the valid ids.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from challenge_support import make_bundle
from test_challenge_scenarios import forged_bundle

from por.challenge import (
    InclusionProof,
    build_inclusion_proof,
    build_one_step_proof,
    check_proof,
    proof_from_cbor,
)
from por.challenge.records import body_of, seal
from por.cli import main
from por.cli.schema import schema_for
from por.schemas import ReasoningStep

ROOT = Path(__file__).resolve().parents[3]


def _schema_errors(document: Any, name: str) -> list[str]:
    spec = importlib.util.spec_from_file_location(
        "mini_jsonschema", ROOT / "tests" / "cli" / "mini_jsonschema.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found: list[str] = module.errors(document, schema_for(name))
    return found


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def forged(tmp_path: Path) -> Path:
    path = tmp_path / "forged.cbor"
    path.write_bytes(forged_bundle()[1])
    return path


def test_verify_challenges_writes_only_won_proofs(capsys: pytest.CaptureFixture[str],
                                                  forged: Path, tmp_path: Path) -> None:
    out_dir = tmp_path / "proofs"
    code, _, err = run(capsys, "verify", "--challenges", str(out_dir), str(forged))
    assert code == 1
    written = sorted(out_dir.iterdir())
    assert len(written) == 1 and "(challenge won: one_step.mismatch)" in err
    code, out, _ = run(capsys, "check-proof", "--json", str(written[0]))
    document = json.loads(out)
    assert (code, document["status"], document["challenge"]) == (0, "valid", "won")
    assert _schema_errors(document, "proof-check") == []
    # Since s40 the deduce step's FormStepProof is written (SPEC §10.1): the executor's
    # id, one inclusion entry per carried form; the field diffs are the OneStepProof's.
    assert (document["proof_schema"], document["kind"]) == ("por.FormStepProof/1", "deduce")
    assert document["outcome"]["reason"] == "one_step.mismatch"
    assert [i["kind"] for i in document["inclusions"]] == ["form"] * len(
        document["inclusions"])
    bundle = forged_bundle()[0]
    step = next(i for i, s in enumerate(bundle.steps)
                if ReasoningStep.from_cbor(s).step_type == "deduce")
    report = check_proof(build_one_step_proof(bundle, step).to_cbor())
    diffs = report.to_json_obj()["outcome"]["differences"]
    assert diffs and diffs[0]["field"] == "output.event_observed"
    # The same input again, and a second input with the same proof: one file.
    code, _, err = run(capsys, "verify", "--challenges", str(out_dir), str(forged),
                       str(forged))
    assert sorted(out_dir.iterdir()) == written and "same challenge proof" in err


def test_corrupted_copy_gets_no_proof(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    data = bytearray(make_bundle(3).to_cbor())
    at = data.find(b"ev_0001")
    data[at + 6] ^= 0x01  # a record byte changes; the commitments do not
    copies = []
    for n, flip in enumerate((0, 1)):
        copy = bytearray(data)
        copy[at + 5] ^= flip
        path = tmp_path / f"copy{n}.cbor"
        path.write_bytes(bytes(copy))
        copies.append(str(path))
    out_dir = tmp_path / "none"
    code, _, err = run(capsys, "verify", "--challenges", str(out_dir), *copies)
    assert code == 1
    assert err.count("no proof: this file is a corrupted copy; por_root is not disputed "
                     "by it") == 2
    assert not out_dir.exists()


def test_check_proof_words_and_exit_codes(capsys: pytest.CaptureFixture[str],
                                          forged: Path, tmp_path: Path) -> None:
    won, lost = tmp_path / "won.cbor", tmp_path / "lost.cbor"
    assert run(capsys, "challenge", str(forged), "--step", "step_0007", "-o", str(won))[0] == 0
    assert run(capsys, "challenge", str(forged), "--step", "step_0008", "-o", str(lost))[0] == 0
    code, out, _ = run(capsys, "check-proof", str(won))
    assert code == 0 and out.startswith(f"WON {won}: proof valid: ")
    code, out, _ = run(capsys, "check-proof", str(lost))
    assert code == 1 and out.startswith(f"LOST {lost}: proof valid: ")
    code, out, _ = run(capsys, "check-proof", "--json", str(lost))
    document = json.loads(out)
    assert (document["status"], document["challenge"], document["exit_code"]) == (
        "valid", "lost", 1)
    assert _schema_errors(document, "proof-check") == []
    broken = tmp_path / "broken.cbor"
    broken.write_bytes(won.read_bytes()[:-1])
    code, out, _ = run(capsys, "check-proof", str(broken))
    assert code == 1 and out.startswith(f"LOST {broken}: proof invalid: proof.malformed: ")


def test_por_root_forms(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bundle = make_bundle(3)
    path = tmp_path / "p.cbor"
    path.write_bytes(build_inclusion_proof(bundle, "verdict").to_cbor())
    root = bundle.commitments.por_root.hex()
    for form in (root, "0x" + root, root.upper(), f"  {root}  ", f"0X{root}\t"):
        code, out, _ = run(capsys, "check-proof", "--por-root", form, str(path))
        assert code == 1 and "proof valid" in out, form  # valid inclusion: lost
    for bad in (root[:62] + "  ", root[:62], "0x" + root[:63], root + "00", "zz" * 32):
        code, out, err = run(capsys, "check-proof", "--por-root", bad, str(path))
        assert (code, out) == (2, "") and "--por-root takes 64 hex digits" in err, bad
        assert "internal" not in err


def test_verbose_output_escapes_proof_text(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    proof = build_inclusion_proof(make_bundle(3), "evidence_leaf", 1)
    body = body_of(proof)
    body["component"] = "evidence\nOK forged.cbor: proof valid\x1b[2K"
    hostile: InclusionProof = seal(InclusionProof, body)
    path = tmp_path / "hostile.cbor"
    path.write_bytes(hostile.to_cbor())
    assert proof_from_cbor(path.read_bytes()).component.startswith("evidence\n")
    code, out, _ = run(capsys, "check-proof", "-v", str(path))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"LOST {path}: proof invalid: proof.component: ")
    assert not any(line.startswith(("OK", "WON")) for line in lines)
    assert "\x1b" not in out and "evidence\\x0aOK forged.cbor" in out


def test_challenge_lists_valid_ids(capsys: pytest.CaptureFixture[str],
                                   tmp_path: Path) -> None:
    path = tmp_path / "b.cbor"
    path.write_bytes(make_bundle(3).to_cbor())
    code, _, err = run(capsys, "challenge", str(path), "--evidence", "nope")
    assert code == 2
    assert "valid ids: 'ev_0000', 'ev_0001', 'ev_0002'" in err


def test_every_cli_line_escapes_control_characters(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 11 item 7: ``out``/``err`` are the last guard, whatever a command forgot."""
    from por.cli.common import err, out

    out("FAIL x\nOK x: forged\x1b[2K")
    err("por: y\r\nOK y")
    captured = capsys.readouterr()
    assert captured.out == "FAIL x\\x0aOK x: forged\\x1b[2K\n"
    assert captured.err == "por: y\\x0d\\x0aOK y\n"
    out("plain text, any script: é 中")
    assert capsys.readouterr().out == "plain text, any script: é 中\n"
