"""The JSON views of contract calls that ``por attestation --calldata`` and
``por chain`` print (SPEC §14.5).  Bytes are ``0x``-prefixed lower-case hex (the
EVM display edge); every uint64/uint256 is a decimal string (SPEC §8.8).

``verdict_call`` is ``proposeVerdict`` for one signature record of a verified
bundle; ``proof_call`` is ``openChallenge`` for an InclusionProof file, checked
with ``por check-proof``'s verifier first; ``case_call`` is ``openChallenge`` for
a DisputeCase (its leaf proved from its own bundle); ``ruling_call`` relays a
``por.RulingSignature/1``; ``settle_call`` is ``settleByProof`` for a CitationProof,
a JudgeProof, an OmissionProof, or a OneStepProof of a step the contract re-executes, and
``settleByForms`` for a FormStepProof or a FormProof (kind ``form``, its file's bytes), that
``por check-proof`` finds won.  The challenge ids are the registry's (SPEC §14.4).
"""

from __future__ import annotations

from typing import Any

from por.chain.calldata import (
    COMMIT_PROOF,
    COMPONENT_POSITION,
    OPEN_CHALLENGE,
    PROPOSE_VERDICT,
    SETTLE_BY_FORMS,
    SETTLE_BY_PROOF,
    SUBMIT_RULING,
    challenge_id,
    form_step_args,
    leaf_id,
    market_calldata,
    market_key,
    open_challenge_calldata,
    proof_commitment,
    propose_verdict_calldata,
    selector,
    settle_by_forms_calldata,
    settle_by_proof_calldata,
    settlement_id,
    submit_ruling_calldata,
)
from por.errors import PorError, ProofError, UnsupportedError
from por.signing.eip712 import VerdictStruct, keccak256, market_id_from_text
from por.signing.record import VerdictSignature

#: The ``schema`` of the document printed for a proof, a case or a ruling.
CALLDATA_SCHEMA = "por/calldata/1"


def _hex(data: bytes) -> str:
    return "0x" + data.hex()


def call_document(function: str, data: bytes, **fields: Any) -> dict[str, Any]:
    """The common part of every calldata document: function, selector, data."""
    return {"function": function, "selector_hex": _hex(selector(function)), **fields,
            "data_hex": _hex(data)}


def prompt_spec_path(commitments: Any) -> list[bytes]:
    """The 3 hashes of PATH(1, 7) over a bundle's component leaves (SPEC §5.4):
    ``proposeVerdict``'s ``promptSpecPath``, which binds ``promptSpecHash`` to ``porRoot``."""
    from por.container import POR_BUNDLE, component_path  # noqa: PLC0415

    return list(component_path(POR_BUNDLE, commitments, "prompt_spec"))


def verdict_call(record: VerdictSignature, verdict: VerdictStruct,
                 path: list[bytes]) -> dict[str, Any]:
    """``proposeVerdict(verdict, promptSpecPath, signer, signature)`` for one signature
    record, ``path`` the bundle's :func:`prompt_spec_path`.
    ``to`` is the record's ``verifying_contract``: the only contract whose
    domain the signature is valid for.  An unbound signature (20 zero bytes,
    ``por sign`` without ``--contract``) is valid for no contract:
    ``chain.unbound`` (exit 2), rather than calldata for the zero address.
    The call carries the registry's ``proposerBond`` as its value."""
    data = propose_verdict_calldata(verdict, path, record.signer, record.signature,
                                    scheme=record.scheme)
    if record.verifying_contract == bytes(20):
        raise UnsupportedError("chain.unbound", "the signature is not bound to a contract "
                               "(signed without --contract): no registry can accept it; "
                               "sign again with --contract ADDR")
    return call_document(PROPOSE_VERDICT, data, to_hex=_hex(record.verifying_contract),
                         chain_id=str(record.chain_id), value="proposerBond()",
                         round=str(verdict.nonce),
                         market_key=_hex(market_key(verdict.market_id, verdict.prompt_spec_hash)))


def key_of_text(market: str, prompt_spec_hash: bytes) -> bytes:
    """The market key of a market id text and the PromptSpec hash it was signed with."""
    return market_key(market_id_from_text(market), prompt_spec_hash)


