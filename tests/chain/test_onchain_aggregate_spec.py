"""The aggregate's one walk of each requirement (ADR 0013 "Addendum (s36, agg4)") agrees
with ``por check-proof``.

``PorAggregateSpec`` walks each data requirement once: requirement_id (an Id, hashed for
the uniqueness check) comes first in §2 order, so R's selection_policy, source_targets
and expected_fields are read in the same walk, each array by its own check, which gives
its end; the other requirements' values are skipped. New ways to be wrong: R among
several requirements (first, middle, last), ids near R's (one byte longer, shorter,
another case), a repeated id (R's or another's), another requirement's id not an Id,
optional keys absent, the other requirements' targets and fields changed, R missing;
R's targets and fields (each read by one walk of its map, which gives its end) not maps,
without the key read or beside long keys; the tolerance and the metric absent.
No fixture market has two requirements: these markets have three (one aggregate each),
the PromptSpec edited, the aggregate recomputed (lost) or left; the chain and Python
must give the same answer every time.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from aggregate_lies import _valid, aggregates, read_fields_ok, rewrite
from bundle_edits import recommit
from eth_abi import encode as abi_encode
from exec_support import ExecChecker
from proof_check_support import message_call
from test_onchain_aggregate import _factories

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.encoding import decode, encode
from por.signing.eip712 import keccak256

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorAggregateExec")
RIDS = ["r1", "r2", "r3"]


def market(strategy: str, tie: str) -> Bundle:
    """Three requirements, each of two or three sources of its own, each source writing
    its requirement's fields."""
    f = _factories()
    requirements = []
    items = []
    for n, rid in enumerate(RIDS):
        sources = [f"s{rid}_{k}" for k in range(2 + n % 2)]
        keys = ["price", f"vol_{rid}"][: 1 + n % 2]
        fields = [f.json_field(k, "numeric", "$." + k) for k in keys]
        requirements.append(f.requirement(rid, sources=sources, strategy=strategy, min_sources=1,
                                          quorum=1, tie_breaker=tie, fields=fields))
        for k, s in enumerate(sources):
            body = "{" + ",".join(f'"{key}":{100 + k}' for key in keys) + "}"
            items.append(f.item(f"e{rid}{k}", body, requirement_id=rid, source_id=s, tier=k % 4))
    spec = f.prompt_spec(requirements=requirements, metric="price", tolerance="0")
    return bundle_from_bytes(build(spec, f.bundle(items)).data)


def edit(spec: dict[str, Any], rid: str, rng: random.Random) -> int:
    """One edit of the data requirements around R (valid or not): its number."""
    reqs = spec["data_requirements"]
    mine = next(r for r in reqs if r["requirement_id"] == rid)
    other = rng.choice([r for r in reqs if r is not mine])
    choice = rng.randrange(13)
    if choice == 0:
        rng.shuffle(reqs)
    elif choice == 12:
        decorate(rng.choice([mine, other]), rng)
        if rng.random() < 0.5:
            rng.shuffle(reqs)
    elif choice == 10:
        # one of R's targets or fields not a map, or without the key read (each read by
        # one walk of its map, which also gives its end)
        k = rng.randrange(2)
        items = mine["source_targets"] if k == 0 else mine["expected_fields"]
        at = rng.randrange(len(items))
        items[at] = rng.choice(["x", 5, {}, {"uri": "https://a.example", "z" * 40: "x"},
                                {"key": "price"}, {"kind": "numeric", "json_path": "$.p"},
                                dict(items[at], **{"a" * 32: 1, "b" * 24: [1, {"c": 2}]})])
    elif choice == 11:
        # the tolerance and the metric read from their maps (absent, or beside long keys)
        edit_maps = rng.randrange(3)
        if edit_maps == 0:
            spec["conflict_policy"].pop("numeric_tolerance")
        elif edit_maps == 1:
            spec["prediction_semantics"].pop("metric")
        else:
            spec["prediction_semantics"]["s" * 33] = "x"
            spec["conflict_policy"]["n" * 17] = "0"
    elif choice == 9:
        # R's own policy changed (the aggregate moves unless recomputed), R anywhere
        policy = mine["selection_policy"]
        policy["strategy"] = rng.choice(["single_best", "multi_source_quorum", "fallback_chain"])
        policy["tie_breaker"] = rng.choice(["source_order", "highest_provenance"])
        rng.shuffle(reqs)
    elif choice == 1:
        # a copy of R under an id near R's, anywhere
        copy = dict(mine, requirement_id=rng.choice([rid + "x", rid[:-1], rid.upper(), rid + rid]))
        reqs.insert(rng.randrange(len(reqs) + 1), copy)
    elif choice == 2:
        other["requirement_id"] = rid  # R's id twice: invalid_record
        rng.shuffle(reqs)
    elif choice == 3:
        other["requirement_id"] = rng.choice(["", "x" * 129, 7])
    elif choice == 4:
        for r in rng.sample(reqs, rng.randrange(1, len(reqs) + 1)):
            r.pop(rng.choice(["description", "min_provenance_tier"]), None)
    elif choice == 5:
        other["source_targets"] = [*other["source_targets"][::-1], dict(mine["source_targets"][0])]
        other["expected_fields"] = rng.choice([[], mine["expected_fields"]])
    elif choice == 6:
        other["selection_policy"] = dict(other["selection_policy"], strategy="fallback_chain")
    elif choice == 7:
        mine["requirement_id"] = rid + "_gone"
    else:
        while len(reqs) < 8:
            reqs.append(dict(other, requirement_id=f"z{len(reqs)}"))
        if rng.random() < 0.5:
            reqs.append(dict(other, requirement_id="z9"))  # nine: invalid_record
        rng.shuffle(reqs)
    return choice


