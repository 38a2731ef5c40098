"""The FormProof envelope's reads of its own fields (s44 ``envgas``: the fields from the
§2 reader's kept offsets, ``schema``/``kind`` compared as encoded words, each 32-byte hash
and each Path item checked by its head ``58 20``): a field of another type or length is
Python's ``proof.schema`` (the file does not parse), on chain too; a swapped ``kind`` is
Python's id. A schema naming another version of a proof record (``por.FormProof/2``,
``por.OneStepProof/01``) is ``proof.unsupported`` in both since s45 (``PorSchemaName``;
the chain said ``proof.schema`` from s41 to s44), whatever the other fields. Each case is
scenario 08's COMMON, DEDUCE or VERDICT FormProof with one field of its CBOR map replaced
(the challenge id recomputed, so only the field differs)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import honest, steps_of
from formproof_families import check_call
from scratch_harness import SOLC

from por.challenge.form_proof import build_form_proof, verify_form_proof
from por.challenge.records import FormProof, challenge_id_from_body, proof_from_cbor
from por.encoding import decode, encode
from por.errors import PorError

pytestmark = SOLC  # compiles the envelope: skips without `cd contracts && npm ci`

H = bytes(range(32))


def python_raw(raw: bytes) -> tuple[bool, str]:
    """Python's (won, check id) of a FormProof file's bytes."""
    try:
        proof = proof_from_cbor(raw)
    except PorError as exc:
        return False, exc.check_id
    assert isinstance(proof, FormProof)
    try:
        outcome = verify_form_proof(proof)
    except PorError as exc:
        return False, exc.check_id
    return outcome.outcome == "won", outcome.reason


def resealed_raw(proof: FormProof, edit: Callable[[dict[str, Any]], None]) -> bytes:
    """The proof's map with ``edit`` applied, its challenge id recomputed (SPEC §10.3)."""
    body = decode(proof.to_cbor())
    body.pop("challenge_id")
    edit(body)
    return encode({**body, "challenge_id": challenge_id_from_body(body)})


def _set(key: str, value: object) -> Callable[[dict[str, Any]], None]:
    def edit(body: dict[str, Any]) -> None:
        body[key] = value
    return edit


def _item(key: str, i: int, value: object) -> Callable[[dict[str, Any]], None]:
    def edit(body: dict[str, Any]) -> None:
        items = list(body[key])
        items[i] = value
        body[key] = items
    return edit


def _both(*edits: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def edit(body: dict[str, Any]) -> None:
        for one in edits:
            one(body)
    return edit


def _drop_then(key: str, schema: str) -> Callable[[dict[str, Any]], None]:
    def edit(body: dict[str, Any]) -> None:
        body.pop(key)
        body["schema"] = schema
    return edit


CASES: dict[str, Callable[[dict[str, Any]], None]] = {
    "form_path item of 31 bytes": _item("form_path", 0, H[:31]),
    "form_path item of 33 bytes": _item("form_path", 0, H + b"\x00"),
    "form_path last item a text": _item("form_path", -1, "x" * 32),
    "forms_path item of 31 bytes": _item("forms_path", 0, H[:31]),
    "forms_path last item of 33 bytes": _item("forms_path", -1, H + b"\x01"),
    "por_root of 31 bytes": _set("por_root", H[:31]),
    "form_leaf a text": _set("form_leaf", "x" * 32),
    "forms_root of 33 bytes": _set("forms_root", H + b"\x00"),
    "schema por.FormProoF/1": _set("schema", "por.FormProoF/1"),
    "schema por.FormProof/": _set("schema", "por.FormProof/"),
    "schema por.FormProof/2": _set("schema", "por.FormProof/2"),
    "schema por.FormProof/01": _set("schema", "por.FormProof/01"),
    "schema por.FormStepProof/2": _set("schema", "por.FormStepProof/2"),
    "schema por.OneStepProof/123456789": _set("schema", "por.OneStepProof/123456789"),
    "schema por.OneStepProof/1234567890": _set("schema", "por.OneStepProof/1234567890"),
    "schema por.CitationProof/1": _set("schema", "por.CitationProof/1"),
    "schema por.CitationProof/2": _set("schema", "por.CitationProof/2"),
    "schema por.Verdict/2": _set("schema", "por.Verdict/2"),
    "schema por.FormProof/1x": _set("schema", "por.FormProof/1x"),
    "schema por.FormProof/2, form_leaf a text": _both(_set("schema", "por.FormProof/2"),
                                                        _set("form_leaf", "x")),
    "schema por.FormProof/2, no forms_path": _drop_then("forms_path", "por.FormProof/2"),
    "kind verdicts": _set("kind", "verdicts"),
    "kind prompt_spe": _set("kind", "prompt_spe"),
    "kind reasoning_lea": _set("kind", "reasoning_lea"),
    "kind verdict": _set("kind", "verdict"),
    "kind prompt_spec": _set("kind", "prompt_spec"),
    "kind reasoning_leaf": _set("kind", "reasoning_leaf"),
}


def proofs() -> dict[str, FormProof]:
    bundle = honest("08-quorum-agree")
    r = len(bundle.forms) - len(bundle.steps) - 2
    deduce = 1 + r + steps_of(bundle, "deduce")[0]
    return {"common": build_form_proof(bundle, 0), "deduce": build_form_proof(bundle, deduce),
            "verdict": build_form_proof(bundle, len(bundle.forms) - 1)}


@pytest.mark.parametrize("record", ["common", "deduce", "verdict"])
def test_field_types_answer_as_python(record: str) -> None:
    proof = proofs()[record]
    seen = {}
    for what, edit in CASES.items():
        raw = resealed_raw(proof, edit)
        want = python_raw(raw)
        got, _ = check_call(raw)
        assert got == want, (record, what, got, want)
        seen[what] = want[1]
    assert seen["form_path item of 31 bytes"] == "proof.schema", seen
    assert seen["schema por.FormProoF/1"] == "proof.schema", seen
    assert sum(v == "proof.schema" for v in seen.values()) >= 13, seen
    unsupported = {w for w, v in seen.items() if v == "proof.unsupported"}
    assert unsupported == {"schema por.FormProof/2", "schema por.FormProof/01",
                           "schema por.FormStepProof/2", "schema por.OneStepProof/123456789",
                           "schema por.CitationProof/1",
                           "schema por.FormProof/2, form_leaf a text",
                           "schema por.FormProof/2, no forms_path"}, seen
