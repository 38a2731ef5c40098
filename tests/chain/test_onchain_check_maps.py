"""A cited extract step's card and claims (SPEC §12.5.2 ``read_card``, ``read_extract``),
edited one way at a time, decided on chain by the check chunk as Python decides them
(ADR 0013's s36 ``checkcontra4`` addendum); and the cited chunk c-1's groups, claim
references and source entries edited as ``test_onchain_contradictions_maps`` edits them
(the check chunk c reads them with the same ``PorContradictionsMaps``).

The chain reads a card (exactly five keys) in place, its keys compared in their one §2
order, and a claim written with exactly its five keys the same way (a claim with
another key set, which ``read_extract`` allows, is walked by ``PorCheckKeys.find``).
Every way such a map can differ from its key set is a case: a key missing, added before,
between or after the others, renamed, a value of another type, a long text (a two-byte
head), a wide integer. Each edit is compared as forged (the chunk unchanged) and with
the chunk recomputed by por's ``recompute_step`` where it can be.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import honest
from exec_support import ExecChecker
from test_onchain_check import chunks_of, many_items
from test_onchain_contradictions_maps import EDITS as STATE_EDITS
from test_onchain_contradictions_maps import cases, edit_output

from por.bundle.layout import Bundle
from por.encoding import decode

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorCheckExec")
MARKETS = ("08-quorum-agree", "01-boolean-observed", "62-field-comparison-home-win")
LONG = "x" * 40  # a text of a two-byte head

Edit = Callable[[dict[str, Any]], None]


def _claim(out: dict[str, Any]) -> dict[str, Any]:
    if not out.get("claims"):
        pytest.skip("no claim")
    claim: dict[str, Any] = out["claims"][0]
    return claim


def _rename(data: dict[str, Any], old: str, new: str) -> None:
    data[new] = data.pop(old)


EDITS: dict[str, Edit] = {
    # the card
    "card.extra_first": lambda o: o["card"].update(a=1),
    "card.extra_mid": lambda o: o["card"].update(source_iz=1),
    "card.extra_last": lambda o: o["card"].update(zzzzzzzzzzzzzzzzz=1),
    "card.no_source_id": lambda o: o["card"].pop("source_id"),
    "card.no_tier": lambda o: o["card"].pop("provenance_tier"),
    "card.tier_renamed": lambda o: _rename(o["card"], "provenance_tier", "provenance_tiex"),
    "card.source_renamed": lambda o: _rename(o["card"], "source_id", "source_ie"),
    "card.status_renamed": lambda o: _rename(o["card"], "status_code", "status_codf"),
    "card.retrieved_renamed": lambda o: _rename(o["card"], "retrieved_at", "retrieved_au"),
    "card.bps_renamed": lambda o: _rename(o["card"], "confidence_bps", "confidence_bpt"),
    "card.source_id_int": lambda o: o["card"].update(source_id=3),
    "card.source_id_long": lambda o: o["card"].update(source_id=LONG),
    "card.status_text": lambda o: o["card"].update(status_code="200"),
    "card.status_neg": lambda o: o["card"].update(status_code=-200),
    "card.retrieved_wide": lambda o: o["card"].update(retrieved_at=2**40),
    "card.retrieved_bool": lambda o: o["card"].update(retrieved_at=True),
    "card.bps_wide": lambda o: o["card"].update(confidence_bps=2**33),
    "card.tier_bytes": lambda o: o["card"].update(provenance_tier=b"\x01"),
    "card.not_a_map": lambda o: o.update(card=[1, 2, 3, 4, 5]),
    "card.empty": lambda o: o.update(card={}),
    # a claim
    "claim.extra_first": lambda o: _claim(o).update(a=1),
    "claim.extra_mid": lambda o: _claim(o).update(kinf="x"),
    "claim.extra_last": lambda o: _claim(o).update(zzzzzzzzzzzzzzzzz=1),
    "claim.no_path": lambda o: _claim(o).pop("path"),
    "claim.no_value": lambda o: _claim(o).pop("value"),
    "claim.no_claim_id": lambda o: _claim(o).pop("claim_id"),
    "claim.key_renamed": lambda o: _rename(_claim(o), "key", "kez"),
    "claim.kind_renamed": lambda o: _rename(_claim(o), "kind", "kinf"),
    "claim.path_renamed": lambda o: _rename(_claim(o), "path", "patj"),
    "claim.value_renamed": lambda o: _rename(_claim(o), "value", "valuf"),
    "claim.claim_id_renamed": lambda o: _rename(_claim(o), "claim_id", "claim_ie"),
    "claim.key_int": lambda o: _claim(o).update(key=1),
    "claim.kind_bytes": lambda o: _claim(o).update(kind=b"numeric"),
    "claim.path_bool": lambda o: _claim(o).update(path=False),
    "claim.claim_id_int": lambda o: _claim(o).update(claim_id=9),
    "claim.long_texts": lambda o: _claim(o).update(key=LONG, path=LONG, claim_id=LONG),
    "claim.value_list": lambda o: _claim(o).update(value=[1]),
    "claim.value_map": lambda o: _claim(o).update(value={"a": 1}),
    "claim.not_a_map": lambda o: o["claims"].__setitem__(0, "c") if o.get("claims") else None,
    # the output's own keys (read in place when they are card, claims, warnings?,
    # evidence_id, requirement_id in that order; walked otherwise)
    "output.extra_first": lambda o: o.update(a=1),
    "output.extra_after_card": lambda o: o.update(cards=1),
    "output.extra_after_claims": lambda o: o.update(claimz=1),
    "output.extra_before_ids": lambda o: o.update(extra_keys=1),
    "output.extra_between_ids": lambda o: o.update(evidence_iz="x"),
    "output.extra_last": lambda o: o.update(zzzzzzzzzzzzzzzzz=1),
    "output.no_warnings": lambda o: o.pop("warnings", None),
    "output.no_warnings_extra_last": lambda o: (o.pop("warnings", None),
                                                o.update(zzzzzzzzzzzzzzzzz=1)),
    "output.warnings_map": lambda o: o.update(warnings={"a": [1, {"b": LONG}]}),
    "output.no_card": lambda o: o.pop("card"),
    "output.card_renamed": lambda o: _rename(o, "card", "carc"),
    "output.no_claims": lambda o: o.pop("claims"),
    "output.claims_renamed": lambda o: _rename(o, "claims", "claimr"),
    "output.no_evidence_id": lambda o: o.pop("evidence_id"),
    "output.no_requirement_id": lambda o: o.pop("requirement_id"),
    "output.evidence_renamed": lambda o: _rename(o, "evidence_id", "evidence_ie"),
    "output.requirement_renamed": lambda o: _rename(o, "requirement_id", "requirement_ie"),
    "output.evidence_int": lambda o: o.update(evidence_id=5),
    "output.requirement_long": lambda o: o.update(requirement_id=LONG),
}


def _cited_extract(bundle: Bundle) -> tuple[int, int]:
    """(a check chunk's leaf, the leaf of the first extract step it cites)."""
    steps = [decode(s) for s in bundle.steps]
    for index, step in enumerate(steps):
        if step["inputs"].get("kind") == "check_requirement" and step["prior_step_ids"]:
            extract = int(step["prior_step_ids"][0][5:]) - 1
            if steps[extract]["inputs"].get("kind") == "extract_claims":
                return index, extract
    pytest.skip("no check chunk citing an extract step")


@pytest.mark.parametrize("market", MARKETS)
@pytest.mark.parametrize("name", sorted(EDITS))
def test_extract_map_edit(market: str, name: str) -> None:
    bundle = honest(market)
    index, extract = _cited_extract(bundle)
    edit_output(_CHAIN, bundle, index, extract, EDITS[name],
                label=f"maps.{name}", counts=COUNTS)


@pytest.mark.parametrize(("market", "name"), cases(("08-quorum-agree", "01-boolean-observed")))
def test_prior_state_map_edit(market: str, name: str) -> None:
    bundle = many_items(market, 12)
    index, prior = chunks_of(bundle)[1], chunks_of(bundle)[0]
    edit_output(_CHAIN, bundle, index, prior, STATE_EDITS[name],
                label=f"state.{name}", counts=COUNTS)


def test_extract_map_outcomes() -> None:
    """Both answers occur: malformed maps won ``one_step.unexecutable``, well-formed
    edits recomputed lost ``one_step.match``."""
    if not COUNTS:
        pytest.skip("run with the other tests of this file")
    assert COUNTS["id:one_step.unexecutable"] >= 30, COUNTS
    assert COUNTS["id:one_step.match"] >= 10, COUNTS
