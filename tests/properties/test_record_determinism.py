"""Record bytes do not depend on the process or on dict insertion order (SPEC §2, §4).

1. The records of three scenarios are encoded and hashed in three fresh
   interpreters with ``PYTHONHASHSEED`` 0, 1 and 123; every leaf hash (and the
   whole bundle's SHA-256) equals the in-process value.  Set and dict iteration
   order changes with the hash seed, so any such dependence would show here.
2. Hypothesis: a PromptSpec validated from its own field values with the keys
   of every map inserted in a different order gives identical bytes, whether it
   comes from the CBOR value (``model_validate``), from the JSON form
   (``from_json_obj``) or is encoded directly (``encode``).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from record_digests import SCENARIOS, record_digests

from por.encoding import decode, encode
from por.scenarios import load_scenario
from por.schemas import PromptSpec

ROOT = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("record_digests.py")
SEEDS = ("0", "1", "123")


def test_leaf_hashes_equal_across_hash_seeds() -> None:
    expected = record_digests()
    assert len(expected) > 3 * 10  # every record of three scenarios, not a handful
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = {
        seed: subprocess.Popen(
            [sys.executable, str(PROBE)], cwd=ROOT, env={**env, "PYTHONHASHSEED": seed},
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for seed in SEEDS
    }
    for seed, proc in procs.items():
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        got = json.loads(out)
        diff = sorted(k for k in expected.keys() | got.keys() if expected.get(k) != got.get(k))
        assert not diff, f"PYTHONHASHSEED={seed}: {diff[:5]}"


def test_probe_covers_the_scenarios() -> None:
    digests = record_digests()
    for name in SCENARIOS:
        assert f"{name}/prompt_spec" in digests and f"{name}/step/0" in digests


@cache
def canonical(name: str) -> tuple[bytes, dict[str, Any], dict[str, Any]]:
    spec = load_scenario(name).prompt_spec
    data = spec.to_cbor()
    return data, decode(data), spec.to_json_obj()


def shuffled(value: Any, rnd: random.Random) -> Any:
    """``value`` with the keys of every map re-inserted in a random order (lists kept)."""
    if isinstance(value, dict):
        keys = list(value)
        rnd.shuffle(keys)
        return {k: shuffled(value[k], rnd) for k in keys}
    if isinstance(value, list):
        return [shuffled(item, rnd) for item in value]
    return value


def key_orders(value: Any) -> list[tuple[str, ...]]:
    if isinstance(value, dict):
        return [tuple(value), *(o for v in value.values() for o in key_orders(v))]
    if isinstance(value, list):
        return [o for item in value for o in key_orders(item)]
    return []


@given(name=st.sampled_from(SCENARIOS), rnd=st.randoms(use_true_random=False))
def test_prompt_spec_bytes_ignore_key_insertion_order(name: str, rnd: random.Random) -> None:
    data, cbor_value, json_obj = canonical(name)
    permuted = shuffled(cbor_value, rnd)
    assert permuted == cbor_value  # same field values...
    assert PromptSpec.model_validate(permuted, strict=True).to_cbor() == data
    assert PromptSpec.from_dict(permuted).to_cbor() == data
    assert encode(permuted) == data
    permuted_json = shuffled(json_obj, rnd)
    assert PromptSpec.from_json_obj(permuted_json).to_cbor() == data


def test_shuffling_changes_key_order() -> None:
    # The control for the property above: the permutation really reorders keys.
    _, cbor_value, _ = canonical(SCENARIOS[1])
    rnd = random.Random(7)  # noqa: S311 -- a fixed shuffle for a test, not cryptography
    assert key_orders(shuffled(cbor_value, rnd)) != key_orders(cbor_value)
