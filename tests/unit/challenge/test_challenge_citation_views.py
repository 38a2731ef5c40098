"""The challenge builder's citation view of a step leaf is bounded (issue 22 item 5).

Before: every step leaf was read with cbor2's decoder, which has no item cap, so a
forged 1 MB step of empty maps cost some 80 MiB to materialise on ``verify
--challenges`` (``bench/hostile.py --challenges``, ``output_maps``: 4.34x the honest
bundle's peak RSS).  Now a leaf over 64 KiB is read by the strict decoder under an
item cap (``MAX_STEP_ITEMS``, SPEC §17.1; ``por.challenge.step_leaf``): one over it
has no view (its replay proof wins instead), one under it gives the same view as
before."""

from __future__ import annotations

from typing import Any

import cbor2
import pytest

from por.bundle.layout import Bundle
from por.challenge import citations, step_leaf
from por.encoding import encode


def _bundle(step: dict[str, Any]) -> Bundle:
    """Only ``steps`` is read by the view."""
    return Bundle.model_construct(steps=[encode(step)])


def _step(**fields: Any) -> dict[str, Any]:
    return {"schema": "por.ReasoningStep/1", "step_id": "step_0001", "step_type": "check",
            "description": "", "evidence_ids": ["a", "b"], "prior_step_ids": ["step_0001"],
            "inputs": {"kind": "check_requirement", "requirement_id": "r"},
            "output": {}, **fields}


def test_a_large_leaf_of_many_items_has_no_view_and_is_not_materialised(
        monkeypatch: pytest.MonkeyPatch) -> None:
    bundle = _bundle(_step(output={"claims": [{}] * 200_000}))
    assert len(bundle.steps[0]) > step_leaf.CBOR2_BYTES

    read: list[int] = []
    loads = cbor2.loads

    def counted(data: bytes) -> Any:
        read.append(len(data))  # (a raise here would be caught as an unreadable leaf)
        return loads(data)

    monkeypatch.setattr(step_leaf.cbor2, "loads", counted)
    assert citations._step_at(bundle, 0) is None
    assert read == []  # cbor2 never read the leaf over the size
    assert citations._step_at(_bundle(_step()), 0) is not None and len(read) == 1


def test_a_large_leaf_under_the_item_cap_gives_the_same_view() -> None:
    bundle = _bundle(_step(description="x" * 100_000))
    assert len(bundle.steps[0]) > step_leaf.CBOR2_BYTES
    view = citations._step_at(bundle, 0)
    assert view is not None
    assert (view.evidence_ids, view.prior_step_ids) == (["a", "b"], ["step_0001"])
    small = citations._step_at(_bundle(_step()), 0)
    assert small is not None
    assert (small.kind, small.requirement_id, small.step_id) == (
        view.kind, view.requirement_id, view.step_id) == ("check_requirement", "r", "step_0001")
    assert cbor2.loads(bundle.steps[0])["evidence_ids"] == view.evidence_ids
