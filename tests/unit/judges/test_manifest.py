"""por.JudgeManifest/1 and the seed's enforce_version_lock checks (SPEC §15.1)."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from judges_support import (
    SMOLLM2_SHA256,
    SMOLLM2_SIZE,
    config,
    deterministic_manifest,
    llm_manifest,
    prompt_files,
)

from por.locked_judges import JudgeLockError, JudgeManifest, parse_manifest
from por.locked_judges.config import lock_from_config, parse_config_text
from por.locked_judges.manifest import (
    require_compatible,
    require_prompt,
    require_version,
    require_weights,
)

#: Known-answer digests of the committed example configs: a change to the record,
#: the encoding or the fixture prompts shows up here first.
DETERMINISTIC_DIGEST = "202a5f75a6b18a7403c5991e2f7efdc5ec85f3052c10e7affe63bf209ebc589a"
SMOLLM2_DIGEST = "6e2abc211ea2e8b55d8c31818ea9a8931f5df396b9fcc8a212cc7e394cf6af12"


def test_known_answer_digests() -> None:
    assert deterministic_manifest().digest().hex() == DETERMINISTIC_DIGEST
    assert llm_manifest().digest().hex() == SMOLLM2_DIGEST


def test_roundtrip_and_strict_decode() -> None:
    manifest = llm_manifest()
    assert parse_manifest(manifest.to_cbor()) == manifest
    with pytest.raises(JudgeLockError) as info:
        parse_manifest(manifest.to_cbor()[:-1])
    assert info.value.check_id == "lock.manifest"


def test_floats_become_canonical_decimal_strings() -> None:
    manifest = llm_manifest()
    assert manifest.parameters["temperature"] == "0"
    assert manifest.parameters["top_p"] == "1"
    assert manifest.parameters["max_tokens"] == "48"
    assert all(isinstance(v, str) for v in manifest.parameters.values())


def test_json_form_gives_the_same_lock() -> None:
    cfg = config("smollm2-135m.yaml")
    marked = json.dumps(cfg, default=lambda d: f"@@{d}@@")  # Decimal -> bare JSON number
    text = re.sub(r'"@@([^@]+)@@"', r"\1", marked)
    assert "0.0" in text
    again = lock_from_config(parse_config_text(text.encode()), prompt_files(),
                             weights=(SMOLLM2_SHA256, SMOLLM2_SIZE))
    assert again.digest().hex() == SMOLLM2_DIGEST


def test_prompts_are_committed_as_bytes_with_hashes() -> None:
    manifest = llm_manifest()
    system = prompt_files()["prompts/system.md"]
    assert manifest.system_prompt.text == system
    assert manifest.system_prompt.hash == hashlib.sha256(system).digest()


@pytest.mark.parametrize(("change", "check_id"), [
    ({"model_lock": {"model": "x", "version_lock": "x", "fallback": "other-model"}},
     "lock.fallback"),
    ({"fail_closed": False}, "lock.fallback"),
    ({"drop_params": True}, "lock.forbidden_option"),
    ({"fallbacks": ["gpt-4"]}, "lock.forbidden_option"),
    ({"model_alias_map": {"a": "b"}}, "lock.forbidden_option"),
    ({"parameters": {"temperature": 0, "drop_params": True}}, "lock.forbidden_option"),
    ({"parameters": {"temperature": 0}}, "lock.profile_parameter"),  # sampler block incomplete
    ({"parameters": {"temperature": "0.0", "top_k": 1, "top_p": 1, "min_p": 0,
                     "repeat_penalty": 1, "seed": 0, "max_tokens": 8}}, "lock.config"),
    ({"judge_version": "v0.1"}, "lock.config"),
    ({"system_prompt": {"file": "prompts/absent.md"}}, "lock.prompt_missing"),
    ({"system_prompt": {"file": "prompts/system.md", "hash": "a8d2e1f3c4b5a8d2e1f3"}},
     "lock.prompt_hash"),
])
def test_bad_configs_are_refused_with_their_check_id(change: dict[str, object],
                                                     check_id: str) -> None:
    cfg = config("smollm2-135m.yaml")
    cfg.update(change)
    with pytest.raises(JudgeLockError) as info:
        lock_from_config(cfg, prompt_files(), weights=(SMOLLM2_SHA256, SMOLLM2_SIZE))
    assert info.value.check_id == check_id


def test_weights_are_checked_against_the_config() -> None:
    with pytest.raises(JudgeLockError) as info:
        lock_from_config(config("smollm2-135m.yaml"), prompt_files(),
                         weights=(hashlib.sha256(b"test-only-weights").digest(), 17))
    assert info.value.check_id == "lock.weights_hash"
    with pytest.raises(JudgeLockError) as info:
        lock_from_config(config("smollm2-135m.yaml"), prompt_files())
    assert info.value.check_id == "lock.weights_missing"


def test_abbreviated_prompt_hash_claim_is_accepted() -> None:
    cfg = config("smollm2-135m.yaml")
    digest = hashlib.sha256(prompt_files()["prompts/system.md"]).hexdigest()
    cfg["system_prompt"] = {"file": "prompts/system.md", "hash": digest[:16] + "..."}
    assert lock_from_config(cfg, prompt_files(), weights=(SMOLLM2_SHA256, SMOLLM2_SIZE)) \
        == llm_manifest()


def test_enforce_version_lock_checks() -> None:
    manifest = llm_manifest()
    require_version(manifest, "SmolLM2-135M-Instruct.Q4_1")
    with pytest.raises(JudgeLockError) as info:
        require_version(manifest, "SmolLM2-360M-Instruct")
    assert info.value.check_id == "lock.version_mismatch"
    require_compatible(manifest, "1.0")
    with pytest.raises(JudgeLockError) as info:
        require_compatible(manifest, "2.0")
    assert info.value.check_id == "lock.incompatible"
    require_prompt(manifest.system_prompt, manifest.system_prompt.text)
    with pytest.raises(JudgeLockError) as info:
        require_prompt(manifest.system_prompt, manifest.system_prompt.text + b" ")
    assert info.value.check_id == "lock.prompt_hash"
    require_weights(manifest, SMOLLM2_SHA256)
    with pytest.raises(JudgeLockError) as info:
        require_weights(manifest, bytes(32))
    assert info.value.check_id == "lock.weights_hash"


def test_model_invariants() -> None:
    manifest = deterministic_manifest()
    data = manifest.to_dict()
    data["parameters"] = {"temperature": "0"}
    with pytest.raises(ValueError, match="deterministic"):
        JudgeManifest.model_validate(data, strict=True)
    llm = llm_manifest().to_dict()
    llm["model"] = {**llm["model"], "kind": "hosted"}
    with pytest.raises(ValueError, match="bitwise"):
        JudgeManifest.model_validate(llm, strict=True)
