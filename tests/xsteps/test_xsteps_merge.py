"""The JavaScript re-deriver against records of edited markets that the committed
vectors do not reach: SPEC §12.5.5's merge of contradiction groups across
requirements (fixtures/vectors/step_records.json has no (kind, key) shared by two
requirements). The records are made by the auditor through the vector generator
(gen_step_records.vector), so this is a differential check: the JavaScript, written
from SPEC alone, must reach por's bytes here too.

Bundle order is the reverse of requirement order, so a reading that merges by leaf
index fails; the boolean case has a later requirement whose `first` and `other`
could both supply the merged `other` (SPEC_GAPS.md, stage 3).
"""

from __future__ import annotations

import copy
import shutil
import sys
from pathlib import Path
from typing import Any

from setup_gate import needs
from test_xsteps_node import ROOT, run_on

pytestmark = needs("node", None if shutil.which("node") else "node is not installed")


def _split(spec: dict[str, Any], evidence: dict[str, Any], plan: list[tuple[str, int, str]],
           replace: tuple[str, str]) -> None:
    """Requirements ``req_a``.. from the first one, each targeting the sources it cites;
    ``plan`` lists the items in bundle order: (requirement, base item, new value)."""
    base_req = spec["data_requirements"][0]
    names = sorted({r for r, _, _ in plan})
    spec["data_requirements"] = []
    for name in names:
        req = copy.deepcopy(base_req)
        req["requirement_id"] = name
        req["selection_policy"] = {"strategy": "single_best", "min_sources": 1, "quorum": 1,
                                   "tie_breaker": "source_order"}
        used = {evidence["items"][k]["source"]["source_id"] for r, k, _ in plan if r == name}
        req["source_targets"] = [t for t in req["source_targets"] if t["source_id"] in used]
        spec["data_requirements"].append(req)
    base = evidence["items"]
    items = []
    for n, (name, k, value) in enumerate(plan):
        item = copy.deepcopy(base[k])
        item["requirement_id"] = name
        item["evidence_id"] = f"ev-{n}-{name}"
        item["content_text"] = item["content_text"].replace(replace[0], replace[1] + value)
        items.append(item)
    evidence["items"] = items


def _booleans(spec: dict[str, Any], evidence: dict[str, Any]) -> None:
    # 01: req_a says true; req_b true then false; req_c false (first in the bundle).
    plan = [("req_c", 0, "false"), ("req_b", 0, "true"), ("req_b", 0, "false"),
            ("req_a", 0, "true")]
    _split(spec, evidence, plan, ('"shipping": true', '"shipping": '))


def _numbers(spec: dict[str, Any], evidence: dict[str, Any]) -> None:
    # 08: req_a 251.40, req_b a lower and an equal minimum, req_c the maximum.
    spec["conflict_policy"] = {"on_conflict": "continue", "numeric_tolerance": "0.05"}
    plan = [("req_c", 2, "251.60"), ("req_b", 1, "251.30"), ("req_b", 1, "251.30"),
            ("req_a", 0, "251.40"), ("req_a", 0, "251.60")]
    for _, k, _ in plan:
        text = evidence["items"][k]["content_text"]
        evidence["items"][k]["content_text"] = text.replace(
            text[text.index('"close": '):text.index(", ", text.index('"close": '))], '"close": X')
    _split(spec, evidence, plan, ('"close": X', '"close": '))


def test_node_rederives_merged_groups(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "fixtures" / "vectors"))
    try:
        from gen_step_records import vector
    finally:
        sys.path.remove(str(ROOT / "fixtures" / "vectors"))
    vectors = [vector("merge-booleans", "01-boolean-observed", _booleans),
               vector("merge-numbers", "08-quorum-agree", _numbers)]
    for v in vectors:  # the edits reach what they are for: conflicts across requirements
        last = v["steps"][-3]["record"]
        assert last["inputs"]["kind"] == "contradictions"
        assert len(last["prior_step_ids"]) == 3 and last["output"]["conflicts"], last
    code, result, summary = run_on(tmp_path, {"vectors": vectors})
    assert (code, result["failures"]) == (0, []), result
    assert summary == f"{sum(len(v['steps']) for v in vectors)} passed, 0 failed"