def proof_call(data: bytes, market: str, prompt_spec_hash: bytes, case_hash: bytes, *,
               max_size: int) -> dict[str, Any]:
    """``openChallenge(marketKey, caseHash, proof)`` for the InclusionProof ``data``,
    ``marketKey`` of ``market`` and ``prompt_spec_hash`` (:func:`key_of_text`).

    Raises the proof's failure (``proof.*``, ``merkle.*``: exit 1) if it does
    not verify, and ``chain.proof_kind`` (exit 2) for a BundleProof or OneStepProof,
    which the contract does not take (``por challenge`` makes an InclusionProof
    for any leaf: ``--evidence``, ``--prompt-spec``, ``--verdict``, or
    ``--step ID --inclusion``).
    """
    from por.challenge.check import verify_proof  # noqa: PLC0415 - the checker on use
    from por.challenge.records import InclusionProof, proof_from_cbor  # noqa: PLC0415

    verify_proof(data, max_size=max_size)
    proof = proof_from_cbor(data, max_size=max_size)
    if not isinstance(proof, InclusionProof):
        raise UnsupportedError("chain.proof_kind", f"the contract checks InclusionProofs, not "
                               f"{proof.SCHEMA}; make one with `por challenge` and --evidence ID, "
                               "--prompt-spec, --verdict or --step ID --inclusion",
                               expected="por.InclusionProof/1", actual=proof.SCHEMA)
    return _challenge_document(key_of_text(market, prompt_spec_hash), case_hash, proof,
                               market=market)


#: Step kinds (``inputs.kind``) whose one-step proof the registry re-executes itself
#: (SPEC §14.8, ``contracts/deploy.json``'s executors); a one-step proof of any other
#: kind goes to the court (SPEC §16).
ON_CHAIN_STEP_KINDS = ("check_requirement", "aggregate", "contradictions", "deduce", "map")
#: Proof schemas, besides OneStepProofs, that the registry checks itself (SPEC §14.8);
#: a FormStepProof goes to ``settleByForms``, the others to ``settleByProof``.
ON_CHAIN_SCHEMAS = ("por.CitationProof/2", "por.JudgeProof/1", "por.OmissionProof/2",
                    "por.FormStepProof/1", "por.FormProof/1")
#: The FormProof's families on chain (SPEC §10.2.8, §5.6 tags: 1 COMMON, 2 REQUIREMENT
#: (one contract, since s43), 3 EXTRACT, 4 CHUNK, 5 AGGREGATE, 6 CONTRADICTIONS, 7 DEDUCE,
#: 8 MAP, 9 VERDICT; ``contracts/deploy.json``'s ``families``): every family. A FormProof
#: whose answer needs a family not listed here is ``chain.proof_kind`` (the envelope
#: would revert ``NoFamily(tag)``).
ON_CHAIN_FORM_TAGS = (1, 2, 3, 4, 5, 6, 7, 8, 9)


def settle_call(data: bytes, market: str, prompt_spec_hash: bytes, *, max_size: int,
                commit_by: bytes | None = None) -> dict[str, Any]:
    """``settleByProof(marketKey, proof)`` for the proof file ``data`` (the key of
    ``market`` and ``prompt_spec_hash``, :func:`key_of_text`), checked
    as ``por check-proof`` checks it, in the contract's order (SPEC §14.4): a proof the
    registry does not check (not in :data:`ON_CHAIN_SCHEMAS`, nor a OneStepProof of a step
    kind in :data:`ON_CHAIN_STEP_KINDS`) is ``chain.proof_kind`` (exit 2: it goes to the
    court, §16); a proof ``check_proof`` cannot decide (status ``error``: an executor
    on forms not written yet, ``proof.unsupported``) exit 2 with its id; an invalid
    proof fails with its ``proof.*``/``merkle.*`` id (exit 1); a valid proof that is
    lost is ``chain.proof_not_won`` (exit 1), since the contract would revert
    ``ProofNotWon``.  The proof's ``por_root`` is printed: the call strikes only the
    verdict whose stored root it is (else ``ProofPorRoot``).  With ``commit_by``
    (the account that will settle), the same checks give ``commitProof(commitment)``
    instead, the call to send a block before the settle (SPEC §14.4).  A FormStepProof is
    sent as ``settleByForms(marketKey, kind, args)`` (:func:`form_step_args`); its proof
    hash, commitment and challenge id are over ``kind || args``, not the file's bytes."""
    from por.challenge.check import check_proof  # noqa: PLC0415 - the checker on use
    from por.challenge.records import CitationProof, OneStepProof  # noqa: PLC0415

    report = check_proof(data, max_size=max_size)
    kind = _step_kind(data) if report.schema == OneStepProof.SCHEMA else None
    if report.schema is not None and report.schema not in ON_CHAIN_SCHEMAS and \
            kind not in ON_CHAIN_STEP_KINDS:
        shown = report.schema if kind is None else f"{report.schema} of a step of kind {kind}"
        raise UnsupportedError("chain.proof_kind", f"the registry checks CitationProofs, "
                               f"JudgeProofs, OmissionProofs, FormStepProofs, FormProofs and "
                               f"OneStepProofs of "
                               f"{', '.join(ON_CHAIN_STEP_KINDS)} steps only, not {shown}; "
                               "dispute it with a case (por dispute open, por chain challenge)",
                               expected=CitationProof.SCHEMA, actual=shown[:120])
    if report.schema == FORM_PROOF_SCHEMA and report.status == "valid":
        _require_form_family(data, max_size)
    if report.status == "error":  # this implementation cannot decide it: exit 2
        raise UnsupportedError(report.check_id, report.message)
    if report.status != "valid" or report.outcome is None:
        raise ProofError(report.check_id, report.message, expected=report.expected,
                         actual=report.actual)
    reason = report.outcome.reason
    if report.outcome.outcome != "won":
        raise ProofError("chain.proof_not_won", f"the proof is lost ({reason}): "
                         "settleByProof would revert ProofNotWon", expected="won",
                         actual=reason)
    key = key_of_text(market, prompt_spec_hash)
    forms = None
    if report.schema == FORM_STEP_SCHEMA:
        forms = _forms_call(data, key, max_size)
    elif report.schema == FORM_PROOF_SCHEMA:
        forms = _form_proof_call(data, key)
    hashed = data if forms is None else forms[1]
    fields = {"market": market, "market_id_hex": _hex(market_id_from_text(market)),
              "prompt_spec_hash_hex": _hex(prompt_spec_hash), "market_key": _hex(key),
              "por_root_hex": _hex(report.por_root or b""), "won": reason,
              "challenge_id_hex": _hex(settlement_id(key, hashed)), "value": "0"}
    if forms is not None:
        fields = {**fields, "kind": forms[0], "kind_hex": _hex(hashed[:32])}
    if commit_by is not None:
        commitment = proof_commitment(key, hashed, commit_by)
        return call_document(COMMIT_PROOF, market_calldata(COMMIT_PROOF, commitment),
                             commitment_hex=_hex(commitment), sender_hex=_hex(commit_by),
                             **fields)
    if forms is not None:
        return call_document(SETTLE_BY_FORMS, forms[2], **fields)
    return call_document(SETTLE_BY_PROOF, settle_by_proof_calldata(key, data), **fields)


