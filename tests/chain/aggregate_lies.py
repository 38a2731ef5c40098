"""Forged ``aggregate`` steps and what they read (issue 24 item 2): edits of the
aggregate's description and output, of its cited extract steps (claims, cards), of its
cited check chunk's running state and of the PromptSpec fields it reads (SPEC §12.5.4,
§14.8); about half the time the aggregate is then rewritten from what it cites by por's
own ``recompute_step``, so consistent forgeries (lost) are compared as often as lies."""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from bundle_edits import recommit, steps_of

from por.auditor.steps import recompute_step
from por.bundle.layout import Bundle
from por.encoding import decode, encode
from por.errors import PorError
from por.numbers import is_canonical_decimal
from por.schemas import PromptSpec, ReasoningStep

#: Decimals a forger may write: edges of SPEC §3.2 (64 characters, non-canonical forms).
DECIMALS = ["0", "-0", "1.50", "1.5", "-0.5", "01", "9" * 64, "9" * 65, "-" + "9" * 63,
            "0." + "0" * 61 + "1", "-0." + "0" * 60 + "1", "251.4", "251.42", "100", "1e5"]
BAD = [False, True, 1, -1, "", "x", [], {}, 2**63, b"\x00"]


def aggregates(bundle: Bundle) -> list[int]:
    """Leaf indices of the aggregate steps."""
    return steps_of(bundle, "aggregate")


def _index(step_id: Any) -> int | None:
    if isinstance(step_id, str) and step_id.startswith("step_") and step_id[5:].isdigit():
        return int(step_id[5:]) - 1
    return None


def rewrite(spec: bytes, steps: list[bytes], index: int) -> bytes | None:
    """The aggregate at ``index`` recomputed from what it cites, if it can be."""
    try:
        prompt = PromptSpec.from_cbor(spec)
        step = ReasoningStep.from_cbor(steps[index])
        prior = {}
        for sid in step.prior_step_ids:
            at = _index(sid)
            if at is None or at >= len(steps):
                return None
            prior[sid] = ReasoningStep.from_cbor(steps[at])
        return bytes(recompute_step(prompt, step, {}, prior).to_cbor())
    except (PorError, KeyError, IndexError, TypeError, ValueError):
        return None


def _pick(rng: random.Random, values: list[Any]) -> Any:
    return values[rng.randrange(len(values))]


def edit_output(out: dict[str, Any], rng: random.Random) -> None:
    """One edit of an aggregate's output."""
    fields = out.get("fields") or []
    edit = rng.randrange(14)
    if edit < 7 and fields:
        f = _pick(rng, fields)
        key = _pick(rng, ["status", "value", "candidates", "claim_ids", "evidence_ids",
                          "quorum", "votes", "fallback_used", "key", "kind"])
        if key == "status":
            f["status"] = _pick(rng, ["selected", "missing", "insufficient", "no_quorum", "x"])
        elif key == "value":
            f["value"] = _pick(rng, [*DECIMALS, True, False, 0, 1788206400, "yes"])
        elif key == "candidates":
            f["candidates"] = max(0, int(f.get("candidates", 0)) + _pick(rng, [-1, 1]))
        elif key in ("claim_ids", "evidence_ids"):
            ids = list(f.get(key) or [])
            if ids and rng.random() < 0.4:
                ids.reverse() if len(ids) > 1 else ids.pop()
            else:
                ids.append(_pick(rng, ["cl_x", "ev-x", *ids[:1]]))
            f[key] = ids
        elif key == "quorum":
            q = dict(f.get("quorum") or {"required": 1, "agreeing": 1, "met": True})
            sub = _pick(rng, ["required", "agreeing", "met", None])
            if sub is None:
                f.pop("quorum", None)
                return
            q[sub] = (not q.get("met")) if sub == "met" else int(q.get(sub, 0)) + 1
            f["quorum"] = q
        elif key == "votes":
            votes = list(f.get("votes") or [])
            if votes:
                votes.pop() if rng.random() < 0.5 else votes.reverse()
                f["votes"] = votes
            else:
                f["votes"] = [{"value": "1", "source_id": "s", "evidence_id": "e"}]
        elif key == "fallback_used":
            f["fallback_used"] = not f.get("fallback_used")
        elif key == "key":
            f["key"] = f.get("key", "") + "x"
        else:
            f["kind"] = _pick(rng, ["numeric", "boolean", "timestamp", "text"])
    elif edit == 7 and len(fields) > 1:
        fields.reverse()
    elif edit == 8 and fields:
        fields.pop()
    elif edit == 9:
        used = list(out.get("sources_used") or [])
        if used:
            used.pop() if rng.random() < 0.5 else used.reverse()
        else:
            used.append("ev-x")
        out["sources_used"] = used
    elif edit == 10:
        name = _pick(rng, ["covered", "provenance_ok", "fallback_used"])
        out[name] = not out.get(name)
    elif edit == 11:
        name = _pick(rng, ["item_count", "last_leaf"])
        if name == "last_leaf" and "last_leaf" in out and rng.random() < 0.5:
            del out["last_leaf"]
        else:
            out[name] = int(out.get(name, 0)) + 1
    elif edit == 12:
        out["strategy"] = _pick(rng, ["single_best", "multi_source_quorum", "fallback_chain"])
    else:
        out[_pick(rng, ["extra", "requirement_id"])] = "r_other"


