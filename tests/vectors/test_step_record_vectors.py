"""Step record vectors from fixtures/vectors/step_records.json (SPEC §12.5.2-§12.5.7).

The committed file equals the generator's output, and every `check_requirement`,
`aggregate`, `contradictions`, `deduce` and `map` record is re-derived here from
SPEC's rules alone (§12.4.1, §12.5.2-§12.5.7), from the vector's PromptSpec, item
metadata and extract outputs, with only the `por-cbor/1` encoder (§2) borrowed.
"""

from __future__ import annotations

import json
from decimal import Context, Decimal
from pathlib import Path
from typing import Any

import pytest
from vector_generators import load_generator

from por.encoding import encode

VECTORS = Path(__file__).resolve().parents[2] / "fixtures" / "vectors"
DATA: dict[str, Any] = json.loads((VECTORS / "step_records.json").read_text(encoding="utf-8"))
EXACT = Context(prec=1000)
FALLBACK = [("result", "boolean"), ("value", "numeric"), ("price", "numeric"),
            ("timestamp", "timestamp")]
VARIABLES = ("event_observed", "numeric_value", "timestamp", "conflict_detected",
             "insufficient_evidence", "fallback_used", "provenance_ok", "source_summary")


def test_committed_file_is_the_generators_output() -> None:
    gen = load_generator("gen_step_records")
    assert (VECTORS / "step_records.json").read_text(encoding="utf-8") == gen.render()


def _step(record: dict[str, Any], step_type: str, description: str, inputs: dict[str, Any],
          output: dict[str, Any], *, evidence_ids: list[str] | None = None) -> dict[str, Any]:
    return {"schema": "por.ReasoningStep/1", "step_id": record["step_id"],
            "step_type": step_type, "description": description,
            "evidence_ids": record["evidence_ids"] if evidence_ids is None else evidence_ids,
            "prior_step_ids": record["prior_step_ids"], "inputs": inputs, "output": output}


BLANK = {0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B),
         0x2028, 0x2029, 0x202F, 0x205F, 0x3000}


