"""The three committed families share one container (SPEC §5.5): declared
order, component proofs for every record of every family (the court's are
new), and one opening order (records decoded strictly, then commitments)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from por.bundle.layout import POR, Bundle
from por.challenge import build_inclusion_proof
from por.container import (
    COURT_BUNDLE,
    JUDGEMENT_BUNDLE,
    POR_BUNDLE,
    BundleSpec,
    component_proof,
    hashes,
    root_from_component_proof,
)
from por.container.models import Container
from por.court.records import COURT, CourtBundle, CourtVote
from por.court.verify import decode_court
from por.errors import MerkleError, PorError
from por.lean.bundle import por_root_of
from por.locked_judges.layout import JUDGEMENT
from por.locked_judges.records import JudgementBundle
from por.locked_judges.verify import decode_judgement
from por.schemas import EvidenceItem
from verifier import check_bundle

ROOT = Path(__file__).resolve().parents[3]
POR_FIXTURE = ROOT / "fixtures" / "bundles" / "valid" / "01-boolean-observed.cbor"
JUDGEMENT_FIXTURE = ROOT / "fixtures" / "judges" / "valid" / "llm-retry.cbor"
COURT_FIXTURE = ROOT / "fixtures" / "court" / "valid" / "ruling.cbor"


def test_the_committed_orders_are_spec_5_4_15_2_5_and_16_5() -> None:
    assert POR_BUNDLE.names == ("manifest", "prompt_spec", "evidence", "trace_header",
                                "reasoning", "verdict", "forms")
    assert POR_BUNDLE.component("reasoning").field == "steps"
    assert [c.name for c in POR_BUNDLE.components if c.hashed] == ["forms"]
    assert not any(c.hashed for c in (*JUDGEMENT_BUNDLE.components, *COURT_BUNDLE.components))
    assert JUDGEMENT_BUNDLE.names == ("manifest", "subjects", "calls", "votes", "report")
    assert COURT_BUNDLE.names == ("case", "rule", "panel", "calls", "votes", "rulings")
    assert (POR_BUNDLE.root, JUDGEMENT_BUNDLE.root, COURT_BUNDLE.root) == (
        "por_root", "judgement_root", "court_root")


@pytest.mark.parametrize("container", [POR, JUDGEMENT, COURT], ids=lambda c: c.spec.schema)
def test_each_wire_model_is_its_declaration(container: Container) -> None:  # type: ignore[type-arg]
    assert tuple(container.commitments_type.model_fields) == container.spec.commitment_fields
    fields = set(container.bundle_type.model_fields)
    assert {c.field for c in container.spec.components} | {"commitments"} <= fields


class _Commit:
    def __init__(self, values: dict[str, object]) -> None:
        self.__dict__.update(values)


def _families() -> list[tuple[Container, bytes]]:  # type: ignore[type-arg]
    return [(POR, POR_FIXTURE.read_bytes()), (JUDGEMENT, JUDGEMENT_FIXTURE.read_bytes()),
            (COURT, COURT_FIXTURE.read_bytes())]


@pytest.mark.parametrize("container,data", _families(), ids=["por", "judgement", "court"])
def test_every_record_of_every_component_proves_to_the_top_root(
        container: Container, data: bytes) -> None:  # type: ignore[type-arg]
    bundle = container.bundle_type.from_cbor(data)
    spec: BundleSpec = container.spec
    top = getattr(bundle.commitments, spec.root)
    assert container.commit(spec.records(bundle)) == bundle.commitments
    assert spec.top_root(bundle.commitments) == top
    for component in spec.components:
        held = getattr(bundle, component.field)
        records = [held] if isinstance(held, bytes) else list(held)
        for position, record in enumerate(records):
            proof = container.component_proof(bundle, component.name, position)
            assert container.root_from_component_proof(record, proof) == top
            edited = bytes([record[0] ^ 1]) + record[1:] if component.hashed else record[:-1]
            assert container.root_from_component_proof(edited, proof) != top


def test_a_hash_list_component_takes_its_items_as_leaf_hashes() -> None:
    """SPEC §5.3/§5.5: ``forms_root`` is MTH over the carried hashes as the tree's
    leaf hashes (no second LH), its count the number of hashes; a one-hash list's root
    is that hash; an item that is not 32 bytes is refused."""
    spec = BundleSpec("x/1", "top", (hashes("h"),))
    one_hash, two = bytes(range(32)), [bytes(range(32)), bytes(32)]
    assert spec.commitments({"h": [one_hash]})["h_root"] == one_hash
    got = spec.commitments({"h": two})
    assert got["h_count"] == 2
    assert got["h_root"] == hashlib.sha256(b"\x01" + two[0] + two[1]).digest()
    assert got["h_root"] != spec.commitments({"h": []})["h_root"]
    with pytest.raises(MerkleError):
        spec.commitments({"h": [bytes(31)]})
    proof = component_proof(spec, _Commit(got), two, "h", 1)
    assert root_from_component_proof(spec, two[1], proof) == got["top"]


def test_a_court_vote_proves_against_court_root_and_an_edited_one_does_not() -> None:
    bundle = CourtBundle.from_cbor(COURT_FIXTURE.read_bytes())
    proof = COURT.component_proof(bundle, "votes", 1)
    assert COURT.root_from_component_proof(bundle.votes[1], proof) == \
        bundle.commitments.court_root
    edited = CourtVote.from_cbor(bundle.votes[1]).model_copy(update={"worker_pct": 1})
    assert COURT.root_from_component_proof(edited.to_cbor(), proof) != \
        bundle.commitments.court_root


def test_por_proofs_equal_the_challenge_protocols_paths() -> None:
    bundle = Bundle.from_cbor(POR_FIXTURE.read_bytes())
    for kind, component in (("evidence_leaf", "evidence"), ("reasoning_leaf", "reasoning")):
        ours = POR.component_proof(bundle, component, 0)
        theirs = build_inclusion_proof(bundle, kind, 0)  # type: ignore[arg-type]
        assert (ours.inner, ours.outer) == (theirs.leaf_path, theirs.component_path)


def test_the_lean_and_pydantic_commitments_give_one_por_root() -> None:
    bundle = Bundle.from_cbor(POR_FIXTURE.read_bytes())
    assert por_root_of(bundle.commitments) == bundle.commitments.por_root


# --- one opening order: the bundle, then every record, then the commitments ----------------

def _broken(container: Container, data: bytes, field: str) -> bytes:  # type: ignore[type-arg]
    """``data`` with the first record of list ``field`` replaced by bytes that do not
    decode, the commitments left as they were."""
    bundle = container.bundle_type.from_cbor(data)
    return bundle.model_copy(update={field: [b"\xff", *getattr(bundle, field)[1:]]}).to_cbor()


def _check_id(call: object, data: bytes) -> str:
    with pytest.raises(PorError) as caught:
        call(data)  # type: ignore[operator]
    return caught.value.check_id


@pytest.mark.parametrize("opener,container,data,field", [
    (decode_judgement, JUDGEMENT, JUDGEMENT_FIXTURE, "votes"),
    (decode_court, COURT, COURT_FIXTURE, "votes"),
], ids=["judgement", "court"])
def test_a_record_that_does_not_decode_is_a_codec_error_in_every_family(
        opener: object, container: Container, data: Path,  # type: ignore[type-arg]
        field: str) -> None:
    broken = _broken(container, data.read_bytes(), field)
    assert _check_id(opener, broken).startswith("codec.")


def test_the_por_container_opens_as_the_verifier_does() -> None:
    data = POR_FIXTURE.read_bytes()
    broken = _broken(POR, data, "evidence")
    assert _check_id(lambda d: POR.open(d, max_size=1 << 26, decode_records=_por_records),
                     broken).startswith("codec.")
    bundle = Bundle.from_cbor(data)
    unrecommitted = bundle.model_copy(update={"steps": list(reversed(bundle.steps))}).to_cbor()
    ours = _check_id(lambda d: POR.open(d, max_size=1 << 26, decode_records=_por_records),
                     unrecommitted)
    report = check_bundle(unrecommitted)
    assert report.status == "rejected"
    assert ours == next(c.check_id for c in report.checks if not c.ok) == \
        "commit.reasoning_root"


def _por_records(bundle: Bundle) -> None:
    for item in bundle.evidence:
        EvidenceItem.from_cbor(item)


def test_an_unrecommitted_edit_is_the_familys_mismatch() -> None:
    judgement = JudgementBundle.from_cbor(JUDGEMENT_FIXTURE.read_bytes())
    swapped = judgement.model_copy(update={"calls": list(reversed(judgement.calls))})
    assert _check_id(decode_judgement, swapped.to_cbor()) == "judgement.commit_mismatch"
    court = CourtBundle.from_cbor(COURT_FIXTURE.read_bytes())
    swapped_court = court.model_copy(update={"votes": list(reversed(court.votes))})
    assert _check_id(decode_court, swapped_court.to_cbor()) == "court.commit_mismatch"


def test_the_spec_and_proofs_import_without_pydantic() -> None:
    code = ("import sys, por.container, por.lean.bundle; "
            "assert not any(m.split('.')[0] in ('pydantic', 'pydantic_core') "
            "for m in sys.modules), 'pydantic loaded'")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