def edit_claims(output: dict[str, Any], rng: random.Random, near: list[str]) -> None:
    """One edit of an extract step's output: its claims or its card."""
    claims = output.get("claims")
    card = output.get("card")
    edit = rng.randrange(10)
    if edit < 4 and isinstance(claims, list) and claims:
        c = _pick(rng, claims)
        if c.get("kind") == "numeric":
            c["value"] = _pick(rng, [*near, *DECIMALS]) if rng.random() < 0.9 else _pick(rng, BAD)
        elif c.get("kind") == "boolean":
            c["value"] = (not c.get("value")) if rng.random() < 0.8 else _pick(rng, BAD)
        elif c.get("kind") == "timestamp":
            c["value"] = _pick(rng, [0, 1, 2**63 - 1, 2**63, -1, "1", int(c.get("value", 0)) + 60])
        else:
            c["value"] = _pick(rng, ["yes", "", 1, c.get("value", "")])
    elif edit == 4 and isinstance(claims, list) and claims:
        c = dict(_pick(rng, claims))
        c["claim_id"] = c.get("claim_id", "") + "_2"
        c["value"] = _pick(rng, near) if c.get("kind") == "numeric" else c.get("value")
        claims.insert(rng.randrange(len(claims) + 1), c)  # a second claim of one key
    elif edit == 5 and isinstance(claims, list) and claims:
        c = _pick(rng, claims)
        name = _pick(rng, ["key", "kind", "claim_id", "path"])
        if rng.random() < 0.3:
            c.pop(name, None)
        else:
            c[name] = _pick(rng, ["text", "numeric", "boolean", "x", 1]) if name == "kind" \
                else c.get(name, "") + "z"
    elif edit == 6 and isinstance(claims, list):
        if claims and rng.random() < 0.5:
            claims.pop(rng.randrange(len(claims)))
        else:
            output["claims"] = _pick(rng, [[], {}, "x", [1]])
    elif isinstance(card, dict):
        name = _pick(rng, ["source_id", "status_code", "retrieved_at", "confidence_bps",
                           "provenance_tier"])
        if edit == 7:
            card["provenance_tier"] = rng.randrange(4)  # highest_provenance ties and orders
        elif edit == 8:
            card[name] = _pick(rng, [*BAD, 99, 100, 599, 600, 3, 4, 10000, 10001])
        elif rng.random() < 0.5:
            card.pop(name)
        else:
            output[_pick(rng, ["evidence_id", "requirement_id"])] = _pick(rng, ["ev-x", 1])


