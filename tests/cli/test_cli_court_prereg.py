"""``por court preregister``, ``court rule --preregistration`` and ``court verify
--preregistration`` (SPEC §16.11, issue 25 item 1).

The committed ruling (``fixtures/court/valid/ruling.cbor``, court file
``fixtures/court/court.yaml``, run 1) is the run a published pre-registration is
checked against: no model, no network.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from por.cli.app import main
from por.cli.schema import schema_for
from por.court.chain import court_digest
from por.court.records import CourtBundle
from por.court.verify import decode_court
from por.locked_judges.records import JudgePreregistration

ROOT = Path(__file__).resolve().parents[2]
COURT = ROOT / "fixtures" / "court"
RULING = COURT / "valid" / "ruling.cbor"
COURT_FILE = str(COURT / "court.yaml")


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, Any]:
    code = main(argv)
    text = capsys.readouterr().out
    return code, json.loads(text) if text.strip() else {}


@pytest.fixture
def case_file(tmp_path: Path) -> str:
    path = tmp_path / "case.cbor"
    path.write_bytes(CourtBundle.from_cbor(RULING.read_bytes()).case)
    return str(path)


@pytest.fixture
def key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "operator.key"
    assert main(["keygen", "-o", str(path)]) == 0
    capsys.readouterr()
    return path


def _preregister(capsys: pytest.CaptureFixture[str], case_file: str, out: Path,
                 *extra: str, court: str = COURT_FILE) -> tuple[int, Any]:
    return _run(capsys, ["court", "preregister", case_file, "--court", court, "-o", str(out),
                         *extra, "--json"])


def test_the_preregistration_is_the_one_the_ruling_names(
        case_file: str, key: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prereg, sig = tmp_path / "court.prereg.cbor", tmp_path / "court.prereg.sig.cbor"
    code, doc = _preregister(capsys, case_file, prereg, "--key", str(key),
                             "--signature-output", str(sig), "--at", "1767225600")
    assert code == 0, doc
    assert not list(Draft202012Validator(schema_for("court-preregistration")).iter_errors(doc))
    summary = decode_court(RULING.read_bytes())
    digest = court_digest(summary.rule, summary.panel, summary.case_hash)
    assert digest is not None and doc["digest"] == digest.hex()
    record = JudgePreregistration.from_cbor(prereg.read_bytes())
    assert (record.run, record.subjects_count, doc["seats"]) == (1, 1, 7)  # appeal seats too
    # verify: the ruling is this pre-registration's run, signed by the operator's key.
    pub = str(key) + ".pub"
    code, verified = _run(capsys, ["court", "verify", str(RULING), "--preregistration",
                                   str(prereg), "--preregistration-signature", str(sig),
                                   "--preregistration-key", pub, "--json"])
    assert code == 0, verified
    given = verified["published_preregistration"]
    assert (given["digest"], given["run"]) == (doc["digest"], 1)
    assert (given["signature"]["status"], given["signature"]["trust"]) == ("good", "trusted")
    assert given["signature"]["signer"].lower() == "0x" + doc["signer"]
    assert not list(Draft202012Validator(schema_for("court-ruling")).iter_errors(verified))
    assert main(["court", "verify", str(RULING), "--preregistration", str(prereg),
                 "--preregistration-signature", str(sig)]) == 0
    text = capsys.readouterr().out
    assert f"pre-registration {doc['digest'][:16]} run 1: this ruling's" in text
    assert "signature 0: good by 0x" in text and "not certified" in text


def test_another_run_or_panel_is_refused_by_verify_and_by_rule_before_any_call(
        case_file: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    court = tmp_path / "court"
    (court / "prompts").mkdir(parents=True)
    for path in [*COURT.glob("*.yaml"), *COURT.glob("prompts/*.md")]:
        (court / path.relative_to(COURT)).write_bytes(path.read_bytes())
    run2 = court / "court.yaml"
    run2.write_text(run2.read_text() + "run: 2\n")
    prereg = tmp_path / "run2.prereg.cbor"
    assert _preregister(capsys, case_file, prereg, court=str(run2))[0] == 0
    code, failed = _run(capsys, ["court", "verify", str(RULING), "--preregistration",
                                 str(prereg), "--json"])
    assert (code, failed["error"]["id"]) == (1, "court.preregistration")
    assert (failed["error"]["required"], failed["error"]["found"]) == ("1", "2")
    # rule: refused before any judge is asked (the route is a closed port, never dialled).
    out = tmp_path / "ruling"
    code, failed = _run(capsys, ["court", "rule", case_file, "--court", COURT_FILE,
                                 "--at", "1767225600", "--api-base", "http://127.0.0.1:9",
                                 "--preregistration", str(prereg), "-o", str(out), "--json"])
    assert (code, failed["error"]["id"]) == (1, "court.preregistration")
    assert not out.exists() or not any(out.iterdir())
    # A panel of other locks (one seat's lock changed) is named as such.
    (court / "judge-0.yaml").write_text((court / "judge-0.yaml").read_text()
                                        .replace("court-judge-0", "court-judge-x"))
    other = tmp_path / "other.prereg.cbor"
    assert _preregister(capsys, case_file, other, court=str(court / "court.yaml"))[0] == 0
    code, failed = _run(capsys, ["court", "verify", str(RULING), "--preregistration",
                                 str(other), "--json"])
    assert (code, failed["error"]["id"]) == (1, "court.preregistration")
    assert "another panel" in failed["error"]["message"]


def test_a_signature_of_another_preregistration_or_key_fails(
        case_file: str, key: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prereg, sig = tmp_path / "p.cbor", tmp_path / "p.sig.cbor"
    assert _preregister(capsys, case_file, prereg, "--key", str(key), "--signature-output",
                        str(sig), "--at", "1767225600")[0] == 0
    other_key = tmp_path / "other.key"
    assert main(["keygen", "-o", str(other_key)]) == 0
    capsys.readouterr()
    code, failed = _run(capsys, ["court", "verify", str(RULING), "--preregistration",
                                 str(prereg), "--preregistration-signature", str(sig),
                                 "--preregistration-key", str(other_key) + ".pub", "--json"])
    assert (code, failed["error"]["id"]) == (1, "signature.untrusted_key")
    code, failed = _run(capsys, ["court", "verify", str(RULING),
                                 "--preregistration-signature", str(sig), "--json"])
    assert (code, failed["error"]["id"]) == (2, "usage.options")


def test_preregister_never_overwrites_and_signing_options_go_together(
        case_file: str, key: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prereg = tmp_path / "p.cbor"
    assert _preregister(capsys, case_file, prereg)[0] == 0
    code, failed = _preregister(capsys, case_file, prereg)
    assert code != 0 and failed["schema"] == "por/error/1"
    assert _preregister(capsys, case_file, prereg, "--force")[0] == 0
    code, failed = _preregister(capsys, case_file, tmp_path / "q.cbor", "--key", str(key),
                                "--force")
    assert (code, failed["error"]["id"]) == (2, "usage.options")
