"""Fixtures the on-chain attack tests share (tests/chain/test_onchain_attacks*.py):
the router in revm, and the honest bundle of the test module's ``MARKET``.

Module-scoped, as each module had them; imported lazily so that collecting the other
chain tests does not load the EVM harness."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from proof_check_support import ProofChecker

    from por.bundle.layout import Bundle


@pytest.fixture(scope="module")
def router() -> ProofChecker:
    from proof_check_support import ProofChecker

    return ProofChecker()


@pytest.fixture(scope="module")
def bundle(request: pytest.FixtureRequest) -> Bundle:
    from bundle_edits import honest

    return honest(request.module.MARKET)