def edit_state(out: dict[str, Any], rng: random.Random) -> None:
    """One edit of a check chunk's running state."""
    edit = rng.randrange(9)
    sources = out.get("sources") or []
    groups = out.get("groups") or []
    if edit == 0:
        out["covered"] = not out.get("covered")
    elif edit == 1:
        name = _pick(rng, ["admitted_count", "item_count", "claim_count", "chunk", "last_leaf"])
        out[name] = _pick(rng, [0, 1, int(out.get(name, 0)) + 1, 2**63, -1, "1"])
    elif edit == 2 and sources:
        s = _pick(rng, sources)
        s[_pick(rng, ["source_id", "evidence_id", "step_id"])] = _pick(rng, ["x", 1, "step_0001"])
    elif edit == 3 and len(sources) > 1:
        sources.reverse() if rng.random() < 0.5 else sources.append(dict(sources[0]))
    elif edit == 4 and groups:
        g = _pick(rng, groups)
        ref = g.get("min") or g.get("first")
        if isinstance(ref, dict):
            ref["value"] = _pick(rng, [*DECIMALS, True, 1])
    elif edit == 5 and groups:
        g = _pick(rng, groups)
        if g.get("kind") == "boolean" and "first" in g:
            g["other"] = dict(g["first"])  # other with first's value
        else:
            g["claim_count"] = _pick(rng, [0, 1, -1])
    elif edit == 6 and groups:
        groups.append(dict(groups[0]))
    elif edit == 7:
        out.pop(_pick(rng, ["last_leaf", "sources", "groups", "provenance_ok", "requirement_id"]),
                None)
    else:
        out["provenance_ok"] = not out.get("provenance_ok", True)


def tolerances(steps: list[dict[str, Any]], rid: str) -> list[str]:
    """|a - b| of the claim values of a requirement's extract steps: exact boundaries."""
    values = []
    for s in steps:
        out = s.get("output") or {}
        if s.get("inputs", {}).get("kind") == "extract_claims" and out.get("requirement_id") == rid:
            values += [Decimal(c["value"]) for c in out.get("claims", [])
                       if c.get("kind") == "numeric"]
    found = {format(abs(a - b).normalize(), "f") for a in values[:6] for b in values[:6]}
    return sorted(x.rstrip("0").rstrip(".") if "." in x else x for x in found)


def edit_spec(spec: dict[str, Any], rng: random.Random, rid: str, near: list[str]) -> None:
    """One edit of the PromptSpec fields an aggregate reads (valid or not)."""
    req = next((r for r in spec["data_requirements"] if r["requirement_id"] == rid),
               spec["data_requirements"][0])
    policy = req["selection_policy"]
    edit = rng.randrange(9)
    if edit == 0:
        policy["strategy"] = _pick(rng, ["single_best", "multi_source_quorum", "fallback_chain",
                                         "majority"])
    elif edit == 1:
        policy["tie_breaker"] = _pick(rng, ["highest_provenance", "source_order", "first"])
    elif edit == 2:
        policy["min_sources"] = _pick(rng, [1, 2, 3, 4, 0, 65])
        policy["quorum"] = _pick(rng, [1, 2, 3, 0, policy["min_sources"]])
    elif edit == 3:
        spec["conflict_policy"]["numeric_tolerance"] = _pick(
            rng, [*near, *near, "0", "0.05", "10", "-1", "1.50", "9" * 64])
    elif edit == 4:
        semantics = spec["prediction_semantics"]
        semantics["sources_required"] = _pick(rng, [1, 2, 0, 65, "2"])
        if rng.random() < 0.3:
            semantics.pop("sources_required")
    elif edit == 5:
        fields = req.get("expected_fields") or []
        semantics = spec["prediction_semantics"]
        if fields and rng.random() < 0.5:
            semantics["metric"] = _pick(rng, fields)["key"]
            semantics["sources_required"] = 1
        else:
            semantics["metric"] = _pick(rng, ["", "other", 5])
    elif edit == 6:
        fields = req.get("expected_fields") or []
        choice = rng.randrange(4)
        if choice == 0 and len(fields) > 1:
            fields.reverse()
        elif choice == 1 and fields:
            fields.pop()
        elif choice == 2 and fields:
            _pick(rng, fields)["kind"] = _pick(rng, ["numeric", "boolean", "timestamp", "text",
                                                     "number"])
        else:
            req["expected_fields"] = [] if rng.random() < 0.7 else fields + fields[:1]
    elif edit == 7:
        targets = req["source_targets"]
        if len(targets) > 1 and rng.random() < 0.7:
            targets.reverse()
        else:
            targets.append(dict(targets[0]))
    else:
        req["requirement_id"] = _pick(rng, [rid + "x", ""])


