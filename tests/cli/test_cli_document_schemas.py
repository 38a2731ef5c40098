"""Every input form and every command's ``--json`` document validates against the
schema ``por schema`` ships for it (issue 12 §4), with a real validator
(``jsonschema``, draft 2020-12).  A schema that admits everything would pass too,
so canaries check that each schema rejects a document one field off.
"""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from setup_gate import needs

from por.cli import main
from por.cli.schema import NAMES, schema_for

ROOT = Path(__file__).resolve().parents[2]
MARKETS = sorted(p for p in (ROOT / "fixtures" / "markets").iterdir() if p.is_dir())
VALID = ROOT / "fixtures" / "bundles" / "valid"
SIGNED = VALID / "01-boolean-observed.signed-secp256k1.cbor"
NOW = "1767225601"


def _validator(name: str) -> Draft202012Validator:
    schema = schema_for(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _errors(name: str, document: Any) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message[:200]}"
            for e in _validator(name).iter_errors(document)]


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, Any]:
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name", NAMES)
def test_every_schema_is_a_valid_draft_2020_12_schema(name: str) -> None:
    Draft202012Validator.check_schema(schema_for(name))


@pytest.mark.parametrize("market", MARKETS, ids=lambda p: p.name)
def test_fixture_inputs_validate(market: Path) -> None:
    prompt = json.loads((market / "prompt_spec.json").read_text(encoding="utf-8"))
    evidence = json.loads((market / "evidence.json").read_text(encoding="utf-8"))
    assert _errors("PromptSpec", prompt) == []
    assert _errors("EvidenceBundle", evidence) == []
    for item in evidence["items"]:
        assert _errors("EvidenceItem", item) == []


def test_evidence_item_needs_exactly_one_body() -> None:
    item = json.loads((MARKETS[0] / "evidence.json").read_text(encoding="utf-8"))["items"][0]
    assert "content_text" in item
    both = {**item, "content": "AA=="}
    neither = {k: v for k, v in item.items() if k != "content_text"}
    assert _errors("EvidenceItem", both) and _errors("EvidenceItem", neither)
    assert _errors("EvidenceItem", {**neither, "content": "AA=="}) == []


