"""Leaf hashes of every record of a few scenarios, for the determinism test.

Run as a script it prints them as JSON, so a test can compare runs in fresh
interpreters (different ``PYTHONHASHSEED``) with the in-process values.
"""

from __future__ import annotations

import hashlib
import json
import sys

from por.bundle import build, current_manifest
from por.merkle import leaf_hash
from por.scenarios import load_scenario

SCENARIOS = ("01-boolean-observed", "08-quorum-agree", "14-html-regex")


def record_digests(names: tuple[str, ...] = SCENARIOS) -> dict[str, str]:
    """``"<scenario>/<record>" -> leaf hash hex`` for every record, plus the bundle's SHA-256."""
    out = {"manifest": leaf_hash(current_manifest().to_cbor()).hex()}
    for name in names:
        scenario = load_scenario(name)
        built = build(scenario.prompt_spec, scenario.evidence)
        records = {
            "prompt_spec": scenario.prompt_spec,
            "evidence_bundle": scenario.evidence,
            "trace_header": built.trace.header(),
            "trace": built.trace,
            "verdict": built.verdict,
            **{f"evidence/{i}": item for i, item in enumerate(scenario.evidence.items)},
            **{f"step/{i}": step for i, step in enumerate(built.trace.steps)},
        }
        for key, record in records.items():
            out[f"{name}/{key}"] = leaf_hash(record.to_cbor()).hex()
        out[f"{name}/bundle.sha256"] = hashlib.sha256(built.data).hexdigest()
    return out


if __name__ == "__main__":
    sys.stdout.write(json.dumps(record_digests(), sort_keys=True) + "\n")
