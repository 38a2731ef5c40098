"""A cited check chunk's ``items`` list, edited one way at a time, passed over on chain
as Python passes over it (SPEC §12.5.3: ``read_state`` reads no item;
``PorContradictionsItems.end``, ADR 0013's s36 ``contra5`` addendum).

The chain reads each item in place when it is an admission map as written (six keys, or
seven with ``gate_reason``, of the types written) to find where the list ends and
``groups`` starts; any other item makes it skip the list head by head (the same offset).
Each edit is compared with Python (the contradictions step unchanged: it does not depend
on the items, so every answer is lost ``one_step.match``). ``observed_from`` of
``fgroups`` is the encoding of the ``groups`` key: an end computed inside the last item
would find it there and read the next bytes as the groups.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import honest, recommit
from exec_support import ExecChecker

from por.encoding import decode, encode

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorContradictionsExec")
MARKETS = ("08-quorum-agree", "01-boolean-observed")
LONG = "x" * 40  # a text of a two-byte head

Edit = Callable[[list[dict[str, Any]]], None]


def _last(items: list[Any]) -> dict[str, Any]:
    item: dict[str, Any] = items[-1]
    return item


def _reorder(item: dict[str, Any]) -> dict[str, Any]:
    return dict(sorted(item.items(), key=lambda kv: (len(kv[0].encode()), kv[0].encode())))


EDITS: dict[str, Edit] = {
    "none": lambda items: items.clear(),
    "reasons": lambda items: _last(items).update(reasons=["stale", LONG], admitted=False),
    "gate_reason": lambda items: items.__setitem__(
        -1, _reorder({**_last(items), "gate_reason": "gate"})),
    "gate_reason_long": lambda items: items.__setitem__(
        -1, _reorder({**_last(items), "gate_reason": LONG})),
    "observed_at_wide": lambda items: _last(items).update(observed_at=2**40),
    "observed_at_negative": lambda items: _last(items).update(observed_at=-1),
    "observed_at_bool": lambda items: _last(items).update(observed_at=True),
    "admitted_text": lambda items: _last(items).update(admitted="true"),
    "reasons_map": lambda items: _last(items).update(reasons={"a": "b"}),
    "extra_key": lambda items: items.__setitem__(-1, _reorder({**_last(items), "zz": 1})),
    "no_key": lambda items: _last(items).pop("observed_from"),
    "not_a_map": lambda items: items.__setitem__(-1, "item"),
    "long_texts": lambda items: _last(items).update(source_id=LONG, evidence_id=LONG,
                                                    observed_from=LONG),
    "groups_key_text": lambda items: _last(items).update(observed_from="fgroups"),
    "groups_key_text_first": lambda items: items[0].update(observed_from="fgroups"),
    "many": lambda items: items.extend(copy.deepcopy(items[0]) for _ in range(24)),
}


@pytest.mark.parametrize("market", MARKETS)
@pytest.mark.parametrize("name", sorted(EDITS))
def test_chunk_items_edit(market: str, name: str) -> None:
    bundle = honest(market)
    steps = list(bundle.steps)
    bodies = [decode(s) for s in steps]
    index = next(i for i, s in enumerate(bodies) if s["inputs"]["kind"] == "contradictions")
    chunk = int(bodies[index]["prior_step_ids"][0][5:]) - 1
    body = copy.deepcopy(bodies[chunk])
    if not body["output"]["items"]:
        pytest.skip("no item")
    EDITS[name](body["output"]["items"])
    steps[chunk] = encode(body)
    answer = _CHAIN.compare(recommit(bundle, steps=steps), index, f"items.{name}", COUNTS)
    assert answer is not None and answer[1] == "one_step.match", (name, answer)
