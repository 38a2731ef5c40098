"""The aggregate's claim lookup by key word (ADR 0013 "Addendum (s35, aggown)") agrees
with ``por check-proof``.

``PorAggregateRead`` matches a claim to R's expected field by one word per key (a key of
under 32 bytes: its bytes and length; longer: keccak256 with the low byte 0xff) and
stops at the first field of the claim's key (R's keys are unique). New ways to be wrong:
two keys equal in their first 31 bytes (one 31 bytes long, one 32 or 33), two 32-byte
keys differing only in their last byte, short keys differing in length or case, the
metric a long key (``votes``), a claim whose key matches a field but not its kind ahead
of one that matches both; claims of the five canonical keys (read in one straight pass)
and others (a sixth key, a near name, one missing, a non-text value). Each market's
extract steps get claims renamed to near keys, re-kinded, repeated, widened, cut; the
aggregate is recomputed from them (lost) or left (won when the votes change): the chain
and Python must give the same answer every time.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from aggregate_lies import aggregates, rewrite
from bundle_edits import recommit
from exec_support import ExecChecker
from test_onchain_aggregate import _factories

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.encoding import decode, encode

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorAggregateExec")

#: R's keys: 31, 32 and 33 bytes sharing 31; two 32-byte keys differing in the last byte;
#: a 32-byte key differing from the 31-byte one in its 31st byte; short keys near each other.
LONG = ["p" * 31, "p" * 32, "p" * 33, "p" * 31 + "q", "p" * 30 + "qp"]
SHORT = ["price", "pricE", "price_"]
KINDS = {"p" * 31: "numeric", "p" * 32: "numeric", "p" * 33: "numeric", "p" * 31 + "q": "text",
         "p" * 30 + "qp": "numeric", "price": "numeric", "pricE": "boolean", "price_": "numeric"}
STRATEGIES = (("single_best", 1, 1, "source_order"),
              ("single_best", 1, 1, "highest_provenance"),
              ("multi_source_quorum", 2, 2, "source_order"),
              ("fallback_chain", 1, 1, "source_order"))


def _value(kind: str, n: int) -> str:
    return {"numeric": str(100 + n % 2), "text": f'"t{n % 2}"', "boolean": "true"}[kind]


def market(keys: list[str], strategy: tuple[str, int, int, str], metric: str) -> Bundle:
    """Three sources, each writing every key of ``keys`` (R's fields), ``metric`` the
    prediction's metric with sources_required set (a votes list for it)."""
    f = _factories()
    sources = ["src_a", "src_b", "src_c"]
    name, min_sources, quorum, tie = strategy
    fields = [f.json_field(k, KINDS[k], "$." + k) for k in keys]
    requirement = f.requirement("r1", sources=sources, strategy=name, min_sources=min_sources,
                                quorum=quorum, tie_breaker=tie, fields=fields)
    spec = f.prompt_spec(requirements=[requirement], metric=metric, tolerance="0")
    spec = spec.model_copy(update={"prediction_semantics": spec.prediction_semantics.model_copy(
        update={"sources_required": 2})})
    items = []
    for n, s in enumerate(sources):
        body = "{" + ",".join(f'"{k}":{_value(KINDS[k], n)}' for k in keys) + "}"
        items.append(f.item(f"e{n}", body, source_id=s, tier=1 + n % 3))
    return bundle_from_bytes(build(spec, f.bundle(items)).data)


def near(key: str, rng: random.Random) -> str:
    """A key next to ``key``: one byte longer or shorter, its last or 31st byte or its
    first letter's case changed, or another of R's keys."""
    return rng.choice([key[:-1], key + "p", key[:-1] + "q", key[:30] + "q" + key[31:],
                       key[0].upper() + key[1:], rng.choice(LONG + SHORT)])


def edit_claims(claims: list[dict[str, Any]], rng: random.Random) -> None:
    """Renamed, re-kinded, repeated claims."""
    for _ in range(rng.randrange(1, 4)):
        c = rng.choice(claims)
        edit = rng.randrange(6)
        if edit == 0:
            c["key"] = near(str(c.get("key", "k")), rng)
        elif edit == 1:
            # the key's first claim of another kind, then one of its kind with another value
            other = dict(c, claim_id=str(c.get("claim_id")) + "_k")
            c["kind"], c["value"] = ("text", "x") if c.get("kind") != "text" else ("numeric", "7")
            claims.insert(claims.index(c) + 1, other)
        elif edit == 2:
            first = dict(c, claim_id=str(c.get("claim_id")) + "_f")
            first["value"] = "99" if c.get("kind") == "numeric" else c.get("value", "x")
            claims.insert(claims.index(c), first)
        elif edit == 3:
            rng.shuffle(claims)
        elif edit == 4:
            # a sixth entry, or one of the five with a near name or a non-text value: the
            # claim read by the entry loop, not the straight pass
            name = rng.choice(["keys", "kin", "valu", "claim_idx", "a", "zzzzzzzzzz", "path",
                               "value", "kind", "key", "claim_id"])
            c[name] = rng.choice(["x", 1, c.get("value", "x")])
        else:
            c.pop(rng.choice(["key", "kind", "path", "value", "claim_id"]), None)


def forged(bundle: Bundle, rng: random.Random) -> tuple[Bundle, int]:
    index = aggregates(bundle)[0]
    steps = [decode(s) for s in bundle.steps]
    extracts = [s for s in steps if s["step_type"] == "extract"]
    for s in rng.sample(extracts, rng.randrange(1, len(extracts) + 1)):
        edit_claims(s["output"]["claims"], rng)
    raw = [encode(s) for s in steps]
    if rng.random() < 0.5:
        raw[index] = rewrite(bundle.prompt_spec, raw, index) or raw[index]
    return recommit(bundle, steps=raw), index


def test_claims_matched_by_key_word() -> None:
    rng = random.Random(3535)  # noqa: S311 - seeded cases, not secrets
    sets = [LONG + SHORT[:3], LONG[:3] + SHORT, [LONG[1], LONG[3]], [LONG[0], LONG[4], SHORT[0]],
            [LONG[2], SHORT[1], SHORT[2]]]
    for keys in sets:
        for strategy in STRATEGIES:
            metric = next(k for k in keys if KINDS[k] == "numeric")
            if len(keys) > 3:
                metric = LONG[2] if LONG[2] in keys else metric
            bundle = market(keys[:8], strategy, metric)
            _CHAIN.compare(bundle, aggregates(bundle)[0], "keys.honest", COUNTS)
            for _ in range(12):
                b, index = forged(bundle, rng)
                _CHAIN.compare(b, index, "keys.forged", COUNTS)
    assert COUNTS["keys.honest"] == len(sets) * len(STRATEGIES)
    # both answers occur: recomputed aggregates lost, left ones won where votes moved
    assert COUNTS["id:one_step.unexecutable"] > 5, COUNTS  # malformed claims among them
    assert COUNTS["id:one_step.match"] > 20 and COUNTS["id:one_step.mismatch"] > 20, COUNTS
