"""Issue 22 item 5: finding an OmissionProof's candidates is linear in the bundle.

``omissions`` once tried :func:`por.challenge.omission.omits` on every item of a
requirement for every check chunk (steps x items calls: 10 000 items made
``verify --challenges`` 8x ``verify``).  Each step now reads only the span of
items it can omit.  The first test counts the calls without timing; the second
checks the span search against the plain scan it replaces.
"""

from __future__ import annotations

from typing import Any

import pytest
from bundle_edits import recommit
from hypothesis import given, settings
from hypothesis import strategies as st

from por.bundle import build
from por.challenge import bundle_from_bytes, omissions
from por.challenge import omission as omission_module
from por.challenge.omission import _first_omitted, omits
from por.scenarios import load_scenario
from por.schemas import EvidenceBundle


def _omitting(count: int) -> Any:
    """Scenario 08's trace over ``count - 1`` items committed with ``count`` items
    (the bench's ``omitted_evidence`` class)."""
    scenario = load_scenario("08-quorum-agree")
    base = list(scenario.evidence.items)
    items = [base[k % len(base)].model_copy(update={"evidence_id": f"ev-{k:06d}"})
             for k in range(count)]

    def built(kept: int) -> Any:
        evidence = EvidenceBundle(bundle_id=scenario.evidence.bundle_id,
                                  market_id=scenario.evidence.market_id, items=items[:kept])
        return bundle_from_bytes(build(scenario.prompt_spec, evidence).data)

    return recommit(built(count - 1), evidence=list(built(count).evidence))


@pytest.mark.parametrize("count", [60, 240])
def test_omissions_tries_each_item_a_bounded_number_of_times(
        count: int, monkeypatch: pytest.MonkeyPatch) -> None:
    bundle = _omitting(count)
    calls = [0]

    def counted(*args: Any) -> bool:
        calls[0] += 1
        return omits(*args)

    monkeypatch.setattr(omission_module, "omits", counted)
    found = omissions(bundle)
    # the extract past the last item, then the aggregate that ends early
    assert found[0] == (count - 1, count - 1)
    assert any(step > count and item == count - 1 for step, item in found)
    # the plain scan made about (count / 10) chunks x count calls (360 at 60 items)
    assert calls[0] <= len(bundle.steps), calls[0]


_IDS = st.sampled_from(["a", "b", "c", "d", "e", 1, True, None])
_LEAF = st.one_of(st.integers(-2, 30), st.booleans(), st.text(max_size=1))


@settings(max_examples=400, deadline=None)
@given(kind=st.sampled_from(["check_requirement", "aggregate", "extract_claims", None]),
       output=st.fixed_dictionaries({}, optional={"from_leaf": _LEAF, "last_leaf": _LEAF}),
       cited=st.one_of(st.lists(_IDS, max_size=14), st.none(), st.text(max_size=2)),
       leaves=st.lists(st.integers(0, 28), max_size=20, unique=True), ids=st.data())
def test_span_search_is_the_plain_scan(kind: Any, output: dict[str, Any], cited: Any,
                                       leaves: list[int], ids: Any) -> None:
    items = [(leaf, ids.draw(_IDS)) for leaf in sorted(leaves)]
    plain = next((leaf for leaf, evidence_id in items
                  if omits(kind, output, cited, evidence_id, leaf)), None)
    assert _first_omitted(kind, output, cited, items) == plain
