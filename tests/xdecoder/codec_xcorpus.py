"""Shared corpus and the cbor2 (Python) oracle for the cross-decoder checks.

Corpus: every vector of fixtures/vectors/encoding.json (valid and invalid),
deterministic mutations of each valid vector (every byte deleted, a byte
inserted before it, flipped in five bit patterns, one byte appended),
100 000-deep nestings and pseudo-random CBOR-ish byte strings from a fixed
seed.  About 25 000 inputs, all small except the deep ones.

Oracle (DESIGN §3.1, "the simplest complete rule"): cbor2.loads with
allow_indefinite=False and allow_duplicate_keys=False through a CBORDecoder
on a BytesIO so the whole input must be consumed; the value is walked for the
por-cbor/1 data model (exact types, text keys, 64-bit integers, depth <= 32);
then cbor2.dumps(value, canonical=True) must give back the input bytes.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import cbor2

VECTORS = Path(__file__).parents[2] / "fixtures" / "vectors" / "encoding.json"
MAX_DEPTH = 32
FLIPS = (0x01, 0x02, 0x20, 0x40, 0x80)
# Bytes that start interesting items: heads of each major type at each width,
# breaks, floats, tags, simple values.
INTERESTING = bytes.fromhex(
    "00 01 17 18 19 1a 1b 1c 1f 20 38 3b 40 41 58 5f 60 61 62 78 7f 80 81 82 98 9f a0 a1 a2 "
    "b8 bf c0 c2 d8 e0 f4 f5 f6 f7 f8 f9 fa fb ff 7e c3 a9 e6 b0 b4 ed a0"
)


def corpus() -> list[bytes]:
    """The inputs, in a fixed order, without duplicates."""
    doc = json.loads(VECTORS.read_text(encoding="utf-8"))
    inputs: list[bytes] = [bytes.fromhex(v["hex"]) for v in doc["valid"]]
    # Invalid vectors with options (max_size, max_depth) judge the defaults here.
    inputs += [bytes.fromhex(v["hex"]) for v in doc["invalid"] if "options" not in v]
    for vector in doc["valid"]:
        data = bytes.fromhex(vector["hex"])
        if len(data) > 300:
            continue
        inputs.append(data + b"\x00")
        for i in range(len(data)):
            inputs.append(data[:i] + data[i + 1 :])
            inputs.append(data[:i] + b"\x00" + data[i:])
            inputs.extend(data[:i] + bytes([data[i] ^ flip]) + data[i + 1 :] for flip in FLIPS)
    for opener in (b"\x81", b"\xa1\x61\x61", b"\x81\xa1\x61\x61"):
        inputs.append(opener * 100_000 + b"\x00")
    rnd = random.Random(20241122)  # noqa: S311 (fixed seed: the same corpus every run)
    for _ in range(3000):
        size = rnd.randint(1, 12)
        inputs.append(bytes(rnd.choice(INTERESTING) for _ in range(size)))
    seen: set[bytes] = set()
    unique = []
    for data in inputs:
        if data not in seen:
            seen.add(data)
            unique.append(data)
    return unique


def in_model(value: Any, depth: int = 0) -> bool:
    """True if ``value`` is in the por-cbor/1 data model with nesting <= MAX_DEPTH."""
    kind = type(value)
    if kind is bool or kind is bytes or kind is str:
        return True
    if kind is int:
        return -(2**64) <= value <= 2**64 - 1
    if kind is list or kind is dict:
        if depth + 1 > MAX_DEPTH:
            return False
        if kind is list:
            return all(in_model(item, depth + 1) for item in value)
        return all(type(k) is str and in_model(v, depth + 1) for k, v in value.items())
    return False


def cbor2_strict(data: bytes) -> tuple[bool, Any]:
    """(accepted, value) by the cbor2 oracle described in the module docstring."""
    if not data:
        return False, None
    stream = io.BytesIO(data)
    try:
        decoder = cbor2.CBORDecoder(stream, allow_indefinite=False, allow_duplicate_keys=False)
        value = decoder.decode()
    except Exception:  # the oracle's own error types vary; any failure is a reject
        return False, None
    if stream.tell() != len(data) or not in_model(value):
        return False, None
    if cbor2.dumps(value, canonical=True) != data:
        return False, None
    return True, value
