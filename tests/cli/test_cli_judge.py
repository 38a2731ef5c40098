"""``por judge`` in-process: exit codes, outputs, refusals (SPEC §15.9).

Uses the deterministic judge and the replay transport (recorded transcripts),
so no model and no litellm are needed except where marked.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest
from run_support import needs_litellm, scenario_bundles

from por.cli.app import main
from por.locked_judges import verify_judgement

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit" / "judges"))
from judges_support import (
    CANARIES_DIR,
    JUDGES,
)

DETERMINISTIC = str(JUDGES / "por-judge-1.yaml")


@pytest.fixture(scope="module")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return scenario_bundles(tmp_path_factory.mktemp("bundles"), 5)


def test_lock_prints_the_digest(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "m.cbor"
    assert main(["judge", "lock", DETERMINISTIC, "-o", str(out)]) == 0
    digest = capsys.readouterr().out.split()[0]
    assert digest == hashlib.sha256(out.read_bytes()).hexdigest()


def test_lock_refuses_a_changed_prompt(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    (tmp_path / "prompts").mkdir()
    for name in ("system.md", "template.md"):
        (tmp_path / "prompts" / name).write_bytes((JUDGES / "prompts" / name).read_bytes())
    text = (JUDGES / "por-judge-1.yaml").read_text()
    claimed = hashlib.sha256(b"the old prompt").hexdigest()
    line = "  file: prompts/system.md"
    text = text.replace(line, f"{line}\n  hash: {claimed}")
    (tmp_path / "c.yaml").write_text(text)
    assert main(["judge", "lock", str(tmp_path / "c.yaml")]) == 1
    assert "lock.prompt_hash" in capsys.readouterr().err


def test_batch_verify_replay(bundles: list[str], tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "judged"
    assert main(["judge", "batch", *bundles, "--judge-config", DETERMINISTIC, "-o", str(out),
                 "--max-parallel", "2", "--json", "--at", "1767225600"]) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["status"] == "complete" and report["judged"] == 5
    assert "[5/5]" in captured.err
    assert sorted(p.name for p in out.iterdir()) == [
        "checksums.sha256", "judge_manifest.json", "judgement.cbor", "scores.json"]
    for line in (out / "checksums.sha256").read_text().splitlines():
        digest, name = line.split("  ")
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest
    seed = json.loads((out / "judge_manifest.json").read_text())
    assert seed["created_at"] == 1767225600
    assert seed["execution"]["scenarios_judged"] == 5
    assert main(["judge", "verify", str(out / "judgement.cbor")]) == 0
    assert capsys.readouterr().out.startswith("OK judgement ")
    replayed = tmp_path / "replayed"
    assert main(["judge", "replay", str(out / "judgement.cbor"), "--judge-config",
                 DETERMINISTIC, "--subjects", *bundles, "-o", str(replayed), "-q"]) == 0
    assert "reexecution: 0/5" in capsys.readouterr().out
    comparison = json.loads((replayed / "comparison.json").read_text())
    assert comparison["summary"]["rating_change_rate_bps"] == 0
    assert (replayed / "comparison.cbor").is_file()


def test_replay_refuses_changed_subjects(bundles: list[str], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "judged"
    assert main(["judge", "batch", *bundles[:3], "--judge-config", DETERMINISTIC, "-o",
                 str(out), "-q"]) == 0
    capsys.readouterr()
    assert main(["judge", "replay", str(out / "judgement.cbor"), "--judge-config",
                 DETERMINISTIC, "--subjects", *bundles[:2], bundles[4], "-o",
                 str(tmp_path / "r")]) == 1
    assert "judgement.subjects_changed" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_llm_manifest_without_a_model_is_a_usage_error(bundles: list[str], tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str],
                                                       ) -> None:
    manifest = tmp_path / "m.cbor"
    from judges_support import llm_manifest

    manifest.write_bytes(llm_manifest().to_cbor())
    assert main(["judge", "batch", bundles[0], "--manifest", str(manifest), "-o",
                 str(tmp_path / "o")]) == 2
    assert "usage.judge" in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(p.name for p in CANARIES_DIR.glob("*.cbor")))
def test_committed_canaries_are_rejected_by_the_cli(name: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    expected = json.loads((CANARIES_DIR / "README.json").read_text())[name]
    assert main(["judge", "verify", "--json", str(CANARIES_DIR / name)]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["error"]["id"] == expected


def test_verify_garbage_is_rejected(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.cbor"
    path.write_bytes(b"\xffnot a judgement")
    assert main(["judge", "verify", str(path)]) == 1
    assert capsys.readouterr().err.startswith("por: codec.")


def test_valid_fixture_verifies() -> None:
    data = (CANARIES_DIR.parent / "valid" / "llm-retry.cbor").read_bytes()
    assert verify_judgement(data).report.calls_count == 4




HOSTED = "test-only-hosted-2026-01-01"


def _fake_model(body: bytes) -> tuple[int, bytes]:
    from judges_support import completion

    return 200, completion('{"outcome": "NO", "confidence": 35}', model=HOSTED)


def _hosted_manifest(tmp_path: Path) -> Path:
    """A hosted lock of the same sampler block (a model por cannot hash)."""
    from judges_support import config, lock_from_config_for, prompt_files

    cfg = config("smollm2-135m.yaml")
    cfg["model_lock"] = {"kind": "hosted", "provider": "test-only", "model": "smollm2-135m",
                         "version_lock": HOSTED, "fallback": None}
    cfg["determinism"] = "none"
    del cfg["runtime"]
    path = tmp_path / "hosted.cbor"
    path.write_bytes(lock_from_config_for(cfg, prompt_files()).to_cbor())
    return path


@needs_litellm
def test_llm_batch_through_api_base_then_replay_from_transcripts(
        bundles: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from por.locked_judges.transcript import TranscriptServer

    manifest = _hosted_manifest(tmp_path)
    models = b'{"object":"list","data":[{"id":"smollm2-135m","object":"model"}]}'
    with TranscriptServer(responder=_fake_model, models_response=models,
                          authenticate=False) as model:
        upstream = model.api_base.removesuffix("/v1")
        assert main(["judge", "batch", *bundles[:2], "--manifest", str(manifest),
                     "--api-base", upstream, "-o", str(tmp_path / "j"), "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["votes"][0] == {
        "subject_id": json.loads(captured.out)["votes"][0]["subject_id"], "rating": "NO",
        "confidence_bps": 3500}
    assert f"locked judge {HOSTED} available" in captured.err
    original = str(tmp_path / "j" / "judgement.cbor")
    # The model is gone: the transcripts answer, byte for byte.
    assert main(["judge", "replay", original, "--manifest", str(manifest), "--replay-from",
                 original, "-o", str(tmp_path / "r"), "-q"]) == 0
    assert "reexecution: 0/2" in capsys.readouterr().out
    # A subject the transcripts never saw: HTTP 599, a fail-closed unavailable judge.
    assert main(["judge", "batch", *bundles[:3], "--manifest", str(manifest),
                 "--replay-from", original, "-o", str(tmp_path / "p"), "-q", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["status"] == "partial_success"
    assert report["failed"][0]["check_id"] == "judgement.unavailable"


@needs_litellm
def test_unavailable_model_fails_preflight_with_exit_2(
        bundles: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from por.locked_judges.transcript import TranscriptServer

    manifest = _hosted_manifest(tmp_path)
    other = b'{"object":"list","data":[{"id":"some-other-model","object":"model"}]}'
    with TranscriptServer(responder=_fake_model, models_response=other,
                          authenticate=False) as model:
        assert main(["judge", "batch", bundles[0], "--manifest", str(manifest), "--api-base",
                     model.api_base.removesuffix("/v1"), "-o", str(tmp_path / "o")]) == 2
    assert "judgement.unavailable" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_the_seed_config_verbatim_is_refused(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 002's judge_config.yaml as written: its abbreviated prompt hash does not
    match, and with a matching hash its sampler block is incomplete."""
    (tmp_path / "prompts").mkdir()
    prompt = b"You are a judge.\n"
    (tmp_path / "prompts" / "judge_system_prompt_v0.1.md").write_bytes(prompt)
    (tmp_path / "prompts" / "template.md").write_bytes(b"{{question}}\n")
    seed = """judge_version: "0.1"
model_lock:
  provider: "google"
  model: "gemini-2.0-flash-exp"
  version_lock: "gemini-2.0-flash-exp-2025-12-15"
  fallback: null
parameters:
  temperature: 0.0
  max_tokens: 4096
  timeout_seconds: 30
system_prompt:
  file: "prompts/judge_system_prompt_v0.1.md"
  hash: "a8d2e1f3c4b5..."
template:
  file: "prompts/template.md"
fail_closed: true
retry_policy:
  max_retries: 3
  backoff: "exponential"
  retry_on: ["timeout", "rate_limit"]
  fail_on: ["model_unavailable", "invalid_response"]
"""
    (tmp_path / "seed.yaml").write_text(seed)
    assert main(["judge", "lock", str(tmp_path / "seed.yaml")]) == 1
    assert "lock.prompt_hash" in capsys.readouterr().err
    fixed = seed.replace("a8d2e1f3c4b5...", hashlib.sha256(prompt).hexdigest())
    (tmp_path / "seed.yaml").write_text(fixed)
    assert main(["judge", "lock", str(tmp_path / "seed.yaml")]) == 1
    err = capsys.readouterr().err
    assert "lock.profile_parameter" in err and "top_k" in err


def test_a_local_lock_cannot_be_pointed_at_someone_elses_server(
        bundles: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from judges_support import llm_manifest

    manifest = tmp_path / "m.cbor"
    manifest.write_bytes(llm_manifest().to_cbor())
    assert main(["judge", "batch", bundles[0], "--manifest", str(manifest), "--api-base",
                 "http://127.0.0.1:9", "-o", str(tmp_path / "o")]) == 2
    assert "usage.judge" in capsys.readouterr().err
