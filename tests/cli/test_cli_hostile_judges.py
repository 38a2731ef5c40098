"""``por court rule`` and ``por judge batch`` survive any answer (issue 25 item 5).

The real path: litellm -> the transcript server -> a loopback stand-in model
that answers with a lone surrogate, over 1 MiB, bytes that are not UTF-8, or
not JSON.  Before, these crashed the command (exit 2, nothing written); now the
seat or subject fails with its own check id, the bundle is written and verifies.
Also ``judge verify --reexecute --replay-from`` (item 6): refused, with the reason.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from run_support import needs_litellm, open_case

from por.cli.app import main
from por.court.verify import verify_court
from por.locked_judges import verify_judgement

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit" / "court"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit" / "judges"))
from court_support import AT, CLAIM, COURT, bundle_bytes, completion, vote

COURT_FILE = str(COURT / "court.yaml")
BIG = 1 << 21
#: name -> (raw answer body, given the model name; the check id of the failed attempt)
ANSWERS: dict[str, tuple[Any, str]] = {
    "surrogate-reasoning": (lambda m: completion(vote(40, "\ud800"), m),
                            "judgement.response_surrogate"),
    "oversized": (lambda m: completion(vote(40, "x" * BIG), m), "judgement.response_too_large"),
    "not-utf8": (lambda m: b'{"model": "' + m.encode() + b'", "x": "\xff"}',
                 "judgement.response_utf8"),
    "not-json": (lambda m: b"<html>upstream error</html>", "judgement.response_parse"),
}


def _stand_in(hostile: str, bad_seat_model: str) -> Any:
    from por.locked_judges.transcript import TranscriptServer

    make, _ = ANSWERS[hostile]

    def respond(body: bytes) -> tuple[int, bytes]:
        model = json.loads(body)["model"]
        if model == bad_seat_model:
            return 200, make(model)
        return 200, completion(vote(70, "delivered"), model)

    return TranscriptServer(responder=respond, authenticate=False)


@pytest.fixture
def case_file(tmp_path: Path) -> str:
    return open_case(tmp_path, bundle_bytes(), CLAIM)


@needs_litellm
@pytest.mark.parametrize("hostile", sorted(ANSWERS))
def test_court_rule_records_a_hostile_answer_as_an_absent_seat(
        hostile: str, case_file: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r"
    with _stand_in(hostile, "court-judge-1") as model:
        code = main(["court", "rule", case_file, "--court", COURT_FILE, "--at", str(AT),
                     "--api-base", model.api_base.removesuffix("/v1"), "-o", str(out)])
    captured = capsys.readouterr()
    assert code == 2  # seat 1 absent: 2 votes under quorum 3, no ruling (not a crash)
    assert f"UNAVAILABLE ({ANSWERS[hostile][1]})" in captured.err
    assert "court.no_ruling" in captured.err and "Traceback" not in captured.err
    summary = verify_court((out / "ruling.cbor").read_bytes())
    assert summary.final.status == "no_quorum" and summary.final.absent == [1]


def _hosted_lock(tmp_path: Path) -> Path:
    from judges_support import config, lock_from_config_for, prompt_files

    cfg = config("smollm2-135m.yaml")  # partial_save
    cfg["model_lock"] = {"kind": "hosted", "provider": "test-only", "model": "smollm2-135m",
                         "version_lock": "smollm2-135m", "fallback": None}
    cfg["determinism"] = "none"
    del cfg["runtime"]
    path = tmp_path / "hosted.cbor"
    path.write_bytes(lock_from_config_for(cfg, prompt_files()).to_cbor())
    return path


@needs_litellm
@pytest.mark.parametrize("hostile", sorted(ANSWERS))
def test_judge_batch_partial_save_writes_a_hostile_answer_as_a_failed_subject(
        hostile: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from por.locked_judges.transcript import TranscriptServer

    make, check_id = ANSWERS[hostile]
    if hostile == "surrogate-reasoning":  # a market vote has no reasoning: the content
        def make(m: str) -> bytes:
            return completion('{"outcome": "YES", "confidence": 1}\ud800', m)
    bundle = tmp_path / "b.cbor"
    bundle.write_bytes(bundle_bytes())
    models = b'{"object":"list","data":[{"id":"smollm2-135m","object":"model"}]}'
    with TranscriptServer(responder=lambda body: (200, make("smollm2-135m")),
                          models_response=models, authenticate=False) as model:
        code = main(["judge", "batch", str(bundle), "--manifest", str(_hosted_lock(tmp_path)),
                     "--api-base", model.api_base.removesuffix("/v1"),
                     "-o", str(tmp_path / "j"), "--json", "-q"])
    document = json.loads(capsys.readouterr().out)
    assert code == 0 and document["status"] == "partial_success"
    assert document["failed"] == [{"subject_index": 0, "error_kind": "invalid_response",
                                   "check_id": check_id}]
    summary = verify_judgement((tmp_path / "j" / "judgement.cbor").read_bytes())
    assert summary.report.failed[0].check_id == check_id


def test_verify_reexecute_replay_from_is_refused_with_the_reason(
        capsys: pytest.CaptureFixture[str]) -> None:
    valid = str(Path(__file__).resolve().parents[2] / "fixtures" / "judges" / "valid"
                / "por-judge-1.cbor")
    assert main(["judge", "verify", valid, "--reexecute", "--replay-from", valid,
                 "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["id"] == "usage.judge"
    assert "re-execution" in error["message"] and "recorded" in error["message"]
    assert main(["judge", "verify", valid, "--replay-from", valid]) == 2
    assert "usage.judge" in capsys.readouterr().err
