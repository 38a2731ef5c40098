"""A carried step record's key list and id lists on chain (ADR 0015, s36 `common4`):
``PorRecords.topFields`` compares a step leaf's keys with the record's in one assembly
loop, and ``PorRecords.idList`` reads ids of at most 128 bytes in one assembly loop
(``isId``'s code point count only for a list holding a longer one). These cases edit
the keys and the ``evidence_ids`` / ``prior_step_ids`` of the map step (a CitationProof's
step) and of its cited deduce step (a OneStepProof's carried prior), and send each
proof to ``checkProof`` (through the router) and to ``por check-proof``: the answers are
the same."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import honest, recommit
from map_lies import MARKET
from proof_check_support import ProofChecker, citation_proof, python_answer

from por.challenge.one_step import build_one_step_proof
from por.encoding import decode, encode

Edit = Callable[[dict[str, Any]], dict[str, Any]]


def _ids(field: str, *extra: Any, first: bool = False) -> Edit:
    """The step with ``extra`` added to its id list ``field`` (before or after)."""
    def edit(step: dict[str, Any]) -> dict[str, Any]:
        ids = list(step[field])
        return {**step, field: [*extra, *ids] if first else [*ids, *extra]}
    return edit


def _renamed(old: str, new: str) -> Edit:
    def edit(step: dict[str, Any]) -> dict[str, Any]:
        out = {k: v for k, v in step.items() if k != old}
        out[new] = step[old]
        return out
    return edit


def _without(key: str) -> Edit:
    return lambda step: {k: v for k, v in step.items() if k != key}


LONG_2 = "\u00e9"  # 2 bytes in UTF-8

#: (name, edit) of a step record, each a case.
EDITS: list[tuple[str, Edit]] = [
    ("empty id", _ids("prior_step_ids", "")),
    ("empty id first", _ids("evidence_ids", "", first=True)),
    ("int id", _ids("prior_step_ids", 7)),
    ("list id", _ids("evidence_ids", ["x"])),
    ("map id", _ids("prior_step_ids", {"a": "b"})),
    ("23 bytes", _ids("prior_step_ids", "a" * 23)),
    ("24 bytes", _ids("prior_step_ids", "a" * 24)),
    ("128 bytes", _ids("evidence_ids", "a" * 128)),
    ("129 bytes", _ids("evidence_ids", "a" * 129)),
    ("128 bytes, 64 code points", _ids("prior_step_ids", LONG_2 * 64)),
    ("130 bytes, 65 code points", _ids("prior_step_ids", LONG_2 * 65)),
    ("256 bytes, 128 code points", _ids("prior_step_ids", LONG_2 * 128)),
    ("258 bytes, 129 code points", _ids("prior_step_ids", LONG_2 * 129)),
    ("512 bytes, 128 code points", _ids("prior_step_ids", "\U0001f600" * 128)),
    ("600 bytes", _ids("evidence_ids", "a" * 600)),
    ("long valid then empty", _ids("prior_step_ids", LONG_2 * 65, "")),
    ("long valid then int", _ids("prior_step_ids", LONG_2 * 65, 3)),
    ("long valid then 129 code points", _ids("prior_step_ids", LONG_2 * 65, LONG_2 * 129)),
    ("empty then long valid", _ids("prior_step_ids", "", LONG_2 * 65)),
    ("int then long invalid", _ids("prior_step_ids", 1, "a" * 600)),
    ("step_id renamed step_ie, same length", _renamed("step_id", "step_ie")),
    ("the last key renamed, same length", _renamed("prior_step_ids", "prior_step_idz")),
    ("the first key renamed", _renamed("inputs", "input5")),
    ("a key missing", _without("description")),
    ("the last key missing", _without("prior_step_ids")),
    ("a key added first", lambda step: {**step, "a": "x"}),
    ("a key added last", lambda step: {**step, "zzzzzzzzzzzzzzzzzzzzzzzzz": "x"}),
    ("a key one byte longer", _renamed("description", "descriptionx")),
]


def _forged(index: int, edit: Edit) -> Any:
    bundle = honest(MARKET)
    steps = list(bundle.steps)
    steps[index] = encode(edit(decode(steps[index])))
    return recommit(bundle, steps=steps)


def _same(proof: bytes) -> None:
    won, check_id, _gas = ProofChecker().any_proof(proof)
    assert (won, check_id) == python_answer(proof)


@pytest.mark.parametrize("case", range(len(EDITS)), ids=[name for name, _ in EDITS])
def test_the_step_of_a_citation_proof(case: int) -> None:
    """The edited map step as a CitationProof's step (`reasoningStep` in PorCitationExec)."""
    last = len(honest(MARKET).steps) - 1
    _same(citation_proof(_forged(last, EDITS[case][1]), last, []))


@pytest.mark.parametrize("case", [i for i, (name, _) in enumerate(EDITS) if "step_id" not in name],
                         ids=[name for name, _ in EDITS if "step_id" not in name])
def test_the_cited_prior_of_a_one_step_proof(case: int) -> None:
    """The map step's OneStepProof with its cited deduce step edited (a carried prior
    read by `reasoningStep` in PorMapExec)."""
    last = len(honest(MARKET).steps) - 1
    forged = _forged(last - 1, EDITS[case][1])
    _same(bytes(build_one_step_proof(forged, last).to_cbor()))
