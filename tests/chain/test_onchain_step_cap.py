"""The step item cap on chain (SPEC §17.1, §14.8): ``PorRecords.reasoningStep`` refuses a
step leaf holding more than ``MAX_STEP_ITEMS = 1024`` items, as ``por check-proof`` does.

For fixture markets, each step after ``extract`` is padded (an ``output.pad`` list of
zeros, recommitted) to exactly 1024 items and to 1025; the one-step proof of the padded
step, and of every later step that cites it as a prior step, goes to
``PorProofCheck.checkProof`` (revm, the committed build) and to Python, which must give
the same WON/LOST and check id: at 1025 the padded leaf is not a valid record
(``one_step.invalid_record``), at 1024 it is and the step is re-executed.  A padded
leaf of 1024 bytes or fewer is not walked on chain (it holds fewer items).
"""

from __future__ import annotations

from collections import Counter

from bundle_edits import honest, recommit
from item_count import items
from proof_check_support import ProofChecker, python_answer

from por.bundle.layout import Bundle
from por.challenge.batch import ComponentTree, one_step_bytes
from por.challenge.one_step import build_one_step_proof
from por.encoding import decode, encode
from por.errors import PorError
from por.protocol.limits import MAX_STEP_ITEMS
from por.scenarios import list_scenarios
from por.schemas import step_number

_CHAIN = ProofChecker()
COUNTS: Counter[str] = Counter()



def padded(leaf: bytes, total: int) -> bytes:
    value = decode(leaf)
    value["output"] = {**value["output"], "pad": [0] * (total - items(value) - 2)}
    data = encode(value)
    assert items(decode(data)) == total
    return data


def sent(bundle: Bundle, index: int) -> bytes:
    """The OneStepProof a challenger sends for step leaf ``index`` when por's builder
    refuses it (an over-cap step leaf: "challenge it by inclusion"): the step, the
    PromptSpec and the prior steps it cites (a step after ``extract`` carries no item)."""
    c = bundle.commitments
    steps = ComponentTree("reasoning_leaf", bundle.steps, c)
    spec = ComponentTree("prompt_spec", [bundle.prompt_spec], c).proof(0)
    prior = [steps.proof((step_number(p) or 0) - 1).to_cbor()
             for p in decode(bundle.steps[index])["prior_step_ids"]]
    return one_step_bytes(c.por_root, steps.proof(index).to_cbor(), spec.to_cbor(), [],
                          prior)


def compare(bundle: Bundle, index: int, label: str) -> None:
    try:
        proof = build_one_step_proof(bundle, index).to_cbor()
    except PorError:
        COUNTS[f"{label}:unbuildable"] += 1
        proof = sent(bundle, index)
    won, check_id, _gas = _CHAIN.any_proof(proof)
    if check_id.startswith("court_path:"):  # an extract step: the court decides it
        COUNTS["court_path"] += 1
        return
    assert (won, check_id) == python_answer(proof), (label, index)
    COUNTS[f"{label}:{check_id}"] += 1


def test_padded_steps_at_and_past_the_cap() -> None:
    for name in list_scenarios()[:8]:
        bundle = honest(name)
        n = len(bundle.evidence)
        for index in range(n, len(bundle.steps)):
            step_id = decode(bundle.steps[index])["step_id"]
            citing = [j for j in range(index + 1, len(bundle.steps))
                      if step_id in decode(bundle.steps[j])["prior_step_ids"]]
            for total in (MAX_STEP_ITEMS, MAX_STEP_ITEMS + 1):
                steps = list(bundle.steps)
                steps[index] = padded(steps[index], total)
                forged = recommit(bundle, steps=steps)
                compare(forged, index, f"step{total}")
                for j in citing:
                    compare(forged, j, f"prior{total}")
    print(dict(sorted(COUNTS.items())))
    assert COUNTS[f"step{MAX_STEP_ITEMS + 1}:one_step.invalid_record"] > 0
    assert COUNTS[f"prior{MAX_STEP_ITEMS + 1}:one_step.invalid_record"] > 0
    assert not any(k.startswith(f"step{MAX_STEP_ITEMS}:one_step.invalid") for k in COUNTS)


#: Step types: the five (each at its own kind's place or another's) and near misses.
STEP_TYPES = ["extract", "check", "aggregate", "deduce", "map", "", "m", "ma", "mapx", "Map",
              "maps", "extrac", "extracts", "checks", "aggregat", "deduced", " map",
              "map\x00", "\u006d\u0061\u0070\u0301"]


def test_step_types_on_chain_are_the_five() -> None:
    """``PorRecords.stepType`` (one word comparison per type) accepts exactly the five
    step types SPEC §4.4 lists, as the model does: every other text is
    ``one_step.invalid_record`` on both sides."""
    bundle = honest(list_scenarios()[0])
    for index in range(len(bundle.evidence), len(bundle.steps)):
        for step_type in STEP_TYPES:
            value = decode(bundle.steps[index])
            value["step_type"] = step_type
            steps = list(bundle.steps)
            steps[index] = encode(value)
            compare(recommit(bundle, steps=steps), index, f"type:{step_type!r}")
    assert COUNTS["type:'mapx':one_step.invalid_record"] > 0
