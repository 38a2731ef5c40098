"""Tampered judgement bundles that must be rejected, each with its check id (SPEC §15.6).

The canaries come from the fixture generator: every one re-commits the trees
honestly and recomputes the hashes its edit would break, so a deeper check must
catch the lie, not the root.
"""

from __future__ import annotations

import pytest
from judges_support import GENERATOR, recommit

from por.errors import PorError
from por.locked_judges import JudgementBundle, verify_judgement

VALID: bytes = GENERATOR.llm_retry()
CANARIES: dict[str, tuple[bytes, str]] = GENERATOR.canaries(VALID)


def test_the_untampered_bundle_verifies() -> None:
    summary = verify_judgement(VALID)
    assert [c.attempt for c in summary.calls] == [1, 2, 1, 1]


@pytest.mark.parametrize("name", sorted(CANARIES))
def test_canary_is_rejected_with_its_check_id(name: str) -> None:
    data, check_id = CANARIES[name]
    assert data != VALID
    with pytest.raises(PorError) as info:
        verify_judgement(data)
    assert info.value.check_id == check_id, info.value.diagnostics()


def test_every_required_canary_is_present() -> None:
    required = {"dropped-parameter", "aliased-model", "flipped-response-byte", "edited-vote",
                "deleted-failed-attempt", "out-of-range-vote"}
    assert required <= set(CANARIES)


def test_signatures_are_not_silently_accepted() -> None:
    from por.errors import UnsupportedError

    bundle = JudgementBundle.from_cbor(VALID)
    signed = bundle.model_copy(update={"signatures": [b"test-only-signature"]}).to_cbor()
    with pytest.raises(UnsupportedError) as info:
        verify_judgement(signed)
    assert info.value.check_id == "judgement.signature_unsupported"


def test_recommit_of_nothing_is_identity() -> None:
    assert recommit(VALID) == VALID
    assert JudgementBundle.from_cbor(VALID).to_cbor() == VALID
