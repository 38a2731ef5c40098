"""Check chunks and their lies, without an EVM (moved from ``test_onchain_check``, shared
by the chain tests and ``tests/unit/forms/test_execute_check_aggregate.py``): the chunks
of a bundle, one edit of a chunk's output or of a cited extract step's, a forged bundle,
and a market whose first requirement has ``count`` items (several chunks)."""

from __future__ import annotations

import random
from typing import Any

from bundle_edits import recommit, recomputed

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.encoding import decode, encode
from por.scenarios import load_scenario

KIND = "check_requirement"


def _kind(raw: bytes) -> Any:
    return decode(raw).get("inputs", {}).get("kind")


def chunks_of(bundle: Bundle) -> list[int]:
    return [i for i, s in enumerate(bundle.steps) if _kind(s) == KIND]


def edit_output(out: dict[str, Any], rng: random.Random) -> None:
    """One edit of a check chunk's output."""
    edit = rng.randrange(14)
    items = out.get("items") or []
    if edit == 0:
        key = rng.choice(["item_count", "admitted_count", "claim_count", "chunk", "last_leaf",
                          "from_leaf"])
        out[key] = rng.choice([0, 1, 9, 10, 11, 2**63 - 1, -1, "1", True])
    elif edit == 1:
        key = rng.choice(["covered", "provenance_ok"])
        out[key] = rng.choice([not out.get(key, False), 1, "true"])
    elif edit == 2 and items:
        item = rng.choice(items)
        reasons = item["reasons"]
        choice = rng.randrange(4)
        if choice == 0 and len(reasons) >= 2:
            reasons.reverse()
        elif choice == 1 and reasons:
            reasons.pop()
        elif choice == 2:
            reasons.append(rng.choice(["sanity.http_status", "sanity.provenance",
                                       "gate.agent_name"]))
        else:
            item["admitted"] = not item["admitted"]
    elif edit == 3 and items:
        item = rng.choice(items)
        item["observed_at"] = rng.choice([0, item["observed_at"] + 1, 2**63 - 1])
        if rng.random() < 0.3:
            item["observed_from"] = "claim" if item["observed_from"] == "receipt" else "receipt"
    elif edit == 4 and out.get("groups"):
        group = rng.choice(out["groups"])
        if group["kind"] == "numeric":
            group["min"], group["max"] = group["max"], group["min"]
        else:
            group["claim_count"] += 1
    elif edit == 5:
        sources = out.get("sources") or []
        if sources and rng.random() < 0.5:
            sources.pop()
        else:
            sources.append({"source_id": "zz-new", "evidence_id": "ev-x", "step_id": "step_0001"})
        out["sources"] = sources
    elif edit == 6:
        out["window"] = {"start": out["window"]["start"] + 1, "end": out["window"]["end"]}
    elif edit == 7:
        out["requirement_id"] = "req_other"
    elif edit == 8 and items:
        items.append(dict(items[0]))
    elif edit == 9:
        out["extra"] = 1
    else:
        out.pop(rng.choice(["groups", "sources", "window", "items", "last_leaf"]), None)


def edit_extract(out: dict[str, Any], rng: random.Random) -> None:
    """One edit of a cited extract step's output (its card or claims)."""
    card = out.get("card", {})
    edit = rng.randrange(9)
    if edit == 0:
        card["status_code"] = rng.choice([100, 599, 200, 299, 300, 404, 500, 99, 600])
    elif edit == 1:
        card["confidence_bps"] = rng.choice([0, 10000, 10001, -1])
    elif edit == 2:
        card["provenance_tier"] = rng.choice([0, 1, 2, 3, 4])
    elif edit == 3:
        card["retrieved_at"] = rng.choice([0, 1, 2**63 - 1, 2**63, 1794178800])
    elif edit == 4:
        card["source_id"] = rng.choice(["", " ", "\u3000\u2028", "\ufeff", "zz-other", 5,
                                        "lumen-academy"])
    elif edit == 5:
        card.pop(rng.choice(list(card) or ["x"]), None)
    elif edit == 6:
        claims = out.get("claims") or []
        claims.append({"claim_id": "c-new", "kind": rng.choice(["numeric", "boolean",
                                                                "timestamp", "text", "date"]),
                       "key": rng.choice(["value", "price", "result", "timestamp", "k"]),
                       "path": "$.x",
                       "value": rng.choice(["1.5", "-2", "01", True, False, 0, 1794178800,
                                            2**63, "x"])})
        out["claims"] = claims
    elif edit == 7 and out.get("claims"):
        claim = rng.choice(out["claims"])
        if claim["kind"] == "numeric":
            claim["value"] = rng.choice(["0", "-0.5", "1e5", "99999.25", "-3"])
        elif claim["kind"] == "boolean":
            claim["value"] = not claim["value"]
        elif claim["kind"] == "timestamp":
            claim["value"] = rng.choice([0, 1794178800, 2**63 - 1])
    else:
        out["requirement_id"] = "req_other"


def forge(bundle: Bundle, index: int, rng: random.Random) -> Bundle:
    steps = list(bundle.steps)
    step = decode(steps[index])
    target = index
    if rng.random() < 0.5 and step["prior_step_ids"]:
        target = int(rng.choice(step["prior_step_ids"])[5:]) - 1
        cited = decode(steps[target])
        if _kind(steps[target]) == KIND:
            edit_output(cited["output"], rng)
        else:
            edit_extract(cited["output"], rng)
        steps[target] = encode(cited)
    elif rng.random() < 0.85:
        edit_output(step["output"], rng)
        steps[index] = encode(step)
    else:
        edit = rng.randrange(5)
        others = [i for i in chunks_of(bundle) if decode(steps[i])["inputs"]["requirement_id"]
                  != step["inputs"]["requirement_id"] and i < index]
        if edit == 4 and others:  # P of another requirement
            step["prior_step_ids"] = [*[p for p in step["prior_step_ids"]
                                        if _kind(steps[int(p[5:]) - 1]) != KIND],
                                      f"step_{rng.choice(others) + 1:04d}"]
        elif edit == 0:
            step["description"] = step["description"].replace("chunk", "chunk ")
        elif edit == 1:
            step["evidence_ids"] = list(reversed(step["evidence_ids"]))
        elif edit == 2:
            step["prior_step_ids"] = list(reversed(step["prior_step_ids"]))
        else:
            step["inputs"] = {"kind": KIND, "requirement_id": "req_nowhere"}
        steps[index] = encode(step)
    if target != index and rng.random() < 0.6:
        steps[index] = recomputed(bundle, steps, index) or steps[index]
    return recommit(bundle, steps=steps)


def many_items(name: str, count: int) -> Bundle:
    """Scenario ``name`` with its first requirement's items repeated to ``count`` items
    (new evidence ids), so the requirement has several check chunks."""
    scenario = load_scenario(name)
    first = scenario.prompt_spec.data_requirements[0].requirement_id
    mine = [i for i in scenario.evidence.items if i.requirement_id == first]
    rest = [i for i in scenario.evidence.items if i.requirement_id != first]
    copies = [mine[k % len(mine)].model_copy(update={"evidence_id": f"ev-{k:03d}"})
              for k in range(count)]
    evidence = scenario.evidence.model_copy(update={"items": copies + rest})
    return bundle_from_bytes(build(scenario.prompt_spec, evidence).data)