#: The schema ``settleByForms`` takes (by ABI, not its CBOR bytes).
FORM_STEP_SCHEMA = "por.FormStepProof/1"


def _forms_call(data: bytes, key: bytes, max_size: int) -> tuple[str, bytes, bytes]:
    """(the proof's kind, ``kind || args``, the ``settleByForms`` calldata) of the
    FormStepProof ``data`` (already checked)."""
    from por.challenge.records import FormStepProof, proof_from_cbor  # noqa: PLC0415

    proof = proof_from_cbor(data, max_size=max_size)
    assert isinstance(proof, FormStepProof)  # noqa: S101 - the caller checked the schema
    kind, args = form_step_args(proof)
    return proof.kind, kind + args, settle_by_forms_calldata(key, kind, args)


#: The FormProof (SPEC §10.2.8): ``settleByForms`` kind ``form``, ``args`` its file's bytes.
FORM_PROOF_SCHEMA = "por.FormProof/1"


def _form_proof_call(data: bytes, key: bytes) -> tuple[str, bytes, bytes]:
    """(``form``, ``kind || args``, the ``settleByForms`` calldata) of the FormProof file
    ``data`` (already checked): ``kind = keccak256("form:form")``, ``args`` the file."""
    kind = keccak256(b"form:form")
    return "form", kind + data, settle_by_forms_calldata(key, kind, data)


def form_family(data: bytes, max_size: int) -> int | None:
    """The form tag of the family contract the chain's FormProof envelope needs to answer
    the FormProof ``data`` (a valid one), as ``PorFormProof`` picks it: the PromptSpec's
    1 (form 0) or 2, the verdict's 9, a valid step's of a computation (``identity``);
    None when it answers without one (an invalid step; a valid step of no computation,
    ``form.none``)."""
    from por.challenge.records import FormProof, proof_from_cbor  # noqa: PLC0415
    from por.encoding import decode  # noqa: PLC0415
    from por.forms.steps import identity  # noqa: PLC0415
    from por.schemas import ReasoningStep  # noqa: PLC0415

    proof = proof_from_cbor(data, max_size=max_size)
    assert isinstance(proof, FormProof)  # noqa: S101 - the caller checked the schema
    if proof.kind == "prompt_spec":
        return 1 if proof.form_index == 0 else 2
    if proof.kind == "verdict":
        return 9
    try:
        ReasoningStep.from_cbor(proof.record.leaf)
        return identity(decode(proof.record.leaf))[1]
    except (PorError, ValueError):
        return None


