"""The extract step's item cap (SPEC §17.1, issue 22 item 5: the ``output_bytes`` class).

A committed extract step that differs from its replay is decoded under
``MAX_EXTRACT_STEP_ITEMS``: a list of millions of one-byte items is refused at its
head (``codec.too_large``) before it is built.  Every honest extract step fits: the
fixture bundles' steps, and one of eight fields all warning and claiming.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from file_modules import load_file
from item_count import items as _items

from por.bundle import Bundle
from por.encoding import decode, encode
from por.protocol.limits import MAX_EXTRACT_STEP_ITEMS
from por.schemas import ReasoningStep
from verifier import check_bundle

ROOT = Path(__file__).resolve().parents[3]
VALID = ROOT / "fixtures" / "bundles" / "valid"
GEN: Any = load_file("gen_bundles_step_cap", ROOT / "fixtures" / "bundles" / "generate.py")



def test_the_cap_covers_eight_claims_and_eight_warnings() -> None:
    claim = {"claim_id": "c", "key": "k", "kind": "text", "path": "$.a", "value": "v"}
    warning = {"check_id": "extract.field_missing", "message": "m", "key": "k", "offset": 0}
    card = {"source_id": "s", "status_code": 200, "retrieved_at": 0, "confidence_bps": 0,
            "provenance_tier": 0}
    step = {"schema": "por.ReasoningStep/1", "step_id": "step_0001", "step_type": "extract",
            "description": "", "evidence_ids": ["e"], "prior_step_ids": [],
            "inputs": {"kind": "extract_claims"},
            "output": {"card": card, "claims": [claim] * 8, "warnings": [warning] * 8,
                       "evidence_id": "e", "requirement_id": "r"}}
    assert _items(step) == 199 <= MAX_EXTRACT_STEP_ITEMS


def test_every_fixture_extract_step_fits() -> None:
    seen = 0
    for path in sorted(VALID.glob("*.cbor")):
        bundle = Bundle.from_cbor(path.read_bytes())
        for blob in bundle.steps:
            value = decode(blob)
            if value["step_type"] == "extract":
                seen += 1
                assert _items(value) <= MAX_EXTRACT_STEP_ITEMS, path.name
                ReasoningStep.from_cbor(blob, max_items=MAX_EXTRACT_STEP_ITEMS)
    assert seen > 0


def test_a_huge_forged_extract_step_is_refused_at_its_head() -> None:
    bundle = Bundle.from_cbor((VALID / "01-boolean-observed.cbor").read_bytes())
    step = dict(decode(bundle.steps[0]), output={"claims": [b""] * 100_000})
    data = GEN.rebuild(bundle, steps=[encode(step), *bundle.steps[1:]])  # recommitted
    report = check_bundle(data)
    assert [c.check_id for c in report.checks if not c.ok][:1] == ["codec.too_large"]
