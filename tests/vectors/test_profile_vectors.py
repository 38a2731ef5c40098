"""Provider-profile wire vectors from fixtures/vectors/profiles.json (SPEC §15.4).

The committed file must equal its generator's output (which builds each honest
body from the SPEC table without por); por's wire check accepts each honest body,
rebuilds its canonical request and hash, derives the same allow-list, and fails
each edited body with the committed check id.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from por.locked_judges.errors import JudgementError
from por.locked_judges.manifest import JudgeManifest
from por.locked_judges.wire import allowed_wire_keys, canonical_request, check_wire, request_hash

VECTORS = Path(__file__).resolve().parents[2] / "fixtures" / "vectors"
DATA: dict[str, Any] = json.loads((VECTORS / "profiles.json").read_text(encoding="utf-8"))
MESSAGES: list[dict[str, str]] = DATA["messages"]


def _prompt(name: str, text: str) -> dict[str, Any]:
    return {"file": name, "text": text.encode(), "hash": hashlib.sha256(text.encode()).digest()}


def manifest(vector: dict[str, Any]) -> JudgeManifest:
    profile = vector["profile"]
    return JudgeManifest.model_validate({
        "judge_id": "vector", "judge_version": "1.0",
        "model": {"kind": "hosted", "provider": "p", "model": f"p/{vector['model']}",
                  "version_lock": vector["model"],
                  **({"profile": profile} if profile != "openai-compatible" else {})},
        "runtime": {"name": "p", "version": "1", "build_class": "hosted"},
        "parameters": vector["parameters"], "timeout_ms": 1000,
        "system_prompt": _prompt("s.md", "s"), "template": _prompt("t.md", "t"),
        "output_schema": DATA["output_schema"].encode(), "parser": "por-vote-parser/1",
        "fail_closed": True, "fail_closed_mode": "strict",
        "retry_policy": {"max_retries": 0, "backoff": "exponential", "base_ms": 0,
                         "retry_on": [], "fail_on": ["auth"]},
        "determinism": "none", "compatible_spec_versions": ["1.0"]})


def test_the_committed_vectors_are_the_generators() -> None:
    spec = importlib.util.spec_from_file_location("gen_profiles", VECTORS / "gen_profiles.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (VECTORS / "profiles.json").read_text(encoding="utf-8") == module.render()


@pytest.mark.parametrize("vector", DATA["vectors"], ids=lambda v: v["profile"])
def test_por_accepts_the_honest_body_and_refuses_each_edit(vector: dict[str, Any]) -> None:
    lock = manifest(vector)
    body = vector["body"].encode()
    check_wire(lock, body, MESSAGES)
    assert canonical_request(body).decode() == vector["canonical_request"]
    assert request_hash(body).hex() == vector["request_hash"]
    assert sorted(allowed_wire_keys(lock)) == vector["allowed"]
    for edit in vector["edits"]:
        edited = json.loads(body) | {edit["key"]: edit["value"]}
        with pytest.raises(JudgementError) as caught:
            check_wire(lock, json.dumps(edited).encode(), MESSAGES)
        assert caught.value.check_id == edit["check_id"], edit
