"""The deduce step's ``evidence_ids`` against the recomputed ``source_summary`` when the
cited ids differ only in their last byte (SPEC §12.4.1, §14.8).

``PorDeduceStep.summaryAt`` compares the committed list with the summary as it is
produced, id by id. The fixture markets' ids differ early (``ev-exchange-alpha``,
``-beta``), so a comparison that skipped an id's last byte, or any byte but the first,
passed every case of ``test_onchain_deduce.py``. Here the multi-source markets' evidence
items are renamed ``ev-same-1``, ``ev-same-2``, ... (one length, the last byte apart;
the bundle rebuilt by por, so honest), and the deduce step's list is permuted, an id
swapped for a sibling, the aggregates' lists reordered (the deduce step rewritten by
por's ``deduce_step`` or left): the chain's answer must be Python's in each.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

from bundle_edits import recommit
from exec_support import ExecChecker, assert_case_count
from test_onchain_deduce import _deduce, exercise, rewritten

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.encoding import decode, encode
from por.scenarios import load_scenario

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorDeduceExec")
#: Markets whose deduce step cites two or more evidence ids.
MARKETS = ("08-quorum-agree", "50-commodities-per-source-quorum", "67-two-of-three-below")


def renamed(name: str, stem: str = "ev-same-") -> Bundle:
    """Market ``name`` built by por with its evidence ids ``stem + 1``, ``stem + 2``..."""
    scenario = load_scenario(name)
    items = [item.model_copy(update={"evidence_id": f"{stem}{i + 1}"})
             for i, item in enumerate(scenario.evidence.items)]
    evidence = scenario.evidence.model_copy(update={"items": items})
    return bundle_from_bytes(build(scenario.prompt_spec, evidence).data)


def with_list(bundle: Bundle, index: int, ids: list[str]) -> Bundle:
    """``bundle`` with the deduce step's evidence_ids set to ``ids``, recommitted."""
    steps = list(bundle.steps)
    step = decode(steps[index])
    step["evidence_ids"] = ids
    steps[index] = encode(step)
    return recommit(bundle, steps=steps)


def compare(bundle: Bundle, index: int, case: str) -> None:
    _CHAIN.compare(bundle, index, case, COUNTS)


def test_summary_lists_of_last_byte_siblings() -> None:
    """Every order of the committed ids, each id swapped for a sibling, one dropped,
    repeated or added: only por's own list is lost (``one_step.match``)."""
    for name in MARKETS:
        bundle = renamed(name)
        index = _deduce(bundle)
        ids = decode(bundle.steps[index])["evidence_ids"]
        assert len(ids) >= 2 and len({len(i) for i in ids}) == 1, ids
        compare(bundle, index, "summary.honest")
        others = [f"ev-same-{i}" for i in range(1, 10) if f"ev-same-{i}" not in ids]
        lists = [list(p) for p in itertools.permutations(ids)][1:]
        lists += [[*ids[:k], sib, *ids[k + 1:]] for k in range(len(ids)) for sib in others[:2]]
        lists += [ids[:-1], ids[1:], ids + ids[:1], ids + others[:1], []]
        for edited in lists:
            compare(with_list(bundle, index, edited), index, "summary.edited")


def test_aggregate_lists_reordered() -> None:
    """The aggregates' evidence lists reordered (the deduce step rewritten from them,
    consistent, or left as it was, a lie)."""
    for name in MARKETS:
        bundle = renamed(name)
        index = _deduce(bundle)
        cited = decode(bundle.steps[index])["prior_step_ids"]
        for sid in cited[:-1]:
            at = int(sid[5:]) - 1
            step = decode(bundle.steps[at])
            for order in itertools.permutations(step["evidence_ids"]):
                steps = list(bundle.steps)
                steps[at] = encode({**step, "evidence_ids": list(order)})
                for rewrite in (True, False):
                    edited = list(steps)
                    again = rewritten(bundle.prompt_spec, edited, index) if rewrite else None
                    edited[index] = again or edited[index]
                    compare(recommit(bundle, steps=edited), index, "summary.aggregate")


def test_forged_on_renamed_markets() -> None:
    """``test_onchain_deduce``'s forgeries on the renamed markets."""
    rng = random.Random(36)  # noqa: S311 - seeded cases, not secrets
    for name in MARKETS:
        exercise(renamed(name), rng, 48)


def test_summary_case_count() -> None:
    """Every case compared, matches and the summary's refusal among them."""
    assert_case_count(COUNTS, "summary.", ("one_step.match", "one_step.unexecutable"),
                      minimum=60)