def _require_form_family(data: bytes, max_size: int) -> None:
    """``chain.proof_kind`` (exit 2) for a FormProof whose family is not on chain."""
    from por.forms.component import TAG_NAMES  # noqa: PLC0415

    tag = form_family(data, max_size)
    if tag is not None and tag not in ON_CHAIN_FORM_TAGS:
        names = ", ".join(f"{TAG_NAMES[t]} ({t})" for t in ON_CHAIN_FORM_TAGS)
        raise UnsupportedError("chain.proof_kind", f"the registry checks FormProofs of the "
                               f"{names} forms only, not of form {TAG_NAMES.get(tag, '?')} "
                               f"(tag {tag}; settleByForms would revert NoFamily({tag})); "
                               "dispute it with a case (por dispute open, por chain challenge)",
                               expected="form tag " + ", ".join(map(str, ON_CHAIN_FORM_TAGS)),
                               actual=f"form tag {tag}")


def _step_kind(data: bytes) -> str:
    """The disputed step's ``inputs.kind`` in a OneStepProof that decodes ("" when the
    step leaf carries none): what the contract dispatches on."""
    from por.challenge.records import OneStepProof, proof_from_cbor  # noqa: PLC0415
    from por.encoding import decode  # noqa: PLC0415

    proof = proof_from_cbor(data)
    assert isinstance(proof, OneStepProof)  # noqa: S101 - the caller checked the schema
    try:
        step = decode(proof.step.leaf)
    except PorError:
        return ""
    inputs = step.get("inputs") if isinstance(step, dict) else None
    kind = inputs.get("kind") if isinstance(inputs, dict) else None
    return kind if isinstance(kind, str) else ""


def case_call(case: Any, challenger: bytes | None) -> dict[str, Any]:
    """``openChallenge(case.market_key, caseHash, proof)`` for a ``por.DisputeCase/1``:
    the leaf's InclusionProof is built from the case's own bundle (``court.case_mismatch``
    if the case does not follow from it); with ``challenger``, the challenge id."""
    from por.bundle import Bundle  # noqa: PLC0415
    from por.challenge.proofs import build_inclusion_proof  # noqa: PLC0415
    from por.court.case import check_case  # noqa: PLC0415

    check_case(case)
    proof = build_inclusion_proof(Bundle.from_cbor(case.bundle), case.leaf_kind,
                                  case.leaf_index)
    return _challenge_document(case.market_key, case.case_hash(), proof,
                               market=case.market_id, challenger=challenger)


def _challenge_document(key: bytes, case_hash: bytes, proof: Any, *, market: str,
                        challenger: bytes | None = None) -> dict[str, Any]:
    component = COMPONENT_POSITION[proof.kind]
    leaf = leaf_id(key, component, proof.leaf_index)
    from por.merkle import leaf_hash  # noqa: PLC0415

    fields: dict[str, Any] = {
        "market": market, "market_id_hex": _hex(market_id_from_text(market)),
        "market_key": _hex(key), "por_root_hex": _hex(proof.por_root),
        "case_hash_hex": _hex(case_hash), "kind": proof.kind, "component": component,
        "leaf_index": str(proof.leaf_index), "tree_size": str(proof.tree_size),
        "leaf_id_hex": _hex(leaf), "value": "challengerBond()"}
    if challenger is not None:
        fields["challenger_hex"] = _hex(challenger)
        fields["challenge_id_hex"] = _hex(challenge_id(leaf, leaf_hash(proof.leaf), challenger,
                                                       case_hash))
    return call_document(OPEN_CHALLENGE, open_challenge_calldata(key, case_hash, proof),
                         **fields)


def ruling_call(record: Any, challenger: bytes) -> dict[str, Any]:
    """``submitRuling(ruling, signature, challenger)`` for a ``por.RulingSignature/1``;
    ``to`` is its ``verifying_contract``; the id of the challenge it settles."""
    struct = record.struct()
    ruling = (struct.challenge_id, struct.market_key, struct.leaf_hash, struct.upheld,
              struct.worker_pct, struct.case_hash, struct.court_root, struct.issued_at,
              struct.expires_at)
    data = submit_ruling_calldata(ruling, record.signature, challenger)
    return call_document(
        SUBMIT_RULING, data, to_hex=_hex(record.verifying_contract),
        chain_id=str(record.chain_id), market_key=_hex(struct.market_key), upheld=struct.upheld,
        worker_pct=struct.worker_pct,
        case_hash_hex=_hex(struct.case_hash), challenger_hex=_hex(challenger),
        challenge_id_hex=_hex(challenge_id(struct.challenge_id, struct.leaf_hash, challenger,
                                           struct.case_hash)))


__all__ = ["CALLDATA_SCHEMA", "ON_CHAIN_STEP_KINDS", "call_document", "case_call", "key_of_text",
           "prompt_spec_path", "proof_call", "ruling_call", "settle_call", "verdict_call"]
