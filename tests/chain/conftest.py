"""Fixtures the chain tests share: the router in revm and the honest bundle of the test
module's ``MARKET`` (tests/chain/test_onchain_attacks*.py), and the JudgeProof's and the
deduce step's executors alone (``judge``, ``deduce``).

Module-scoped, as each module had them; imported lazily so that collecting the other
chain tests does not load the EVM harness."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from exec_support import ExecChecker
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


@pytest.fixture(scope="module")
def judge() -> ExecChecker:
    from exec_support import ExecChecker

    return ExecChecker("PorJudgeExec", entry="check(bytes)")


@pytest.fixture(scope="module")
def deduce() -> ExecChecker:
    from exec_support import ExecChecker

    return ExecChecker("PorDeduceExec")