def _id(value: Any) -> bool:
    return type(value) is str and 1 <= len(value) <= 128


def _in(value: Any, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def read_fields_ok(spec: dict[str, Any], rid: str) -> bool:
    """The PromptSpec fields the chain reads for an aggregate of ``rid`` are well formed
    (SPEC §14.8): a spec failing another rule only is won off chain and goes to the
    court path, so the differential cases keep spec edits that are valid or break a
    read field."""
    tolerance = (spec.get("conflict_policy") or {}).get("numeric_tolerance")
    semantics = spec.get("prediction_semantics") or {}
    if not (type(tolerance) is str and is_canonical_decimal(tolerance)
            and not tolerance.startswith("-")) or not _id(semantics.get("metric")):
        return False
    if "sources_required" in semantics and not _in(semantics["sources_required"], 1, 64):
        return False
    requirements = spec.get("data_requirements")
    if not isinstance(requirements, list) or not 1 <= len(requirements) <= 8 or not all(
            isinstance(r, dict) and _id(r.get("requirement_id")) for r in requirements):
        return False
    ids = [r["requirement_id"] for r in requirements]
    if len(set(ids)) != len(ids):
        return False
    req = next((r for r in requirements if r["requirement_id"] == rid), None)
    if req is None:
        return True
    policy = req.get("selection_policy") or {}
    targets = req.get("source_targets")
    fields = req.get("expected_fields")
    return (policy.get("strategy") in ("single_best", "multi_source_quorum", "fallback_chain")
            and _in(policy.get("min_sources"), 1, 64) and _in(policy.get("quorum"), 1, 64)
            and not (policy["strategy"] == "multi_source_quorum"
                     and policy["quorum"] > policy["min_sources"])
            and policy.get("tie_breaker") in ("highest_provenance", "source_order")
            and isinstance(targets, list) and 1 <= len(targets) <= 10
            and all(isinstance(t, dict) and _id(t.get("source_id")) for t in targets)
            and len({t["source_id"] for t in targets}) == len(targets)
            and isinstance(fields, list) and len(fields) <= 8
            and all(isinstance(f, dict) and _id(f.get("key"))
                    and f.get("kind") in ("boolean", "numeric", "timestamp", "text")
                    for f in fields)
            and len({f["key"] for f in fields}) == len(fields))


def _valid(spec: bytes) -> bool:
    try:
        PromptSpec.from_cbor(spec)
    except PorError:
        return False
    return True


def forge(bundle: Bundle, rng: random.Random) -> tuple[Bundle, int]:
    """The bundle with one aggregate, what it cites or the PromptSpec edited (and, about
    half the time, the aggregate recomputed), every commitment recomputed."""
    index = _pick(rng, aggregates(bundle))
    steps = [decode(s) for s in bundle.steps]
    agg = steps[index]
    rid = agg["inputs"]["requirement_id"]
    cited = [i for i in (_index(p) for p in agg["prior_step_ids"]) if i is not None]
    near = tolerances(steps, rid)
    spec = decode(bundle.prompt_spec)
    target = rng.randrange(10)
    if target < 3:
        edit_output(agg["output"], rng) if rng.random() < 0.85 else agg.update(
            description=agg["description"] + _pick(rng, [" ", "x"]))
    elif target < 6 and len(cited) > 1:
        edit_claims(steps[_pick(rng, cited[:-1])]["output"], rng, near)
    elif target < 8 and cited:
        edit_state(steps[cited[-1]]["output"], rng)
    else:
        edit_spec(spec, rng, rid, near)
    raw = [encode(s) for s in steps]
    spec_bytes = encode(spec)
    if not _valid(spec_bytes) and read_fields_ok(spec, rid):
        spec_bytes = bundle.prompt_spec  # another rule broken: the court path's case
    if target >= 3 and rng.random() < 0.85:
        raw[index] = rewrite(spec_bytes, raw, index) or raw[index]
    return recommit(bundle, steps=raw, prompt_spec=spec_bytes), index
