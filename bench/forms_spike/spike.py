"""The aggregate on chain forms, in revm: the scratch executor, its call data, and the
differential cases (ADR 0017 stage 1, spike s38). ``bench/forms_spike.py`` prints the
figures; ``tests/chain/test_s38_forms_spike.py`` holds the answers to Python's.

Needs ``tests/chain``, ``tests`` and ``bench`` on ``sys.path`` (both callers set it) and
the pinned solc-js (``contracts/node_modules``) to compile the executor.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from eth_abi.abi import encode
from forms import FormError, aggregate_leaves, forms_tree

from por.bundle.layout import COMPONENTS, Bundle
from por.container.spec import component_leaf
from por.encoding import decode
from por.merkle.hashing import leaf_hash
from por.merkle.tree import inclusion_proof_from_leaf_hashes, root_from_leaf_hashes
from por.signing.eip712 import keccak256

SOURCE = Path(__file__).with_name("PorAggregateForms.sol")
#: Its base (the word readers and the vote), compiled in the same unit.
BASE = Path(__file__).with_name("PorAggregateFormsVote.sol")
IMPORT = 'import {PorAggregateFormsVote} from "./PorAggregateFormsVote.sol";\n'
SIGNATURE = "execute(bytes32,uint256,bytes32[],bytes[],uint256[],bytes32[][])"
MATCH, MISMATCH, UNEXECUTABLE = "one_step.match", "one_step.mismatch", "one_step.unexecutable"
ANSWERS = (MATCH, MISMATCH, UNEXECUTABLE)


def source() -> str:
    """The executor's unit: its base's body in place of the import of it (the scratch
    harness compiles only ``contracts/src`` files beside the harness text)."""
    base = BASE.read_text(encoding="utf-8").split("\n", 2)[2]  # no license, no pragma
    return SOURCE.read_text(encoding="utf-8").replace(IMPORT, base)


def harness() -> Any:
    """(revm, address) of the compiled executor (scratch_harness: the pinned solc-js)."""
    from scratch_harness import deploy

    return deploy("PorAggregateForms", source(), ("PorMerkle.sol",))


def call_data(bundle: Bundle, index: int) -> bytes:
    """The executor's call on the forms of aggregate step ``index`` of ``bundle``: the
    forms tree (the spike's older layouts, not the bundle's ``forms``) stands as a
    seventh component beside the bundle's first six."""
    spec = decode(bundle.prompt_spec)
    steps = [decode(s) for s in bundle.steps]
    tree = forms_tree(spec, steps)
    leaves = aggregate_leaves(tree, steps, index)
    components = [leaf_hash(component_leaf(*bundle.commitments.component(name)))
                  for name in COMPONENTS[:6]]
    components.append(leaf_hash(component_leaf(tree.root, len(tree.forms))))
    por_root = root_from_leaf_hashes(components)
    args = (por_root, len(tree.forms), inclusion_proof_from_leaf_hashes(components, 6),
            [tree.forms[i] for i in leaves], leaves, [tree.path(i) for i in leaves])
    types = ["bytes32", "uint256", "bytes32[]", "bytes[]", "uint256[]", "bytes32[][]"]
    return keccak256(SIGNATURE.encode())[:4] + encode(types, args)


def chain_answer(chain: Any, data: bytes) -> tuple[str, int]:
    """(match / mismatch / unexecutable / ``revert``, execution gas) of the executor."""
    from proof_check_support import message_call

    evm, address = chain
    try:
        out, gas = message_call(evm, address, data)
    except RuntimeError:
        return "revert", 0
    return ANSWERS[int.from_bytes(out, "big")], gas


def python_answer(bundle: Bundle, index: int) -> tuple[bool, str]:
    """``por check-proof`` on the OneStepProof of step ``index``: (won, id)."""
    from proof_check_support import python_answer as answer

    from por.challenge.one_step import build_one_step_proof

    return answer(build_one_step_proof(bundle, index).to_cbor())


def typical() -> tuple[Bundle, Bundle, int]:
    """bench/gas_steps.py's aggregate of 3 items: (honest, lying, the aggregate's leaf)."""
    from proofs import classes, market

    honest = market(3)
    lie = classes(honest, 3)["forged.aggregate"][0]()
    return honest, lie, len(lie.steps) - 1 - 3


def fixture_aggregates() -> Iterator[tuple[str, Bundle, int]]:
    """Every fixture market's honest aggregate steps: (market, bundle, leaf)."""
    from bundle_edits import honest, steps_of

    from por.scenarios import list_scenarios

    for name in list_scenarios():
        bundle = honest(name)
        for index in steps_of(bundle, "aggregate"):
            yield name, bundle, index


def forged(names: tuple[str, ...], per_market: int, seed: int
           ) -> Iterator[tuple[str, Bundle, int]]:
    """``aggregate_lies.forge``'s lies on ``names``' honest bundles (outputs, claims,
    cards, the chunk, the PromptSpec changed; about half rewritten consistently)."""
    from aggregate_lies import forge
    from bundle_edits import honest

    rng = random.Random(seed)  # noqa: S311 - seeded cases, not secrets
    for name in names:
        bundle = honest(name)
        for _ in range(per_market):
            lie, index = forge(bundle, rng)
            yield name, lie, index


def compare(chain: Any, bundle: Bundle, index: int) -> tuple[str, str, int]:
    """(Python's answer, the chain's, its gas) on step ``index``; Python's is ``skip:<id>``
    where it is none of match, mismatch, unexecutable (``one_step.invalid_record``: a
    FormProof's case), ``form:<id>`` where a record has no form (a FormProof's case)."""
    won, check_id = python_answer(bundle, index)
    if check_id not in ANSWERS:
        return f"skip:{check_id}", "", 0
    try:
        data = call_data(bundle, index)
    except (FormError, AttributeError, KeyError, TypeError, ValueError):
        return f"form:{check_id}", "", 0
    answer, gas = chain_answer(chain, data)
    assert won == (check_id != MATCH)
    return check_id, answer, gas