class Market:
    def __init__(self, vector: dict[str, Any]) -> None:
        self.spec = vector["prompt_spec"]
        self.extracts = vector["extract_outputs"]
        self.steps = {s["record"]["step_id"]: s["record"] for s in vector["steps"]}

    def requirement(self, rid: str) -> dict[str, Any]:
        return next(r for r in self.spec["data_requirements"] if r["requirement_id"] == rid)

    def claims(self, record: dict[str, Any]) -> list[list[dict[str, Any]]]:
        extract_ids = [s for s in record["prior_step_ids"] if s in self.extracts]
        return [self.extracts[s]["claims"] for s in extract_ids]

    def cards(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        """SPEC §12.5.2: later steps read the k-th cited item through the card of
        the k-th cited extract step, never the item; in the item's own shape here."""
        extract_ids = [s for s in record["prior_step_ids"] if s in self.extracts]
        return [{"evidence_id": self.extracts[s]["evidence_id"],
                 "source": {"source_id": self.extracts[s]["card"]["source_id"]},
                 "retrieval_receipt": {"retrieved_at": c["retrieved_at"],
                                       "status_code": c["status_code"]},
                 "provenance_tier": c["provenance_tier"], "confidence_bps": c["confidence_bps"]}
                for s, c in ((s, self.extracts[s]["card"]) for s in extract_ids)]

    def check(self, record: dict[str, Any]) -> dict[str, Any]:
        rid = record["inputs"]["requirement_id"]
        req = self.requirement(rid)
        window, slack = self.spec["market"]["resolution_window"], self.spec.get(
            "timestamp_slack_seconds", 0)
        low, high = max(0, window["start"] - slack), window["end"] + slack
        semantics = self.spec["prediction_semantics"]
        skip = semantics["metric"] if semantics["predicate"] == "timestamp_threshold" else None
        codes = req.get("accepted_status_codes")
        before = record["prior_step_ids"][-1:]
        prior = self.steps[before[0]]["output"] if before and before[0] in self.steps else None
        out = []
        for eid, claims, item in zip(record["evidence_ids"], self.claims(record),
                                     self.cards(record), strict=True):
            sid = item["source"]["source_id"]
            stamp = next((c["value"] for c in claims if c["kind"] == "timestamp"
                          and type(c["value"]) is int and c["key"] != skip), None)
            observed, origin = ((stamp, "claim") if stamp is not None else
                                (item["retrieval_receipt"]["retrieved_at"], "receipt"))
            status = item["retrieval_receipt"]["status_code"]
            tests = [("sanity.allowed_source", sid not in self.spec["market"]["allowed_sources"]),
                     ("sanity.source_target",
                      sid not in [t["source_id"] for t in req["source_targets"]]),
                     ("sanity.time_window", not low <= observed <= high),
                     ("sanity.provenance",
                      item["provenance_tier"] < req.get("min_provenance_tier", 0)),
                     ("sanity.confidence", not 0 <= item["confidence_bps"] <= 10000),
                     ("sanity.http_status", not (200 <= status <= 299) if codes is None
                      else status not in codes)]
            reasons = [name for name, failed in tests if failed]
            entry: dict[str, Any] = {"evidence_id": eid, "source_id": sid}
            if not reasons and all(ord(c) in BLANK for c in sid):
                reasons = ["gate.agent_name"]
                entry["gate_reason"] = "agent name is blank (empty or only white space)"
            entry.update(admitted=not reasons, reasons=reasons, observed_at=observed,
                         observed_from=origin)
            out.append(entry)
        return _step(record, "check", f"check requirement {rid} chunk "
                     f"{0 if prior is None else prior['chunk'] + 1}: "
                     f"{sum(1 for i in out if i['admitted'])} of {len(out)} item(s) admitted",
                     record["inputs"], self._state(record, prior, out, {
                         "requirement_id": rid, "window": {"start": low, "end": high},
                         "items": out}))

    def _state(self, record: dict[str, Any], prior: dict[str, Any] | None,
               out: list[dict[str, Any]], output: dict[str, Any]) -> dict[str, Any]:
        """§12.5.3's running state: P's, updated with this chunk's items."""
        p = prior or {"chunk": -1, "item_count": 0, "admitted_count": 0,
                      "provenance_ok": True, "claim_count": 0, "sources": [], "groups": []}
        extract_ids = [s for s in record["prior_step_ids"] if s in self.extracts]
        sources = list(p["sources"])
        groups = [dict(g) for g in p["groups"]]
        claim_count = p["claim_count"]
        for entry, sid, claims in zip(out, extract_ids, self.claims(record), strict=True):
            if not entry["admitted"]:
                continue
            claim_count += len(claims)
            if entry["source_id"] not in [s["source_id"] for s in sources]:
                sources.append({"source_id": entry["source_id"],
                                "evidence_id": entry["evidence_id"], "step_id": sid})
            for c in claims:
                if c["kind"] not in ("numeric", "boolean"):
                    continue
                ref = {"claim_id": c["claim_id"], "evidence_id": entry["evidence_id"],
                       "value": c["value"]}
                g = next((g for g in groups if (g["kind"], g["key"]) == (c["kind"], c["key"])),
                         None)
                if g is None:
                    groups.append({"kind": c["kind"], "key": c["key"], "claim_count": 1,
                                   **({"min": ref, "max": ref} if c["kind"] == "numeric"
                                      else {"first": ref})})
                    continue
                g["claim_count"] += 1
                if c["kind"] == "numeric":
                    if Decimal(c["value"]) < Decimal(g["min"]["value"]):
                        g["min"] = ref
                    elif Decimal(c["value"]) > Decimal(g["max"]["value"]):
                        g["max"] = ref
                elif "other" not in g and c["value"] != g["first"]["value"]:
                    g["other"] = ref
        admitted = p["admitted_count"] + sum(1 for i in out if i["admitted"])
        output.update(chunk=p["chunk"] + 1, item_count=p["item_count"] + len(out),
                      admitted_count=admitted, covered=admitted > 0,
                      provenance_ok=admitted > 0 or (p["provenance_ok"] and not any(
                          "sanity.provenance" in i["reasons"] for i in out)),
                      claim_count=claim_count, sources=sources, groups=groups)
        last = int(extract_ids[-1][5:]) - 1 if extract_ids else p.get("last_leaf")
        if last is not None:
            output["last_leaf"] = last
        if "last_leaf" in p:
            output["from_leaf"] = p["last_leaf"]
        return output

    def aggregate(self, record: dict[str, Any]) -> dict[str, Any]:
        rid = record["inputs"]["requirement_id"]
        req = self.requirement(rid)
        check = self.steps[record["prior_step_ids"][-1]]["output"]
        declared = [(f["key"], f["kind"]) for f in req.get("expected_fields") or []]
        fields = [self._field(req, key, kind, record) for key, kind in declared or FALLBACK]
        used = {e for f in fields for e in f["evidence_ids"]}
        strategy = req["selection_policy"]["strategy"]
        chosen = sum(1 for f in fields if f["status"] == "selected")
        output = {"requirement_id": rid, "strategy": strategy, "covered": check["covered"],
                  "provenance_ok": check["provenance_ok"], "item_count": check["item_count"],
                  "fields": fields,
                  "sources_used": [e for e in record["evidence_ids"] if e in used],
                  "fallback_used": any(f["fallback_used"] for f in fields)}
        if "last_leaf" in check:
            output["last_leaf"] = check["last_leaf"]
        return _step(record, "aggregate", f"aggregate requirement {rid} by {strategy}: "
                     f"{chosen} of {len(fields)} field(s) selected", record["inputs"], output)

    def _field(self, req: dict[str, Any], key: str, kind: str,
               record: dict[str, Any]) -> dict[str, Any]:
        voters: list[tuple[int, dict[str, Any], dict[str, Any]]] = []
        for n, (claims, item) in enumerate(zip(self.claims(record), self.cards(record),
                                               strict=True)):
            # §12.5.4: the cited items are each source's first admitted item; each
            # votes with its first claim of the field.
            claim = next((c for c in claims if (c["key"], c["kind"]) == (key, kind)), None)
            if claim is not None:
                voters.append((n, item, claim))
        policy = req["selection_policy"]
        out: dict[str, Any] = {"key": key, "kind": kind, "status": "missing",
                               "candidates": len(voters), "claim_ids": [], "evidence_ids": [],
                               "fallback_used": False}
        order = (sorted(voters, key=lambda v: (-v[1]["provenance_tier"], v[0]))
                 if policy.get("tie_breaker") == "highest_provenance" else voters)
        strategy = policy["strategy"]
        if not voters:
            pass
        elif strategy == "multi_source_quorum":
            if len(voters) >= policy.get("min_sources", 1):
                self._quorum(out, kind, policy["quorum"], voters, order)
            else:
                out["status"] = "insufficient"
        else:
            if strategy == "fallback_chain":
                targets = [t["source_id"] for t in req["source_targets"]]
                pick = min(voters, key=lambda v: (targets.index(v[1]["source"]["source_id"]),
                                                  v[0]))
                out["fallback_used"] = pick[1]["source"]["source_id"] != targets[0]
            else:
                pick = order[0]
            out.update(status="selected", value=pick[2]["value"],
                       claim_ids=[pick[2]["claim_id"]], evidence_ids=[pick[1]["evidence_id"]])
        semantics = self.spec["prediction_semantics"]
        if semantics.get("sources_required") is not None and key == semantics["metric"]:
            out["votes"] = [{"value": c["value"], "source_id": i["source"]["source_id"],
                             "evidence_id": i["evidence_id"]} for _, i, c in voters]
        return out

    def _quorum(self, out: dict[str, Any], kind: str, quorum: int, voters: list[Any],
                order: list[Any]) -> None:
        tolerance = Decimal(self.spec["conflict_policy"]["numeric_tolerance"])

        def agree(a: Any, b: Any) -> bool:
            if kind == "numeric":
                return EXACT.abs(EXACT.subtract(Decimal(a), Decimal(b))) <= tolerance
            return bool(a == b)
        groups = [[w for w in voters if agree(w[2]["value"], v[2]["value"])] for v in order]
        for v, group in zip(order, groups, strict=True):
            if len(group) >= quorum:
                out.update(status="selected", value=v[2]["value"],
                           claim_ids=[w[2]["claim_id"] for w in group],
                           evidence_ids=[w[1]["evidence_id"] for w in group],
                           quorum={"required": quorum, "agreeing": len(group), "met": True})
                return
        out.update(status="no_quorum", quorum={"required": quorum, "met": False,
                                               "agreeing": max(len(g) for g in groups)})

    def contradictions(self, record: dict[str, Any]) -> dict[str, Any]:
        """§12.5.5: the cited chunks' groups merged in requirement order."""
        chunks = [self.steps[i]["output"] for i in record["prior_step_ids"]]
        merged: list[dict[str, Any]] = []
        for chunk in chunks:
            for group in chunk["groups"]:
                m = next((m for m in merged if (m["kind"], m["key"]) ==
                          (group["kind"], group["key"])), None)
                if m is None:
                    merged.append(dict(group))
                    continue
                m["claim_count"] += group["claim_count"]
                if group["kind"] == "numeric":
                    if Decimal(group["min"]["value"]) < Decimal(m["min"]["value"]):
                        m["min"] = group["min"]
                    if Decimal(group["max"]["value"]) > Decimal(m["max"]["value"]):
                        m["max"] = group["max"]
                elif "other" not in m:
                    for r in (group["first"], group.get("other")):
                        if r is not None and r["value"] != m["first"]["value"]:
                            m["other"] = r
                            break
        tolerance = self.spec["conflict_policy"]["numeric_tolerance"]
        conflicts = []
        for g in merged:
            if g["kind"] == "numeric":
                if EXACT.subtract(Decimal(g["max"]["value"]),
                                  Decimal(g["min"]["value"])) <= Decimal(tolerance):
                    continue
                pair = [g["min"], g["max"]]
            elif "other" in g:
                pair = [g["first"], g["other"]]
            else:
                continue
            conflicts.append({
                "check_id": f"contradiction.{g['kind']}", "kind": g["kind"], "key": g["key"],
                "claim_ids": [r["claim_id"] for r in pair],
                "evidence_ids": [r["evidence_id"] for r in pair],
                "values": [r["value"] if g["kind"] == "numeric"
                           else ("true" if r["value"] else "false") for r in pair],
                "claim_count": g["claim_count"]})
        count = sum(c["claim_count"] for c in chunks)
        output = {"claim_count": count, "numeric_tolerance": tolerance, "conflicts": conflicts}
        return _step(record, "check", f"contradiction check over {count} claim(s): "
                     f"{len(conflicts)} conflict(s)", record["inputs"], output, evidence_ids=[])

    def map(self, record: dict[str, Any]) -> dict[str, Any]:
        deduced = self.steps[record["prior_step_ids"][0]]["output"]
        variables = {k: deduced[k] for k in VARIABLES if k in deduced}
        return _step(record, "map", "map to evaluation variables", {"kind": "map"},
                     {"evaluation_variables": variables}, evidence_ids=deduced["source_summary"])


    def deduce(self, record: dict[str, Any]) -> dict[str, Any]:
        """§12.4.1's rules and §12.5.6's record."""
        s = self.spec["prediction_semantics"]
        reqs = self.spec["data_requirements"]
        aggs = [self.steps[i]["output"] for i in record["prior_step_ids"][:-1]]
        cited = [self.steps[i]["evidence_ids"] for i in record["prior_step_ids"][:-1]]
        conflicts = {(c["kind"], c["key"]) for c in
                     self.steps[record["prior_step_ids"][-1]]["output"]["conflicts"]}
        kinds = {"event_observed": "boolean", "text_equals": "text",
                 "timestamp_threshold": "timestamp"}
        needed = [(s["metric"], kinds.get(s["predicate"], "numeric"), "metric")]
        needed += [(t["metric"], "numeric", "term") for t in s.get("terms") or []]
        if s.get("other_metric") is not None:
            needed.append((s["other_metric"], "numeric", "other_metric"))
        needed += [(p["key"], "text", "precondition") for p in s.get("preconditions") or []]
        found = [self._find(aggs, key, kind) for key, kind, _ in needed]
        st: dict[str, Any] = {"status": found[0][0], "event": None, "insufficient": False,
                              "conflict": False, "fallback": False, "numeric": None,
                              "stamp": None, "read": {}}
        uncovered = [a["requirement_id"] for a in aggs if not a["covered"]]
        chain = [r["selection_policy"]["strategy"] == "fallback_chain" for r in reqs]

        def read(n: int, raw: dict[str, Any], kind: str, *, votes: bool = False) -> None:
            ids = [v["evidence_id"] for v in raw["votes"]] if votes else raw["evidence_ids"]
            st["read"].setdefault(n, set()).update(ids)
            st["fallback"] = st["fallback"] or raw["fallback_used"]
            st["conflict"] = st["conflict"] or (not votes and not chain[n]
                                                and (kind, raw["key"]) in conflicts)
        self._decide({"s": s, "needed": needed, "found": found, "aggs": aggs, "cited": cited,
                      "reqs": reqs, "uncovered": uncovered, "chain": chain,
                      "conflicts": conflicts}, st, read)
        insufficient = bool(uncovered) or st["insufficient"] or st["event"] is None
        summary: list[str] = []
        for n in sorted(st["read"]):
            summary += [e for e in cited[n] if e in st["read"][n] and e not in summary]
        out: dict[str, Any] = {
            "predicate": s["predicate"], "metric": s["metric"], "metric_status": st["status"],
            "uncovered_requirements": uncovered, "conflict_detected": st["conflict"],
            "insufficient_evidence": insufficient, "fallback_used": st["fallback"],
            "provenance_ok": all(a["provenance_ok"] for a in aggs), "source_summary": summary}
        if not insufficient:
            out["event_observed"] = st["event"]
            for name, key in (("numeric_value", "numeric"), ("timestamp", "stamp")):
                if st[key] is not None:
                    out[name] = st[key]
        verdict = "insufficient evidence" if insufficient else "variables computed"
        return _step(record, "deduce", f"deduce {s['predicate']} on {s['metric']}: {verdict}",
                     record["inputs"], out, evidence_ids=summary)

    @staticmethod
    def _find(aggs: list[dict[str, Any]], key: str, kind: str) -> tuple[str, Any, Any]:
        for n, agg in enumerate(aggs):
            for raw in agg["fields"]:
                if raw["key"] == key:
                    return ("wrong_kind", n, None) if raw["kind"] != kind else (
                        raw["status"], n, raw)
        return "absent", None, None

    @staticmethod
    def _decide(ctx: dict[str, Any], st: dict[str, Any], read: Any) -> None:
        s, needed, found, aggs, cited = (ctx[k] for k in ("s", "needed", "found", "aggs", "cited"))
        reqs, uncovered, chain, conflicts = (ctx[k] for k in ("reqs", "uncovered", "chain",
                                                              "conflicts"))
        for (key, _, role), (status, n, raw) in zip(needed, found, strict=True):
            if role != "precondition":
                continue
            if status != "selected":
                st["insufficient"] = True
                return
            read(n, raw, "text")
            rule = next(p for p in s["preconditions"] if p["key"] == key)
            if raw["value"] != rule["equals"]:
                st["status"] = "precondition_unmet"
                if rule["otherwise"] == "NO" and not uncovered:
                    st["event"] = False
                else:
                    st["insufficient"] = True
                return
        status, owner, raw = found[0]
        kind = needed[0][1]
        if owner is not None and s.get("sources_required") is None:
            st["conflict"] = st["conflict"] or (not chain[owner]
                                                and (kind, s["metric"]) in conflicts)
        if raw is None:
            st["insufficient"] = True
            return
        if s.get("sources_required") is not None:
            yes = sum(1 for v in raw["votes"] if _holds(s, v["value"]))
            no, k = len(raw["votes"]) - yes, s["sources_required"]
            if yes >= k or no > len(reqs[owner]["source_targets"]) - k:
                st["event"] = yes >= k
                read(owner, raw, kind, votes=True)
            else:
                st["insufficient"], st["status"] = True, "votes_undecided"
            return
        if status == "missing" and s.get("absent_means_no") is True and aggs[owner]["covered"]:
            st["event"] = False
            st["read"].setdefault(owner, set()).update(cited[owner])
            return
        if any(f[0] != "selected" for f in found):
            st["insufficient"] = True
            return
        value = raw["value"] if kind in ("boolean", "text") else Decimal(raw["value"])
        read(owner, raw, kind)
        for (key, _, role), (_, n, other) in zip(needed[1:], found[1:], strict=True):
            if role in ("term", "other_metric"):
                read(n, other, "numeric")
                op = "-" if role == "other_metric" else next(
                    t["op"] for t in s["terms"] if t["metric"] == key)
                value = (EXACT.subtract if op == "-" else EXACT.add)(value, Decimal(other["value"]))
        skip = s["metric"] if s["predicate"] == "timestamp_threshold" else None
        stamp = next((f for f in aggs[owner]["fields"] if f["kind"] == "timestamp"
                      and f["status"] == "selected" and f["key"] != skip), None)
        if stamp is not None:
            st["stamp"] = stamp["value"]
            st["read"].setdefault(owner, set()).update(stamp["evidence_ids"])
            st["fallback"] = st["fallback"] or stamp["fallback_used"]
        if isinstance(value, Decimal):
            st["numeric"] = _canonical(value)
        st["event"] = _holds(s, value)

def _canonical(value: Decimal) -> str:
    """§3.2's canonical decimal text (no exponent, no trailing zeros, no "-0")."""
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _holds(s: dict[str, Any], value: Any) -> bool:
    """§12.4.1's event test on one value of the metric's kind."""
    predicate = s["predicate"]
    if predicate == "event_observed":
        return value is True
    if predicate == "text_equals":
        return bool(value == s["expected_text"])
    v = Decimal(value)
    if predicate == "numeric_range":
        low, high = Decimal(s["lower"]), Decimal(s["upper"])
        above = v >= low if s.get("lower_inclusive") is not False else v > low
        return above and (v <= high if s.get("upper_inclusive") is True else v < high)
    bound = Decimal(0) if predicate == "field_comparison" else Decimal(s["threshold"])
    return {">": v > bound, ">=": v >= bound, "<": v < bound, "<=": v <= bound,
            "==": v == bound}[s["comparison"]]

def _records(kind: str) -> list[Any]:
    return [pytest.param(v, s, id=f"{v['name']}/{s['record']['step_id']}")
            for v in DATA["vectors"] for s in v["steps"] if s["record"]["inputs"]["kind"] == kind]


@pytest.mark.parametrize(("vector", "step"), [*_records("check_requirement"),
                                              *_records("aggregate"),
                                              *_records("contradictions"), *_records("deduce"),
                                              *_records("map")])
def test_record_rederived_from_spec(vector: dict[str, Any], step: dict[str, Any]) -> None:
    record = step["record"]
    market = Market(vector)
    derive = {"check_requirement": market.check, "aggregate": market.aggregate,
              "contradictions": market.contradictions, "deduce": market.deduce,
              "map": market.map}
    assert encode(derive[record["inputs"]["kind"]](record)).hex() == step["cbor_hex"]


@pytest.mark.parametrize("vector", DATA["vectors"], ids=lambda v: v["name"])
def test_every_card_copies_its_item(vector: dict[str, Any]) -> None:
    # SPEC §12.5.2: an extract step's card is five of its item's values, exactly.
    items = {i["evidence_id"]: i for i in vector["items"]}
    for output in vector["extract_outputs"].values():
        item = items[output["evidence_id"]]
        receipt = item["retrieval_receipt"]
        assert output["card"] == {
            "source_id": item["source"]["source_id"], "status_code": receipt["status_code"],
            "retrieved_at": receipt["retrieved_at"], "confidence_bps": item["confidence_bps"],
            "provenance_tier": item["provenance_tier"]}


def test_every_branch_has_a_vector() -> None:
    records = [s["record"] for v in DATA["vectors"] for s in v["steps"]]
    reasons = {r for s in records if s["inputs"]["kind"] == "check_requirement"
               for i in s["output"]["items"] for r in i["reasons"]}
    assert reasons >= {"sanity.allowed_source", "sanity.source_target", "sanity.time_window",
                       "sanity.provenance", "sanity.http_status", "gate.agent_name"}
    fields = [f for s in records if s["inputs"]["kind"] == "aggregate"
              for f in s["output"]["fields"]]
    assert {f["status"] for f in fields} == {"selected", "missing", "insufficient",
                                             "no_quorum"}
    assert any("votes" in f for f in fields) and any(f["fallback_used"] for f in fields)
    assert {s["output"]["strategy"] for s in records if s["inputs"]["kind"] == "aggregate"} == {
        "single_best", "multi_source_quorum", "fallback_chain"}
    assert {c["check_id"] for s in records if s["inputs"]["kind"] == "contradictions"
            for c in s["output"]["conflicts"]} == {"contradiction.numeric",
                                                    "contradiction.boolean"}
    assert {s["output"]["predicate"] for s in records if s["inputs"]["kind"] == "deduce"} == {
        "event_observed", "numeric_threshold", "numeric_range", "field_comparison",
        "text_equals", "timestamp_threshold"}
    assert {s["output"]["metric_status"] for s in records if s["inputs"]["kind"] == "deduce"
            } >= {"selected", "missing", "precondition_unmet"}
