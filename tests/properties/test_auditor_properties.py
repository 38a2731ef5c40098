"""Auditor properties: determinism across runs and processes, key-order independence,
and one-step re-execution on generated inputs (SPEC §6, DESIGN §5)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from por.auditor import AuditorAgent, TracePolicyVerifier, recompute_step
from por.auditor.claim_extraction import extract_item
from por.schemas import EvidenceBundle, PromptSpec, ReasoningTrace

_FACTORIES = Path(__file__).resolve().parents[1] / "unit" / "auditor" / "factories.py"
_spec = importlib.util.spec_from_file_location("auditor_factories", _FACTORIES)
assert _spec is not None and _spec.loader is not None
f = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(f)

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ["src_a", "src_b", "src_c", "src_d"]

prices = st.decimals(min_value=Decimal("-1000"), max_value=Decimal("1000"), places=3,
                     allow_nan=False, allow_infinity=False)
item_specs = st.tuples(st.sampled_from(SOURCES), prices, st.integers(0, 3),
                       st.integers(900, 2100), st.booleans())


@st.composite
def cases(draw: st.DrawFn) -> tuple[PromptSpec, EvidenceBundle]:
    strategy = draw(st.sampled_from(["single_best", "multi_source_quorum", "fallback_chain"]))
    quorum = draw(st.integers(1, 3))
    req = f.requirement(
        sources=SOURCES, strategy=strategy, min_sources=max(quorum, draw(st.integers(1, 3))),
        quorum=quorum, tie_breaker=draw(st.sampled_from(["highest_provenance",
                                                         "source_order"])),
        fields=[f.json_field("price", "numeric", "$.data.price"),
                f.json_field("at", "timestamp", "$.data.at")],
        min_tier=draw(st.integers(0, 2)))
    spec = f.prompt_spec(requirements=[req], slack=draw(st.integers(0, 50)),
                         tolerance=draw(st.sampled_from(["0", "0.5", "10"])),
                         allowed_sources=SOURCES[:3])
    items = []
    for n, (source, price, tier, at, with_at) in enumerate(draw(st.lists(item_specs,
                                                                         max_size=6))):
        text = format(price, "f")
        content = ('{"data":{"price":' + text + (f',"at":{at}' if with_at else "") + "}}")
        items.append(f.item(f"e{n}", content, source_id=source, tier=tier, retrieved_at=at))
    return spec, f.bundle(items)


def _trace_bytes(trace: ReasoningTrace) -> bytes:
    return trace.header().to_cbor() + b"".join(s.to_cbor() for s in trace.steps)


@settings(max_examples=40, deadline=None)
@given(cases())
def test_audit_is_deterministic_and_every_step_replays(case: tuple[PromptSpec,
                                                                   EvidenceBundle]) -> None:
    spec, evidence = case
    first, report = AuditorAgent().audit(spec, evidence)
    second, report_again = AuditorAgent(name="other").audit(spec, evidence)
    assert _trace_bytes(first) == _trace_bytes(second)
    assert report == report_again
    assert TracePolicyVerifier().verify(first, spec, evidence).ok
    items = {i.evidence_id: i for i in evidence.items}
    steps = {s.step_id: s for s in first.steps}
    for step in first.steps:
        assert recompute_step(spec, step, items, steps) == step


json_leaves = st.one_of(st.integers(-10**6, 10**6), st.booleans(), st.text(max_size=5),
                        prices.map(lambda d: {"$dec": format(d, "f")}))


def _dump(value: Any, order: list[int] | None = None) -> str:
    """Serialise JSON, optionally permuting each object's keys by ``order``."""
    if isinstance(value, dict) and set(value) == {"$dec"}:
        return str(value["$dec"])
    if isinstance(value, dict):
        keys = list(value)
        if order is not None:
            keys = sorted(keys, key=lambda k: order[hash_key(k) % len(order)])
        return "{" + ",".join(json.dumps(k) + ":" + _dump(value[k], order)
                              for k in keys) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_dump(x, order) for x in value) + "]"
    return json.dumps(value)


def hash_key(key: str) -> int:
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big")


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["price", "at", "up", "name", "x", "y"]), json_leaves,
                       min_size=1),
       st.dictionaries(st.sampled_from(["price", "meta", "z"]), json_leaves),
       st.permutations(list(range(7))))
def test_json_key_order_changes_no_claim(top: dict[str, Any], data: dict[str, Any],
                                         order: list[int]) -> None:
    document = {**top, "data": data}
    fields = [f.json_field("price", "numeric", "$.data.price"),
              f.json_field("p2", "numeric", "$.price"),
              f.json_field("at", "timestamp", "$.at"),
              f.json_field("up", "boolean", "$.up"),
              f.json_field("name", "text", "$.name")]
    req = f.requirement(fields=fields)
    plain = extract_item(req, f.item("e1", _dump(document)))
    permuted = extract_item(req, f.item("e1", _dump(document, order)))
    assert permuted.claims == plain.claims  # values and ids alike
    assert [w.check_id for w in permuted.warnings] == [w.check_id for w in plain.warnings]


_SCRIPT = r"""
import hashlib, importlib.util, json, sys
spec = importlib.util.spec_from_file_location("auditor_factories", sys.argv[1])
f = importlib.util.module_from_spec(spec); spec.loader.exec_module(f)
from por.auditor import AuditorAgent
srcs = [f"s{n:02d}" for n in range(10)]  # the source cap
req = f.requirement(sources=srcs, strategy="multi_source_quorum", min_sources=3, quorum=3,
                    fields=[f.json_field("price", "numeric", "$.data.price"),
                            f.json_field("up", "boolean", "$.data.up")])
ps = f.prompt_spec(requirements=[req], tolerance="0.5", allowed_sources=sorted(srcs[::2]))
items = [f.item(f"e{n}", '{"data":{"up":%s,"price":%d.%d}}' % (
             "true" if n % 3 else "false", 100 + n % 5, n % 7),
             source_id=srcs[(n * 7) % 10], tier=n % 4, retrieved_at=990 + n * 3)
         for n in range(120)]
digest = hashlib.sha256()
for case in (f.two_source_case("101.5", "99"), (ps, f.bundle(items))):
    trace, report = AuditorAgent().audit(*case)
    digest.update(trace.header().to_cbor())
    for step in trace.steps:
        digest.update(step.to_cbor())
    digest.update(json.dumps(report.model_dump(mode="json"), sort_keys=True).encode())
print(digest.hexdigest())
"""


def test_trace_bytes_identical_across_hash_seeds() -> None:
    outputs = []
    for seed in ("0", "1", "random"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-c", _SCRIPT, str(_FACTORIES)], env=env,
                              capture_output=True, text=True, check=True, timeout=120)
        outputs.append(done.stdout.strip())
    assert len(outputs[0]) == 64
    assert outputs == [outputs[0]] * 3
