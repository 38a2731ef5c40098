"""The contradictions executor on chain forms in revm (``PorContradictionsForm``, s45
``contraform``): ``test_forms_contradictions``' cases with the chain as a third side.
Every case there compares the OneStepProof's answer with Python's executor on forms;
here the on-chain executor's answer on the FormStepProof's call data must be the same
(won, check id, cause). Needs solc (``cd contracts && npm ci``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import test_forms_contradictions as cases
from forms_deduce_cases import chain_answer
from forms_harness import proof_call_data, sizes
from scratch_harness import SOLC
from test_forms_contradictions import (  # noqa: F401 - the same tests, with the chain
    test_a_forged_description_is_won_on_forms,
    test_every_fixture_contradictions_matches,
    test_forged_lies,
    test_generated_markets,
    test_honest_form_step_proof_is_lost,
    test_ties_across_chunks_keep_the_first_reference,
)

from por.challenge.records import FormStepProof

pytestmark = SOLC
NAME = "PorContradictionsForm"
GAS: list[int] = []


def on_chain(proof: FormStepProof) -> Any:
    answer, gas = chain_answer(proof_call_data(proof), NAME)
    GAS.append(gas)
    return answer


@pytest.fixture(autouse=True)
def _with_chain() -> Iterator[None]:
    cases.CHAIN.append(on_chain)
    yield
    cases.CHAIN.remove(on_chain)


def test_deployed_size() -> None:
    assert sizes(NAME) <= 24_576 - 600
    print(f"{NAME}: executions {len(GAS)}, max execution gas {max(GAS, default=0)}")


def test_count_on_chain() -> None:
    """``test_case_count`` after the cases above ran with the chain."""
    cases.test_case_count()