def decorate(req: dict[str, Any], rng: random.Random) -> None:
    """Valid nested maps and arrays the walks skip: a field's number_format, value_map and
    per_source, the requirement's accepted_status_codes."""
    field = rng.choice(req["expected_fields"])
    field["number_format"] = {"currency": "USD", "scale_suffixes": True}
    field["value_map"] = {"normalise": "trim", "entries": [{"printed": "n/a", "value": "0"}],
                          "others": "convert"}
    field["per_source"] = [{"source_id": req["source_targets"][0]["source_id"],
                            "json_path": "$." + field["key"]}]
    req["accepted_status_codes"] = [200, 203]
    if rng.random() < 0.5:
        req["source_targets"][0]["method"] = "POST"


def forged(bundle: Bundle, rng: random.Random) -> tuple[Bundle, int]:
    index = rng.choice(aggregates(bundle))
    steps = [decode(s) for s in bundle.steps]
    rid = steps[index]["inputs"]["requirement_id"]
    spec = decode(bundle.prompt_spec)
    edited = edit(spec, rid, rng)
    spec_bytes = encode(spec)
    if edited == 12:
        assert _valid(spec_bytes)  # the decorations are valid: the case is compared
    if not _valid(spec_bytes) and read_fields_ok(spec, rid):
        spec_bytes = bundle.prompt_spec  # another rule broken: the court path's case
    raw = [encode(s) for s in steps]
    if rng.random() < 0.5:
        raw[index] = rewrite(spec_bytes, raw, index) or raw[index]
    return recommit(bundle, steps=raw, prompt_spec=spec_bytes), index


def test_requirements_walked_once() -> None:
    rng = random.Random(3636)  # noqa: S311 - seeded cases, not secrets
    for strategy, tie in (("single_best", "source_order"),
                          ("multi_source_quorum", "highest_provenance"),
                          ("fallback_chain", "source_order")):
        bundle = market(strategy, tie)
        assert len(aggregates(bundle)) == len(RIDS)
        for index in aggregates(bundle):
            _CHAIN.compare(bundle, index, "spec.honest", COUNTS)
        for _ in range(60):
            b, index = forged(bundle, rng)
            _CHAIN.compare(b, index, "spec.forged", COUNTS)
    assert COUNTS["spec.honest"] == 3 * len(RIDS)
    for outcome in ("match", "mismatch", "invalid_record", "unexecutable"):
        assert COUNTS[f"id:one_step.{outcome}"] > 3, COUNTS


def _word(n: int) -> bytes:
    return n.to_bytes(32, "big")


@pytest.mark.parametrize("handed", [
    b"",  # no words: the counts read as 0, the leaves' length word past the end
    _word(0) * 2 + _word(2**251 - 1),  # a length whose byte size wraps past 2^256
    _word(0) * 2 + _word(70_000),  # a length past 65 535 words
    _word(0) * 2 + _word(0) * 4 + _word(7),  # a word left over
])
def test_reader_refuses_words_it_was_not_handed(handed: bytes) -> None:
    """The reader reverts on words ``PorAggregateWire.handOver`` cannot write (only the
    executor calls it; anyone may)."""
    getter = keccak256(b"READER()")[:4]
    reader = "0x" + message_call(_CHAIN.evm, _CHAIN.address, getter)[0][-20:].hex()
    call = keccak256(b"run(bytes,bytes)")[:4] + abi_encode(["bytes", "bytes"], [b"\xa0", handed])
    with pytest.raises(RuntimeError):
        message_call(_CHAIN.evm, reader, call)
