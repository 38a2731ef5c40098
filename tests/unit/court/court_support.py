"""Builders for the court tests: a case, the fixture locks, a scripted wire double,
a court run, and re-commitment for canaries (no litellm, no socket)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from por.bundle import build_bundle
from por.cli.judge_run import resolve_config
from por.court.case import DisputeCase, open_case
from por.court.config import court_rule
from por.court.panel import rule_case
from por.court.records import CourtBundle, compute_commitments
from por.judges.manifest import JudgeManifest
from por.judges.outcome import Exchange
from por.judges.wire import response_format, wire_model_name, wire_number
from por.scenarios import list_scenarios, load_scenario

ROOT = Path(__file__).resolve().parents[3]
COURT = ROOT / "fixtures" / "court"
#: 2026-01-01T00:00:00Z: the tests' ruling time.
AT = 1_767_225_600
CLAIM = "The source is not the one the market meant: the newsroom is not the shipping page."
REBUTTAL = "The newsroom API is the allowed source the market names."


@cache
def bundle_bytes(index: int = 0) -> bytes:
    """The PoR bundle of example market ``index``."""
    scenario = load_scenario(list_scenarios()[index])
    return build_bundle(scenario.prompt_spec, scenario.evidence)


def case(rebuttal: str | None = REBUTTAL) -> DisputeCase:
    """A case about evidence leaf 0 of market 0."""
    return open_case(bundle_bytes(), kind="evidence_leaf", leaf_index=0, claim=CLAIM,
                     rebuttal=rebuttal, reward=1000)


@cache
def locks() -> tuple[JudgeManifest, ...]:
    """The seven hosted court judges of fixtures/court/court.yaml."""
    return tuple(resolve_config(str(COURT / f"judge-{i}.yaml")) for i in range(7))


def completion(content: str, model: str) -> bytes:
    """An OpenAI chat-completions body with a fixed id and clock."""
    return json.dumps({
        "id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                     "finish_reason": "stop"}],
    }).encode()


def vote(pct: Any, reasoning: str = "the spec is met") -> str:
    """A court answer's content."""
    return json.dumps({"worker_pct": pct, "reasoning": reasoning})


def wire_body(manifest: JudgeManifest, messages: list[dict[str, str]]) -> bytes:
    """What a conforming client sends."""
    body: dict[str, Any] = {"model": wire_model_name(manifest), "messages": messages,
                            "response_format": response_format(manifest)}
    for name, text in manifest.parameters.items():
        body[name] = wire_number(text)
    return json.dumps(body).encode()


#: (judge id, attempt) -> (status, content text or raw body bytes)
Script = Callable[[str, int], tuple[int, str | bytes]]


class Wire:
    """A court transport double: builds the wire body, answers from ``script``."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.seen: list[str] = []
        self.messages: dict[str, list[dict[str, str]]] = {}

    async def __call__(self, manifest: JudgeManifest, messages: list[dict[str, str]],
                       call_id: str) -> Exchange:
        self.seen.append(call_id)
        self.messages[manifest.judge_id] = messages
        attempt = int(call_id.rsplit("-", 1)[1])
        status, answer = self.script(manifest.judge_id, attempt)
        body = answer if isinstance(answer, bytes) else completion(
            answer, manifest.model.version_lock)
        return Exchange(wire_body(manifest, messages), status, body if status else b"",
                        "timeout" if status == 0 else None)


def pcts(*values: int) -> Script:
    """Seat ``i`` (judge-i) answers ``values[i]`` on its first attempt."""
    return lambda judge_id, attempt: (200, vote(values[int(judge_id.split("-")[1])]))


async def _nosleep(seconds: float) -> None:
    del seconds


def run_court(script: Script, *, panel: int = 3, seats: int = 7, quorum: int | None = None,
              appeal_quorum: int | None = None, the_case: DisputeCase | None = None
              ) -> tuple[bytes, Wire]:
    """Rule on ``the_case`` (default :func:`case`) with the first ``seats`` fixture judges."""
    wire = Wire(script)
    numbers = {"panel": panel, "quorum": quorum or panel,
               "appeal_quorum": appeal_quorum or 2 * panel + 1}
    chosen = list(locks()[:seats])
    rule = court_rule(numbers, seats, AT)
    data = asyncio.run(rule_case(the_case or case(), rule, chosen, [wire] * seats,
                                 sleep=_nosleep))
    return data, wire


def recommit(data: bytes, **changes: Any) -> bytes:
    """``data`` with component lists replaced and the commitments recomputed."""
    bundle = CourtBundle.from_cbor(data)
    fields = {name: changes.get(name, getattr(bundle, name))
              for name in ("case", "rule", "panel", "calls", "votes", "rulings")}
    return CourtBundle(**fields, commitments=compute_commitments(**fields)).to_cbor()


__all__ = ["AT", "CLAIM", "COURT", "REBUTTAL", "ROOT", "Wire", "bundle_bytes", "case",
           "completion", "locks", "pcts", "recommit", "run_court", "vote", "wire_body"]
