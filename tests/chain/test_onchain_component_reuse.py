"""A part's component path check shared with an earlier part (s35, common3).

``PorOneStepCheck`` and ``PorCitationCheck`` skip the component path hashes of a part
whose component_root, tree_size and component_path equal the last verified part's of
the same kind (``PorInclusion.sameComponent``): the first prior step against the step,
every later prior step, evidence part or extract step against the one before it; and
``PorJudgeCheck`` (s36, judge4) a JudgeProof's first extract part against its final
step, every later extract part against the one before it. Each
case edits one such part (then reseals it and the proof) so that it differs from its
reference in one place - a sibling's last byte, the siblings' order, one sibling more
or less, the component_root's last byte or a forged tree's of the same size, a tree_size
for which the leaf path still holds - and the chain's (won, id) must be ``por check-proof``'s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import honest
from proof_check_support import ProofChecker, citation_proof, python_answer

from por.challenge.judge_proof import build_judge_proof
from por.challenge.one_step import build_one_step_proof
from por.challenge.records import challenge_id_from_body
from por.encoding import decode, encode
from por.merkle.tree import inclusion_proof, root_hash
from por.scenarios import list_scenarios

COUNTS: Counter[str] = Counter()
Part = dict[str, Any]


@pytest.fixture(scope="module")
def router() -> ProofChecker:
    return ProofChecker()


def _reseal(body: dict[str, Any]) -> None:
    body.pop("challenge_id", None)
    body["challenge_id"] = challenge_id_from_body(body)


def _flip_last(data: bytes) -> bytes:
    return data[:-1] + bytes([data[-1] ^ 0x01])


def _forged_tree(part: Part, size: int) -> Part:
    """A tree of ``size`` leaves holding ``part``'s leaf at its index, the others made up:
    its leaf path holds, its component_root is no committed component's."""
    leaves = [b"forged %d" % j for j in range(size)]
    leaves[part["leaf_index"]] = part["leaf"]
    return {"tree_size": size, "component_root": root_hash(leaves),
            "leaf_path": inclusion_proof(leaves, part["leaf_index"])}


def _sibling_flipped(k: int) -> Callable[[Part], None]:
    def edit(p: Part) -> None:
        p["component_path"] = [_flip_last(h) if j == k else h
                               for j, h in enumerate(p["component_path"])]
    return edit


def _size_plus(more: int) -> Callable[[Part], None]:
    def edit(p: Part) -> None:
        p["tree_size"] += more
    return edit


def _edits(ref: Part, part: Part) -> dict[str, Callable[[Part], None]]:
    """Edits of ``part`` that make it differ from ``ref`` in one place, and one that
    makes its component fields ``ref``'s."""
    edits: dict[str, Callable[[Part], None]] = {
        "ref's component fields": lambda p: p.update(
            component_root=ref["component_root"], tree_size=ref["tree_size"],
            component_path=list(ref["component_path"])),
        "component_root last byte": lambda p: p.update(
            component_root=_flip_last(p["component_root"])),
        "a sibling more": lambda p: p.update(
            component_path=[*p["component_path"], p["component_path"][-1]]),
        "a sibling less": lambda p: p.update(component_path=p["component_path"][:-1]),
        "siblings reversed": lambda p: p.update(component_path=p["component_path"][::-1]),
    }
    edits["a forged tree of ref's size, ref's path"] = lambda p: p.update(
        _forged_tree(p, ref["tree_size"]), component_path=list(ref["component_path"]))
    for k in range(len(part["component_path"])):
        edits[f"sibling {k} last byte"] = _sibling_flipped(k)
    for more in (1, 2, 3):
        edits[f"tree_size +{more}"] = _size_plus(more)
    return edits


def _cases(proof: bytes, where: list[tuple[str, int, str, int]]) -> list[tuple[str, bytes]]:
    """For each (list key, index, reference's list key, index) of ``proof``'s parts (index
    -1: the key's single part), every edit of that part against its reference."""
    out = []
    value = decode(proof)
    for key, index, ref_key, ref_index in where:
        def at(v: dict[str, Any], k: str, i: int) -> Part:
            part: Part = v[k] if i < 0 else v[k][i]
            return part
        for name, edit in _edits(at(value, ref_key, ref_index), at(value, key, index)).items():
            copy = decode(proof)
            part = at(copy, key, index)
            edit(part)
            _reseal(part)
            _reseal(copy)
            out.append((f"{key}[{index}] {name}", encode(copy)))
    return out


def _same(router: ProofChecker, name: str, proof: bytes) -> None:
    won, check_id, _gas = router.any_proof(proof)
    if check_id.startswith("court_path:"):
        COUNTS["court_path"] += 1
        return
    assert (won, check_id) == python_answer(proof), name
    COUNTS[f"{'won' if won else 'lost'}:{check_id}"] += 1


def test_one_step_parts(router: ProofChecker) -> None:
    """A step's proof with two prior steps (each against the one before, the first
    against the step) and an extract step's proof with its evidence item twice."""
    bundle = honest(list_scenarios()[0])
    two_priors = bytes(build_one_step_proof(bundle, 2).to_cbor())
    assert len(decode(two_priors)["prior_steps"]) == 2
    for name, proof in _cases(two_priors, [("prior_steps", 0, "step", -1),
                                           ("prior_steps", 1, "prior_steps", 0)]):
        _same(router, name, proof)
    extract = decode(bytes(build_one_step_proof(bundle, 0).to_cbor()))
    extract["evidence"] = [extract["evidence"][0], dict(extract["evidence"][0])]
    _reseal(extract)
    doubled = encode(extract)
    _same(router, "evidence twice", doubled)
    for name, proof in _cases(doubled, [("evidence", 1, "evidence", 0)]):
        _same(router, name, proof)


def test_citation_parts(router: ProofChecker) -> None:
    """A CitationProof's extract steps, each against the part before it."""
    bundle = honest(list_scenarios()[7])
    proof = citation_proof(bundle, 3, [0, 1])
    _same(router, "citation", proof)
    for name, edited in _cases(proof, [("extract_steps", 0, "step", -1),
                                       ("extract_steps", 1, "extract_steps", 0)]):
        _same(router, name, edited)


def test_judge_parts(router: ProofChecker) -> None:
    """A JudgeProof's extract parts: the first against the final step, the second
    against the first (a forged verdict: won judge.mismatch when the parts hold)."""
    bundle = honest(list_scenarios()[7])
    proof = bytes(build_judge_proof(bundle).to_cbor())
    assert len(decode(proof)["extract_steps"]) >= 2
    _same(router, "judge", proof)
    for name, edited in _cases(proof, [("extract_steps", 0, "final_step", -1),
                                       ("extract_steps", 1, "extract_steps", 0)]):
        _same(router, name, edited)


def test_outcomes_seen() -> None:
    """The cases reach the component path check's failure and the shared pass."""
    assert COUNTS["lost:proof.component_path"] > 0, COUNTS
    assert COUNTS["lost:merkle.proof_length"] > 0, COUNTS
    assert sum(n for k, n in COUNTS.items() if not k.startswith("lost:proof.")
               and not k.startswith("lost:merkle.")) > 0, COUNTS
