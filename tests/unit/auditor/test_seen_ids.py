"""``SeenIds`` answers membership exactly as a set of the same ids would."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from por.auditor.trace_policy import SeenIds
from por.protocol.limits import step_id

_ids = st.one_of(st.integers(1, 40).map(step_id),
                 st.sampled_from(["step_1", "step_00001", "step_0000", "step_٣٣٣٣",
                                  "step_²²²²", "e1", "", "step_" + "9" * 40]),
                 st.text(max_size=12))


@given(st.integers(0, 30), st.lists(_ids, max_size=20), st.lists(_ids, max_size=30))
def test_membership_equals_a_set(honest: int, added: list[str], probes: list[str]) -> None:
    seen, plain = SeenIds(), set()
    for text in [step_id(n) for n in range(1, honest + 1)] + added:
        seen.add(text)
        plain.add(text)
    for text in [*probes, *plain, step_id(honest + 1), step_id(honest)]:
        assert (text in seen) == (text in plain), text


def test_an_honest_trace_keeps_only_a_count() -> None:
    seen = SeenIds()
    for n in range(1, 10_001):
        seen.add(step_id(n))
    assert seen._prefix == 10_000 and not seen._others
    assert "step_5000" in seen and "step_10001" not in seen and "step_0000" not in seen