def test_verify_reports_and_their_checks(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    inputs = [str(p) for p in sorted(VALID.glob("*.cbor"))]
    inputs += [str(p) for p in sorted((ROOT / "fixtures" / "bundles" / "invalid").rglob("*.cbor"))]
    inputs.append(str(tmp_path / "missing.cbor"))
    _code, report = _run(capsys, ["verify", "--json", "--now", NOW, *inputs])
    assert _errors("verify-report", report) == []
    checks = [check for result in report["results"] for check in result["checks"]]
    assert len(checks) > len(inputs)
    for check in checks:
        assert _errors("report-check", check) == []
    assert _errors("report-check", {**checks[0], "ok": True})


def test_library_check_results_validate() -> None:
    from verifier import check_bundle

    report = check_bundle(SIGNED.read_bytes(), now=int(NOW))
    for check in report.checks:
        assert _errors("CheckResult", check.model_dump(mode="json", exclude_none=True)) == []


def test_attestation_and_calldata(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, document = _run(capsys, ["attestation", "--json", "--now", NOW, str(SIGNED)])
    assert code == 0 and _errors("attestation", document) == []
    for member in ("nonce", "issuedAt", "evidenceCount"):
        bad = copy.deepcopy(document)
        bad["attestation"]["typed_data"]["message"][member] = int(
            bad["attestation"]["typed_data"]["message"][member])
        assert _errors("attestation", bad), member  # numbers are refused: strings only
    proof = tmp_path / "p.cbor"
    code, challenge = _run(capsys, ["challenge", str(VALID / "01-boolean-observed.cbor"),
                                    "--evidence", "ev-acme-newsroom", "-o", str(proof),
                                    "--json"])
    assert code == 0 and _errors("challenge", challenge) == []
    code, checked = _run(capsys, ["check-proof", str(proof), "--json"])
    assert code == 1 and _errors("proof-check", checked) == []
    # Issue 26: named values, levels with committed/recomputed roots; the old keys fail.
    assert _errors("proof-check", {**checked, "expected": None})
    level = checked["inclusions"][0]["levels"][0]
    old = {**{k: v for k, v in level.items() if k != "recomputed_root"},
           "calculated_root": level["recomputed_root"]}
    assert _errors("proof-check", {**checked, "inclusions": [
        {**checked["inclusions"][0], "levels": [old]}]})
    pytest.importorskip("eth_abi")
    code, call = _run(capsys, ["attestation", "--calldata", "--json", "--market", "m",
                               "--prompt-spec-hash", "cd" * 32, "--case-hash", "ab" * 32,
                               str(proof)])
    assert code == 0 and _errors("calldata", call) == []
    assert _errors("calldata", {**call, "calldata": {**call["calldata"], "tree_size": 1}})


def test_build_inspect_keygen_sign(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    market = MARKETS[0]
    bundle = tmp_path / "b.cbor"
    code, built = _run(capsys, ["build", "--prompt-spec", str(market / "prompt_spec.json"),
                                "--evidence", str(market / "evidence.json"),
                                "-o", str(bundle), "--json"])
    assert code == 0 and _errors("build-report", built) == []
    code, inspected = _run(capsys, ["inspect", "--json", str(bundle)])
    assert code == 0 and _errors("inspect", inspected) == []
    key = tmp_path / "k"
    code, keys = _run(capsys, ["keygen", "-o", str(key), "--json"])
    assert code == 0 and _errors("keygen", keys) == []
    code, signed = _run(capsys, ["sign", str(bundle), "--key", str(key), "--now", NOW,
                                 "-o", str(tmp_path / "s.cbor"), "--json"])
    assert code == 0 and _errors("sign-report", signed) == []
    code, failed = _run(capsys, ["build", "--prompt-spec", str(tmp_path / "none.json"),
                                 "--evidence", str(market / "evidence.json"),
                                 "-o", str(tmp_path / "x.cbor"), "--json"])
    assert code == 2 and _errors("error", failed) == []
    assert _errors("error", {**failed, "exit_code": 0})


def test_demo(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, demo = _run(capsys, ["demo", "--json", "--out", str(tmp_path / "demo")])
    assert code == 0 and _errors("demo-report", demo) == []


def test_explain(capsys: pytest.CaptureFixture[str]) -> None:
    code, explained = _run(capsys, ["explain", "--json", str(VALID / "01-boolean-observed.cbor")])
    assert code == 0 and _errors("explain", explained) == []
    code, tree = _run(capsys, ["explain", "--tree", "--json",
                               str(VALID / "01-boolean-observed.cbor")])
    assert code == 0 and _errors("tree", tree) == []
    assert _errors("tree", {**tree, "schema": "por/explain/1"})


def test_judge_documents(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    config = str(ROOT / "fixtures" / "judges" / "por-judge-1.yaml")
    code, lock = _run(capsys, ["judge", "lock", config, "--json"])
    assert code == 0 and _errors("judge-lock", lock) == []
    code, prereg = _run(capsys, ["judge", "preregister", str(VALID / "01-boolean-observed.cbor"),
                                 "--judge-config", config, "--run", "2", "-o",
                                 str(tmp_path / "run2.prereg.cbor"), "--json"])
    assert code == 0 and _errors("judge-preregistration", prereg) == []
    assert _errors("judge-preregistration", {**prereg, "run": 0})
    out = tmp_path / "judged"
    code, batch = _run(capsys, ["judge", "batch", str(VALID / "01-boolean-observed.cbor"),
                                "--judge-config", config, "-o", str(out), "--json"])
    assert code == 0 and _errors("judgement", batch) == []
    scores = json.loads((out / "scores.json").read_text(encoding="utf-8"))
    assert _errors("judge-scores", scores) == []
    code, verified = _run(capsys, ["judge", "verify", str(out / "judgement.cbor"), "--json"])
    assert code == 0 and _errors("judgement", verified) == []
    assert _errors("judgement", {**verified, "judgement_id": "x"})
    code, compared = _run(capsys, ["judge", "replay", str(out / "judgement.cbor"),
                                   "--judge-config", config, "-o", str(tmp_path / "replayed"),
                                   "--json"])
    assert code == 0 and _errors("judge-comparison", compared) == []
    on_disk = json.loads((tmp_path / "replayed" / "comparison.json").read_text("utf-8"))
    assert on_disk == compared
    assert _errors("judge-comparison", {**compared, "summary": {
        **compared["summary"], "rating_change_rate_bps": 0.5}})


def test_judgement_signature_documents(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    judgement = str(ROOT / "fixtures" / "judges" / "valid" / "por-judge-1.cbor")
    key = str(tmp_path / "test-only-judge.key")
    assert main(["keygen", "-o", key]) == 0
    capsys.readouterr()
    sig = str(tmp_path / "judgement.sig.cbor")
    code, signed = _run(capsys, ["judge", "sign", judgement, "--key", key, "--at", NOW,
                                 "-o", sig, "--json"])
    assert code == 0 and _errors("judgement-signature", signed) == []
    assert _errors("judgement-signature", {**signed, "signer": "0x" + signed["signer"]})
    code, verified = _run(capsys, ["judge", "verify", judgement, "--signature", sig,
                                   "--key", key + ".pub", "--now", NOW, "--json"])
    assert code == 0 and _errors("judgement", verified) == []
    assert verified["signature"]["signer"] == signed["signer"]
    assert verified["signature"]["trusted"] is True
    assert _errors("judgement", {**verified, "signature": {**verified["signature"],
                                                           "trusted": "yes"}})


def test_dispute_and_court_documents(capsys: pytest.CaptureFixture[str],
                                     tmp_path: Path) -> None:
    """Issue 26 item 6: ``por schema`` had no DisputeCase or court-ruling schema."""
    from por.court.case import DisputeCase

    case_file = str(tmp_path / "case.cbor")
    code, opened = _run(capsys, ["dispute", "open", str(VALID / "01-boolean-observed.cbor"),
                                 "--leaf", "evidence_leaf:0", "--claim", "wrong", "-o",
                                 case_file, "--json"])
    assert code == 0 and _errors("dispute-case", opened) == []
    assert _errors("dispute-case", {**opened, "leaf": {**opened["leaf"], "index": -1}})
    record = DisputeCase.from_cbor(Path(case_file).read_bytes()).to_json_obj()
    assert _errors("DisputeCase", record) == []
    assert _errors("DisputeCase", {k: v for k, v in record.items() if k != "schema"})


@needs("llm", "litellm is not installed" if importlib.util.find_spec("litellm") is None
       else None)
def test_court_ruling_documents(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 26 item 6: the court-ruling schema holds `court rule` (replayed from the
    committed transcripts: `court rule` needs the llm extra) and `court verify`."""
    court = ROOT / "fixtures" / "court"
    key = str(tmp_path / "resolver.key")
    assert main(["keygen", "-o", key]) == 0
    capsys.readouterr()
    out = tmp_path / "ruled"
    code, ruled = _run(capsys, [
        "court", "rule", str(court / "valid" / "case.cbor"), "--court",
        str(court / "court.yaml"), "--at", "1767225600", "--replay-from",
        str(court / "valid" / "ruling.cbor"), "--key", key, "--chain-id", "1", "--contract",
        "0x" + "11" * 20, "-o", str(out), "--json", "-q"])
    assert code == 0 and _errors("court-ruling", ruled) == []
    on_disk = json.loads((out / "ruling.json").read_text(encoding="utf-8"))
    assert _errors("court-ruling", on_disk) == []
    assert _errors("court-ruling", {**ruled, "status": "maybe"})
    code, verified = _run(capsys, ["court", "verify", str(out / "ruling.cbor"), "--signature",
                                   str(out / "ruling.sig.cbor"), "--now", "1767225601",
                                   "--json"])
    assert code == 0 and _errors("court-ruling", verified) == []
    assert len(verified["signatures"]) == 1 and verified["signature_verified"] is True
    assert verified["signer_hex"] == ruled["signature"]["signer_hex"]
    assert _errors("court-ruling", {**verified, "signatures": [{"status": "good"}]})


def test_commit_first_court_ruling_document(capsys: pytest.CaptureFixture[str]) -> None:
    """SPEC §16.9, §16.10: first answers and canaries are in the court-ruling schema."""
    ruling = ROOT / "fixtures" / "court" / "valid" / "ruling-commit-first.cbor"
    code, verified = _run(capsys, ["court", "verify", str(ruling), "--json"])
    assert code == 0 and _errors("court-ruling", verified) == []
    assert verified["canaries"]["flip_rate"] == "3/9"
    assert _errors("court-ruling", {**verified, "canaries": {"flips": 1}})
