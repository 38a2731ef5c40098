"""A carried step leaf is read once on chain (SPEC §14.8, ADR 0013 s33 `leafpass`):
the §2 reader's pass keeps the top-level map's key and value offsets and whether a
byte string was met (``PorCborTop.checkTop``), and ``PorRecords.reasoningStep`` takes
a step's §4.4 ``{value}`` test from that flag. These cases put a byte string in each
field of the map step and of its cited deduce step, and maps past the 16 entries the
offsets hold, to both ``checkProof`` (through the router) and ``por check-proof``:
the answers are the same."""

from __future__ import annotations

from typing import Any

import pytest
from bundle_edits import honest, recommit
from map_lies import MARKET
from proof_check_support import ProofChecker, citation_proof, python_answer

from por.challenge.one_step import build_one_step_proof
from por.encoding import decode, encode

#: (field, how it is edited) of a step record, each a case.
EDITS: list[tuple[str, Any]] = [
    ("description", b"map"),
    ("step_id", b"step_0001"),
    ("schema", b"por.ReasoningStep/1"),
    ("step_type", b"map"),
    ("evidence_ids", lambda v: [*v, b"e0"]),
    ("prior_step_ids", lambda v: [b"x", *v]),
    ("inputs", lambda v: {**v, "z": [b"\x00"]}),
    ("output", lambda v: {**v, "zz": {"a": [1, b""]}}),
    ("output", lambda v: {**v, **{f"k{i:02d}": i for i in range(20)}}),
    ("extra", b""),
    ("extra", "x"),
]


def _edited(step: dict[str, Any], field: str, how: Any) -> dict[str, Any]:
    out = dict(step)
    out[field] = how(out[field]) if callable(how) else how
    return out


def _forged(index: int, field: str, how: Any) -> Any:
    bundle = honest(MARKET)
    steps = list(bundle.steps)
    steps[index] = encode(_edited(decode(steps[index]), field, how))
    return recommit(bundle, steps=steps)


def _same(proof: bytes) -> tuple[bool, str]:
    won, check_id, _gas = ProofChecker().any_proof(proof)
    assert (won, check_id) == python_answer(proof)
    return won, check_id


@pytest.mark.parametrize("target", ["map", "deduce"])
@pytest.mark.parametrize("case", range(len(EDITS)))
def test_each_step_field_in_a_citation_proof(target: str, case: int) -> None:
    """The edited step as a CitationProof's step (its record read by `reasoningStep`)."""
    last = len(honest(MARKET).steps) - 1
    index = last if target == "map" else last - 1
    forged = _forged(index, *EDITS[case])
    _same(citation_proof(forged, index, []))


@pytest.mark.parametrize("case", [i for i, (field, _) in enumerate(EDITS) if field != "step_id"])
def test_each_field_of_the_cited_prior_in_a_one_step_proof(case: int) -> None:
    """The map step's OneStepProof with its cited deduce step edited (a carried prior
    read by `reasoningStep` in `PorMapExec`; not its step_id, which the builder needs
    to find it)."""
    last = len(honest(MARKET).steps) - 1
    forged = _forged(last - 1, *EDITS[case])
    _same(bytes(build_one_step_proof(forged, last).to_cbor()))


def test_a_step_map_past_sixteen_entries() -> None:
    """A step leaf with more top-level entries than the reader's offsets hold: invalid
    on both sides (a record has 8)."""
    last = len(honest(MARKET).steps) - 1
    forged = _forged(last, "description", "map to evaluation variables")
    steps = list(forged.steps)
    step = decode(steps[last])
    step.update({f"x{i:02d}": i for i in range(12)})
    steps[last] = encode(step)
    forged = recommit(forged, steps=steps)
    assert _same(citation_proof(forged, last, [])) == (True, "one_step.invalid_record")
