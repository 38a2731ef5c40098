"""A fourth committed family is a declaration, not a copy (SPEC §5.5).

The toy family below declares a spec and two models; commitments, assembly,
strict opening in the one order, and component proofs come from
``por.container`` unchanged.  Each expected value is computed by hand from
RFC 9162 and SPEC §5.4, so the container cannot agree with itself by accident.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import pytest
from pydantic import Field

from por.container import BundleSpec, ComponentProof, many, one
from por.container.models import Container
from por.encoding import decode, encode
from por.errors import PorError
from por.merkle import inclusion_proof, leaf_hash, root_hash
from por.schemas.base import Blob, Count, Hash32, Model, Record

TOY_BUNDLE = BundleSpec("por.ToyBundle/1", "toy_root", (
    one("head"),
    many("items"),
    many("notes", field="lines"),
))


class ToyCommitments(Model):
    head_hash: Hash32
    items_root: Hash32
    items_count: Count
    notes_root: Hash32
    notes_count: Count
    toy_root: Hash32


class ToyBundle(Record):
    SCHEMA: ClassVar[str] = "por.ToyBundle/1"

    record_schema: Literal["por.ToyBundle/1"] = Field("por.ToyBundle/1", alias="schema")
    head: Blob
    items: list[Blob]
    lines: list[Blob]
    commitments: ToyCommitments


class ToyError(PorError):
    """A toy bundle failed a check."""


TOY = Container(TOY_BUNDLE, ToyBundle, ToyCommitments, noun="toy bundle", error=ToyError,
                mismatch_id="toy.commit_mismatch")


def record(text: str) -> bytes:
    """A canonical por-cbor/1 record (a one-entry map)."""
    return encode({"t": text})


RECORDS: dict[str, bytes | list[bytes]] = {
    "head": record("head"),
    "items": [record(f"item {i}") for i in range(5)],
    "lines": [record("line 0"), record("line 1")],
}


def decode_records(bundle: ToyBundle) -> list[str]:
    """The toy's strict record decoding: every record is a canonical map."""
    return [decode(r)["t"] for r in [bundle.head, *bundle.items, *bundle.lines]]


def test_commitments_follow_from_the_declaration_by_hand() -> None:
    c = TOY.commit(RECORDS)
    items, lines = RECORDS["items"], RECORDS["lines"]
    assert isinstance(items, list) and isinstance(lines, list)
    assert c.head_hash == leaf_hash(RECORDS["head"])  # type: ignore[arg-type]
    assert (c.items_root, c.items_count) == (root_hash(items), 5)
    assert (c.notes_root, c.notes_count) == (root_hash(lines), 2)
    leaves = [c.head_hash + (1).to_bytes(8, "big"), c.items_root + (5).to_bytes(8, "big"),
              c.notes_root + (2).to_bytes(8, "big")]
    assert TOY.component_leaves(c) == leaves
    assert c.toy_root == root_hash(leaves)
    assert TOY_BUNDLE.commitment_fields == tuple(ToyCommitments.model_fields)


def test_assemble_then_open() -> None:
    data = TOY.assemble(RECORDS).to_cbor()
    bundle, texts = TOY.open(data, max_size=1 << 20, decode_records=decode_records)
    assert texts[0] == "head" and len(texts) == 8
    assert bundle.commitments == TOY.commit(RECORDS)


def _check_id(data: bytes) -> str:
    with pytest.raises(PorError) as caught:
        TOY.open(data, max_size=1 << 20, decode_records=decode_records)
    return caught.value.check_id


def test_opening_decodes_records_before_it_checks_commitments() -> None:
    honest = TOY.assemble(RECORDS)
    # A record edited without re-committing: it still decodes, the commitments fail.
    edited = honest.model_copy(update={"lines": [record("line 0"), record("LINE 1")]})
    assert _check_id(edited.to_cbor()) == "toy.commit_mismatch"
    # A record that no longer decodes is reported as such, not as a mismatch.
    broken = honest.model_copy(update={"lines": [record("line 0"), b"\xff"]})
    assert _check_id(broken.to_cbor()).startswith("codec.")
    # The bundle itself first: not canonical por-cbor/1 at all.
    assert _check_id(honest.to_cbor() + b"\x00").startswith("codec.")


def test_the_first_differing_commitment_can_name_the_check_id() -> None:
    named = Container(TOY_BUNDLE, ToyBundle, ToyCommitments, noun="toy bundle",
                      error=ToyError, mismatch_id="toy.{field}")
    honest = TOY.assemble(RECORDS)
    edited = honest.model_copy(update={"items": list(reversed(honest.items))})
    with pytest.raises(ToyError) as caught:
        named.open(edited.to_cbor(), max_size=1 << 20, decode_records=decode_records)
    assert caught.value.check_id == "toy.items_root"


def test_every_record_has_a_two_level_proof_and_tampering_fails() -> None:
    bundle = TOY.assemble(RECORDS)
    root = bundle.commitments.toy_root
    for name, field in (("head", "head"), ("items", "items"), ("notes", "lines")):
        held = getattr(bundle, field)
        records = [held] if isinstance(held, bytes) else held
        for position, rec in enumerate(records):
            proof = TOY.component_proof(bundle, name, position)
            assert proof.inner == inclusion_proof(records, position)
            assert TOY.root_from_component_proof(rec, proof) == root
            # Another record, position, size or path implies another root.
            assert TOY.root_from_component_proof(rec + b"\x00", proof) != root
            for bad in _corruptions(proof):
                try:
                    implied = TOY.root_from_component_proof(rec, bad)
                except PorError:
                    continue
                assert implied != root, bad


def _corruptions(proof: ComponentProof) -> list[ComponentProof]:
    """Bit flips, index and size shifts, truncation and extension of each level."""
    def flip(path: list[bytes], i: int) -> list[bytes]:
        return [h if j != i else bytes([h[0] ^ 1]) + h[1:] for j, h in enumerate(path)]

    bad = [ComponentProof(proof.component, proof.position + 1, proof.size, proof.inner,
                          proof.outer),
           ComponentProof(proof.component, proof.position, proof.size + 1, proof.inner,
                          proof.outer),
           ComponentProof(proof.component, proof.position, proof.size,
                          [*proof.inner, bytes(32)], proof.outer),
           ComponentProof(proof.component, proof.position, proof.size, proof.inner,
                          proof.outer[:-1])]
    bad += [ComponentProof(proof.component, proof.position, proof.size, flip(proof.inner, i),
                           proof.outer) for i in range(len(proof.inner))]
    bad += [ComponentProof(proof.component, proof.position, proof.size, proof.inner,
                           flip(proof.outer, i)) for i in range(len(proof.outer))]
    other = "items" if proof.component != "items" else "notes"
    bad.append(ComponentProof(other, proof.position, proof.size, proof.inner, proof.outer))
    return bad


def test_a_model_that_does_not_match_its_declaration_is_refused() -> None:
    class Short(Model):
        head_hash: Hash32
        toy_root: Hash32

    with pytest.raises(ValueError, match="do not match"):
        Container(TOY_BUNDLE, ToyBundle, Short, noun="toy", error=ToyError, mismatch_id="x")
    with pytest.raises(ValueError, match="unique"):
        BundleSpec("por.Twice/1", "root", (one("a"), many("a")))


def test_a_record_of_the_wrong_kind_is_refused() -> None:
    with pytest.raises(TypeError, match="one record"):
        TOY_BUNDLE.commitments({**RECORDS, "head": [record("head")]})
    with pytest.raises(TypeError, match="list of records"):
        TOY_BUNDLE.commitments({**RECORDS, "items": record("item")})
