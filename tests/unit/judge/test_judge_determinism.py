"""Verdict bytes are identical across processes with different hash seeds (DESIGN §5)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from judge_builders import make_evidence, make_item, make_spec, make_trace, variables

from por.judge import JudgeAgent

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

SCRIPT = """
from judge_builders import make_evidence, make_item, make_spec, make_trace, variables
from por.judge import JudgeAgent
cases = [
    (make_spec(), variables(numeric_value="100", event_observed=True)),
    (make_spec(comparison=">="), variables(numeric_value="100")),
    (make_spec(on_conflict="continue"), variables(numeric_value="101", conflict_detected=True,
                                                 source_summary=["ev_0002", "ev_0001"])),
    (make_spec(predicate="event_observed"), variables()),
]
evidence = make_evidence(make_item("ev_0001", confidence_bps=8000), make_item("ev_0002"))
for spec, evaluation in cases:
    verdict, result = JudgeAgent().judge(spec, evidence, make_trace(evaluation))
    print(verdict.to_cbor().hex(), result.model_dump_json())
"""


def _run(seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed,
           "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)])}
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                          check=True, text=True, timeout=60)
    return done.stdout


def test_verdict_bytes_identical_across_hash_seeds() -> None:
    outputs = {_run(seed) for seed in ("0", "1", "4242")}
    assert len(outputs) == 1
    lines = outputs.pop().splitlines()
    assert len(lines) == 4
    # And the same bytes as this process computes.
    evidence = make_evidence(make_item("ev_0001", confidence_bps=8000), make_item("ev_0002"))
    verdict, _ = JudgeAgent().judge(
        make_spec(), evidence, make_trace(variables(numeric_value="100", event_observed=True)))
    assert lines[0].split(" ", 1)[0] == verdict.to_cbor().hex()
