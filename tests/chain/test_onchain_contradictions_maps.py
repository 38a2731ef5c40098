"""A cited check chunk's fixed-key maps (SPEC §12.5.3 ``read_state``: a group, a claim
reference, a source entry), edited one way at a time, decided on chain as Python decides
them (``PorContradictionsMaps``, ADR 0013's s36 ``checkcontra4`` addendum).

The chain reads each of these maps in place, its keys compared in their one §2 order
with their encodings (a map whose keys are exactly the fixed set holds them in that
order), so every way a map can differ from the set is a case here: a key missing, added
before, between or after the set's, renamed, a value of another type, a long text (a
two-byte head), a boolean ``other`` of the first's value. Each edit is compared as
forged (the contradictions step unchanged: won) and with the step recomputed by por's
``recompute_step`` where it can be (a well-formed edit: lost ``one_step.match``).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import honest, recommit
from exec_support import ExecChecker, recomputed

from por.bundle.layout import Bundle
from por.encoding import decode, encode

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorContradictionsExec")
#: Markets whose cited chunks hold numeric groups (08) and boolean ones (01).
MARKETS = ("08-quorum-agree", "01-boolean-observed")
LONG = "x" * 40  # a text of a two-byte head

Edit = Callable[[dict[str, Any]], None]


def _groups(out: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    groups = [g for g in out["groups"] if g.get("kind") == kind]
    assert groups, f"no {kind} group"  # CASES pairs each group's edits with its market
    return groups


def _num(out: dict[str, Any]) -> dict[str, Any]:
    return _groups(out, "numeric")[0]


def _bool(out: dict[str, Any]) -> dict[str, Any]:
    return _groups(out, "boolean")[0]


def _ref(out: dict[str, Any]) -> dict[str, Any]:
    group = out["groups"][0]
    return dict(group.get("min") or group["first"])


def _set_ref(out: dict[str, Any], ref: Any) -> None:
    group = out["groups"][0]
    group["min" if "min" in group else "first"] = ref


def _source(out: dict[str, Any]) -> dict[str, Any]:
    source: dict[str, Any] = out["sources"][0]
    return source


def _other_of(out: dict[str, Any], same: bool) -> None:
    group = _bool(out)
    value = group["first"]["value"]
    group["other"] = {"claim_id": "c_o", "evidence_id": "e_o",
                      "value": value if same else not value}


EDITS: dict[str, Edit] = {
    # a claim reference
    "ref.no_claim_id": lambda o: _set_ref(o, {k: v for k, v in _ref(o).items() if k != "claim_id"}),
    "ref.no_value": lambda o: _set_ref(o, {k: v for k, v in _ref(o).items() if k != "value"}),
    "ref.extra_first": lambda o: _set_ref(o, {**_ref(o), "a": "x"}),
    "ref.extra_mid": lambda o: _set_ref(o, {**_ref(o), "claim_iz": "x"}),
    "ref.extra_last": lambda o: _set_ref(o, {**_ref(o), "zzzzzzzzzzzzzz": "x"}),
    "ref.renamed": lambda o: _set_ref(o, {**{k: v for k, v in _ref(o).items() if k != "value"},
                                          "valuf": _ref(o)["value"]}),
    "ref.claim_id_int": lambda o: _set_ref(o, {**_ref(o), "claim_id": 5}),
    "ref.evidence_id_bytes": lambda o: _set_ref(o, {**_ref(o), "evidence_id": b"e"}),
    "ref.long_ids": lambda o: _set_ref(o, {**_ref(o), "claim_id": LONG, "evidence_id": LONG}),
    "ref.value_list": lambda o: _set_ref(o, {**_ref(o), "value": []}),
    "ref.value_bytes": lambda o: _set_ref(o, {**_ref(o), "value": b"1"}),
    "ref.not_a_map": lambda o: _set_ref(o, [_ref(o)]),
    "ref.empty_map": lambda o: _set_ref(o, {}),
    "ref.claim_id_renamed": lambda o: _set_ref(o, {**{k: v for k, v in _ref(o).items()
                                                      if k != "claim_id"},
                                                   "claim_ie": _ref(o)["claim_id"]}),
    "ref.evidence_id_renamed": lambda o: _set_ref(o, {**{k: v for k, v in _ref(o).items()
                                                         if k != "evidence_id"},
                                                      "evidence_ie": _ref(o)["evidence_id"]}),
    # a numeric group
    "num.key_renamed": lambda o: _num(o).update(kez=_num(o).pop("key")),
    "num.kind_renamed": lambda o: _num(o).update(kinf=_num(o).pop("kind")),
    "num.count_renamed": lambda o: _num(o).update(claim_counu=_num(o).pop("claim_count")),
    "num.value_bool": lambda o: _num(o)["max"].update(value=True),
    "num.value_long": lambda o: _num(o)["max"].update(value="1" * 30),
    "num.value_long_bad": lambda o: _num(o)["max"].update(value="0" + "1" * 30),
    "num.first_for_min": lambda o: _num(o).update(first=_num(o).pop("min")),
    "num.no_max": lambda o: _num(o).pop("max"),
    "num.other_added": lambda o: _num(o).update(other=dict(_num(o)["min"])),
    "num.kind_boolean": lambda o: _num(o).update(kind="boolean"),
    "num.kind_bytes": lambda o: _num(o).update(kind=b"numeric"),
    "num.key_int": lambda o: _num(o).update(key=7),
    "num.key_long": lambda o: _num(o).update(key=LONG),
    "num.count_max": lambda o: _num(o).update(claim_count=2**63 - 1),
    "num.count_over": lambda o: _num(o).update(claim_count=2**63),
    "num.count_zero": lambda o: _num(o).update(claim_count=0),
    "num.count_text": lambda o: _num(o).update(claim_count="3"),
    "num.count_bool": lambda o: _num(o).update(claim_count=True),
    "num.extra_first": lambda o: _num(o).update(a=1),
    "num.extra_last": lambda o: _num(o).update(zzzzzzzzzzzzzz=1),
    "num.not_a_map": lambda o: o["groups"].__setitem__(0, [1]),
    # a boolean group
    "bool.other_same": lambda o: _other_of(o, same=True),
    "bool.other_differs": lambda o: _other_of(o, same=False),
    "bool.value_text": lambda o: _bool(o)["first"].update(value="true"),
    "bool.min_for_first": lambda o: _bool(o).update(min=_bool(o).pop("first")),
    "bool.kind_numeric": lambda o: _bool(o).update(kind="numeric"),
    "bool.no_kind": lambda o: _bool(o).pop("kind"),
    "bool.max_added": lambda o: _bool(o).update(max=dict(_bool(o)["first"])),
    "bool.extra_last": lambda o: _bool(o).update(zzzzzzzzzzzzzz=1),
    "bool.first_renamed": lambda o: _bool(o).update(firsu=_bool(o).pop("first")),
    # the state's keys before its sources (read in place when they are as written)
    "head.no_items": lambda o: o.pop("items"),
    "head.extra_first": lambda o: o.update(a=1),
    "head.extra_between": lambda o: o.update(chunl=1),
    "head.chunk_text": lambda o: o.update(chunk="0"),
    "head.no_chunk": lambda o: o.pop("chunk"),
    "head.groups_renamed": lambda o: o.update(groupt=o.pop("groups")),
    "mid.no_window": lambda o: o.pop("window"),
    "mid.covered_int": lambda o: o.update(covered=1),
    "mid.covered_zero": lambda o: o.update(covered=0, admitted_count=0, provenance_ok=True),
    "mid.no_covered": lambda o: o.pop("covered"),
    "mid.extra_between": lambda o: o.update(coverex=True),
    "mid.sources_renamed": lambda o: o.update(sourcer=o.pop("sources")),
    # the state's keys after its sources (read in place when they are exactly these)
    "tail.no_last_leaf": lambda o: o.pop("last_leaf", None),
    "tail.last_leaf_text": lambda o: o.update(last_leaf="2"),
    "tail.last_leaf_wide": lambda o: o.update(last_leaf=2**40),
    "tail.item_count_bool": lambda o: o.update(item_count=True),
    "tail.provenance_int": lambda o: o.update(provenance_ok=1),
    "tail.extra_between": lambda o: o.update(item_countz=1),
    "tail.extra_after": lambda o: o.update(zzzzzzzzzzzzzzzzz=1),
    "tail.extra_before": lambda o: o.update(sourcet=1),
    "tail.no_requirement_id": lambda o: o.pop("requirement_id"),
    "tail.requirement_id_renamed": lambda o: o.update(requirement_ie=o.pop("requirement_id")),
    "tail.admitted_renamed": lambda o: o.update(admitted_counu=o.pop("admitted_count")),
    # a source entry
    "src.source_id_renamed": lambda o: _source(o).update(source_ie=_source(o).pop("source_id")),
    "src.evidence_id_renamed": lambda o: _source(o).update(
        evidence_ie=_source(o).pop("evidence_id")),
    "src.no_step_id": lambda o: _source(o).pop("step_id"),
    "src.extra_first": lambda o: _source(o).update(a="x"),
    "src.extra_last": lambda o: _source(o).update(zzzzzzzzzzzzzz="x"),
    "src.step_id_int": lambda o: _source(o).update(step_id=1),
    "src.source_id_bytes": lambda o: _source(o).update(source_id=b"s"),
    "src.evidence_id_bool": lambda o: _source(o).update(evidence_id=True),
    "src.long_texts": lambda o: _source(o).update(source_id=LONG, step_id=LONG, evidence_id=LONG),
    "src.not_a_map": lambda o: o["sources"].__setitem__(0, "s"),
    "src.twice": lambda o: o["sources"].append(dict(_source(o))),
    "src.another": lambda o: o["sources"].append({**_source(o), "source_id": "s-new"}),
    "src.another_long": lambda o: o["sources"].append({**_source(o), "source_id": LONG}),
}


def _chunk_index(bundle: Bundle) -> tuple[int, int]:
    """(the contradictions step's leaf, the leaf of the first chunk it cites)."""
    steps = [decode(s) for s in bundle.steps]
    index = next(i for i, s in enumerate(steps) if s["inputs"]["kind"] == "contradictions")
    return index, int(steps[index]["prior_step_ids"][0][5:]) - 1


#: A numeric group's edits need market 08's, a boolean group's market 01's; the others
#: run on both (no case skips for want of its group).
def cases(markets: tuple[str, str]) -> list[tuple[str, str]]:
    """(market, edit) pairs: a group's edits only with the market holding that group
    (``markets``: the numeric one, then the boolean one)."""
    return [(market, name) for name in sorted(EDITS) for market in markets
            if not (name.startswith("num.") and market != markets[0])
            and not (name.startswith("bool.") and market != markets[1])]


CASES = cases(MARKETS)


def edit_output(chain: ExecChecker, bundle: Bundle, index: int, cited: int, edit: Edit, *,
                label: str, counts: Counter[str]) -> Any:
    """Edit the output of the step at leaf ``cited`` and compare chain with Python on the
    step at ``index``: forged (the step unchanged), then recomputed by por where it can
    be. Returns the recomputed proof's answer, or None when none was recomputed."""
    steps = list(bundle.steps)
    body = copy.deepcopy(decode(steps[cited]))
    edit(body["output"])
    steps[cited] = encode(body)
    chain.compare(recommit(bundle, steps=steps), index, f"{label}.forged", counts)
    again = recomputed(bundle, steps, index)
    if again is None:
        return None
    steps[index] = again
    return chain.compare(recommit(bundle, steps=steps), index, f"{label}.recomputed", counts)


@pytest.mark.parametrize(("market", "name"), CASES)
def test_chunk_map_edit(market: str, name: str) -> None:
    bundle = honest(market)
    index, chunk = _chunk_index(bundle)
    answer = edit_output(_CHAIN, bundle, index, chunk, EDITS[name],
                         label=f"maps.{name}", counts=COUNTS)
    if answer is not None:
        COUNTS[f"recomputed:{answer[1] if answer else None}"] += 1


def test_chunk_map_outcomes() -> None:
    """Both answers occur: malformed maps won ``one_step.unexecutable``, well-formed
    edits recomputed lost ``one_step.match``."""
    if not COUNTS:
        pytest.skip("run with the other tests of this file")
    assert COUNTS["id:one_step.unexecutable"] >= 30, COUNTS
    assert COUNTS["id:one_step.match"] >= 8, COUNTS
