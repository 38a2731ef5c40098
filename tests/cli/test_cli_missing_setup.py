"""Issue 26 item 5: a missing extra, client, runtime or model weights is "no
verdict" (exit 2, SPEC §15.9, §16.8), not a rejected input (exit 1), and the
message names the command that installs what is missing.

Before: ``lock.client`` ("the LLM client is not installed") and
``lock.weights_missing`` exited 1, which a script reads as "the input is bad".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from test_cli_hostile_judges import _hosted_lock as hosted_lock

from por.cli.app import main
from por.cli.common import SETUP_CHECK_IDS, exit_code_for
from por.locked_judges.errors import JudgeLockError

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = str(ROOT / "fixtures" / "bundles" / "valid" / "01-boolean-observed.cbor")
sys.path.insert(0, str(ROOT / "tests" / "unit" / "judges"))


@pytest.mark.parametrize("check_id", sorted(SETUP_CHECK_IDS))
def test_setup_failures_are_no_verdict(check_id: str) -> None:
    assert exit_code_for(JudgeLockError(check_id, "missing")) == 2
    assert exit_code_for(JudgeLockError("lock.prompt_hash", "differs")) == 1


def test_missing_llm_extra_exits_2_with_the_install_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from por.locked_judges.transcript import TranscriptServer

    monkeypatch.setitem(sys.modules, "litellm", None)  # `import litellm` raises ImportError
    manifest = hosted_lock(tmp_path)
    models = b'{"object":"list","data":[{"id":"smollm2-135m","object":"model"}]}'
    with TranscriptServer(responder=lambda *_: (500, b""), models_response=models,
                          authenticate=False) as model:
        upstream = model.api_base.removesuffix("/v1")
        code = main(["judge", "batch", BUNDLE, "--manifest", str(manifest), "--api-base",
                     upstream, "-o", str(tmp_path / "j"), "--json"])
    captured = capsys.readouterr()
    assert code == 2, captured.err
    error = json.loads(captured.out)["error"]
    assert error["id"] == "lock.client"
    assert "pip install 'por[llm]'" in error["message"]
    assert "por: lock.client: " in captured.err


def test_missing_weights_exit_2_with_the_install_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from judges_support import llm_manifest

    manifest = llm_manifest()
    model = manifest.model.model_copy(
        update={"weights_source": "pypi:por-no-such-weights==1.0:model.gguf"})
    manifest = manifest.model_copy(update={"model": model})
    path = tmp_path / "m.cbor"
    path.write_bytes(manifest.to_cbor())
    code = main(["judge", "batch", BUNDLE, "--manifest", str(path), "--serve-local", "-o",
                 str(tmp_path / "j")])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "por: lock.weights_missing: " in err
    assert "pip install --no-deps por-no-such-weights" in err
