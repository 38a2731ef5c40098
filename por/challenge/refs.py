"""From a verifier's ChallengeRef to the most specific proof a bundle supports (SPEC §10.1).

Preference order, most specific first (each falls back to the next when the
bundle cannot support it, e.g. a leaf that is not a valid record, a citation
no leaf carries, or records that do not hash to the commitments):

* ``reasoning_leaf`` with a leaf: OneStepProof, InclusionProof, BundleProof
  (:func:`winning_proof` tries first the step's FormStepProof, SPEC §10.2.9, when its
  kind has an executor on forms, then, cheapest first, the step's CitationProof and
  OmissionProof, SPEC §10.2.7 and §10.2.4, before its OneStepProof);
* ``evidence_leaf`` with a leaf, ``prompt_spec``, ``verdict``: InclusionProof,
  BundleProof (:func:`winning_proof` tries the verdict's FormStepProof of kind
  ``judge`` and its JudgeProof first);
* ``por_bundle``, or a leaf kind without a leaf index or id: BundleProof.

A bundle that supports none of them (its component leaves do not hash to its
committed ``por_root``) raises the BundleProof's ``proof.*`` error: nothing in
it can be proven against the root its signer committed to.

:func:`winning_proof` goes further (SPEC §10.1): it checks every candidate
the way ``check-proof`` would (then the omission and citation proofs of every
step, the JudgeProof and the HeaderProof) and returns the first one the
challenger wins, or a :class:`NoProof` that says why none is written: a
corrupted copy (its records do not hash to its own commitments, so the
por_root its signer committed to is not disputed by it), or a bundle whose
every proof is lost.

Leaves out: files (the CLI names and writes proofs).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from por.bundle.layout import DEFAULT_BUNDLE_MAX_SIZE, Bundle, compute_commitments
from por.challenge.check import check_proof
from por.challenge.citations import build_citation_proof, citation_faults
from por.challenge.form_proof import build_form_proof
from por.challenge.form_step import build_form_step_proof, form_step_kind
from por.challenge.header_proof import build_header_proof
from por.challenge.judge_proof import build_judge_proof
from por.challenge.omission import build_omission_proof, omissions
from por.challenge.one_step import Recompute, build_one_step_proof
from por.challenge.proofs import build_bundle_proof, build_inclusion_proof, leaf_index_by_id
from por.challenge.records import PROOF_MAX_SIZE, LeafKind, Proof
from por.challenge.report import ProofReport
from por.encoding import DEFAULT_MAX_CONTAINERS
from por.errors import PorError, ProofError, SchemaError
from por.protocol.budget import decode_bundle
from por.schemas.verification import ChallengeRef


def proof_for_ref(bundle: Bundle, ref: ChallengeRef) -> Proof:
    """The most specific proof of ``ref`` that ``bundle`` supports (see module doc)."""
    try:
        return _specific(bundle, ref)
    except PorError:
        return build_bundle_proof(bundle)


#: Why no proof is written for a copy whose records do not match its commitments.
CORRUPTED_COPY = "this file is a corrupted copy; por_root is not disputed by it"


#: A chain form lie (SPEC §6.2 step 5): a FormProof (SPEC §10.2.8) answers it.
FORM_LIES = frozenset({"form.none", "form.mismatch"})


@dataclass(frozen=True)
class NoProof:
    """Why no proof is written for a ChallengeRef: a reason id and one line."""

    reason: str
    message: str


def is_corrupted_copy(bundle: Bundle) -> bool:
    """True iff the records do not hash to the bundle's own commitments (SPEC §5.3)."""
    try:
        recomputed = compute_commitments(
            manifest=bundle.manifest, prompt_spec=bundle.prompt_spec,
            evidence=list(bundle.evidence), trace_header=bundle.trace_header,
            steps=list(bundle.steps), verdict=bundle.verdict, forms=list(bundle.forms))
    except (PorError, ValueError):
        return True
    return recomputed != bundle.commitments


def winning_proof(bundle: Bundle, ref: ChallengeRef, *,
                  recompute: Recompute | None = None) -> tuple[Proof, ProofReport] | NoProof:
    """The first candidate proof for ``ref`` that the challenger wins, with its report.

    Candidates come in the order of :func:`proof_for_ref`; each is checked by
    ``check_proof`` against the bundle's committed ``por_root`` (the same
    check a third party runs, under the same cap: ``PROOF_MAX_SIZE``).
    ``NoProof('no_proof.corrupted_copy')`` for a corrupted copy;
    a chain form lie (``form.*``): the first FormProof won among its record's forms;
    ``NoProof('no_proof.all_lost')`` (with the most specific candidate's
    reason) when every candidate is lost;
    ``NoProof('no_proof.too_large')`` when one was too large to decode (SPEC §10.7).
    """
    if is_corrupted_copy(bundle):
        return NoProof("no_proof.corrupted_copy", CORRUPTED_COPY)
    if ref.reason in FORM_LIES:
        return _form_proof(bundle, ref)
    first_lost: ProofReport | None = None
    too_large: int | None = None
    for proof in _candidates(bundle, ref):
        data = proof.to_cbor()
        report = check_proof(data, por_root=bundle.commitments.por_root,
                             recompute=recompute)
        if report.won:
            return proof, report
        too_large = _too_large(report, data, too_large)
        if first_lost is None and report.status != "error":  # no verdict is not lost
            first_lost = report
    # A step elsewhere may omit an item of its requirement (SPEC §10.2.4): full
    # replay reports the first differing step, which need not be the omitting one;
    # and the verdict may not follow from the trace (§10.2.5).
    for proof in _fallbacks(bundle, ref):
        data = proof.to_cbor()
        report = check_proof(data, por_root=bundle.commitments.por_root)
        if report.won:
            return proof, report
        too_large = _too_large(report, data, too_large)
    if too_large is not None:
        return NoProof("no_proof.too_large", f"a proof this bundle supports for {ref.kind} "
                       f"is {too_large} bytes or holds more arrays and maps than a proof "
                       f"may (SPEC §10.7: {PROOF_MAX_SIZE} bytes, {DEFAULT_MAX_CONTAINERS}"
                       " arrays and maps); no checker accepts it, and only full replay "
                       "(SPEC §6.2) rejects the bundle")
    why = "no proof can be built"
    if first_lost is not None:
        o = first_lost.outcome
        why = (f"{first_lost.check_id}: {first_lost.message}" if o is None
               else f"{o.reason}: {o.message}")
    return NoProof("no_proof.all_lost", f"every proof this bundle supports for "
                   f"{ref.kind} is lost by the challenger ({why}); only full replay "
                   "(SPEC §6.2) rejects it")


def _form_proof(bundle: Bundle, ref: ChallengeRef) -> tuple[Proof, ProofReport] | NoProof:
    """The first FormProof the challenger wins among the forms of ``ref``'s record
    (the PromptSpec's COMMON and REQUIREMENTs, one step's form, the verdict's)."""
    size, steps = len(bundle.forms), len(bundle.steps)
    r = size - steps - 2
    if ref.kind == "prompt_spec":
        indexes = list(range(r + 1))
    elif ref.kind == "reasoning_leaf" and ref.leaf_index is not None:
        indexes = [1 + r + ref.leaf_index]
    else:
        indexes = [size - 1]
    why = "no proof can be built"
    for index in indexes:
        try:
            proof = build_form_proof(bundle, index)
        except PorError as exc:
            why = f"{exc.check_id}: {exc.message}"
            continue
        report = check_proof(proof.to_cbor(), por_root=bundle.commitments.por_root)
        if report.won:
            return proof, report
        o = report.outcome
        why = f"{report.check_id}: {report.message}" if o is None else f"{o.reason}: {o.message}"
    return NoProof("no_proof.all_lost", f"every FormProof this bundle supports for "
                   f"{ref.kind} is lost by the challenger ({why}); only full replay "
                   "(SPEC §6.2) rejects it")


def _too_large(report: ProofReport, data: bytes, seen: int | None) -> int | None:
    """The size of the first candidate no checker decodes (``codec.too_large``
    under the one proof cap of SPEC §10.7), else ``seen``."""
    if seen is None and report.check_id == "proof.malformed" and (
            report.message.startswith("codec.too_large")):
        return len(data)
    return seen


def _fallbacks(bundle: Bundle, ref: ChallengeRef) -> Iterator[Proof]:
    """Omission proofs of every step (§10.2.4), citation proofs of every step
    (§10.2.7), then the judge on forms (§10.2.9), the JudgeProof (§10.2.5) and the
    HeaderProof (§10.2.6)."""
    builders: list[Callable[[], Proof]] = [
        lambda pair=pair: build_omission_proof(bundle, *pair)  # type: ignore[misc]
        for pair in omissions(bundle)]
    builders.extend(lambda n=n: build_citation_proof(bundle, n)  # type: ignore[misc]
                    for n in citation_faults(bundle))
    if ref.kind != "verdict":  # the judge on forms first (SPEC §10.1)
        builders.append(lambda: build_form_step_proof(bundle, "judge"))
        builders.append(lambda: build_judge_proof(bundle))
    builders.append(lambda: build_header_proof(bundle))
    for build in builders:
        try:
            yield build()
        except PorError:
            continue


def _candidates(bundle: Bundle, ref: ChallengeRef) -> Iterator[Proof]:
    """Every proof of ``ref`` the bundle supports, most specific first."""
    kind = ref.kind
    builders: list[Callable[[], Proof]] = []
    if kind == "verdict":  # on forms first (SPEC §10.1), then the CBOR JudgeProof
        builders.append(lambda: build_form_step_proof(bundle, "judge"))
        builders.append(lambda: build_judge_proof(bundle))
    if kind == "prompt_spec" or kind == "verdict":  # noqa: PLR1714 - narrows the Literal
        single: LeafKind = kind
        builders.append(lambda: build_inclusion_proof(bundle, single))
    elif kind == "evidence_leaf" or kind == "reasoning_leaf":  # noqa: PLR1714
        leaf_kind: LeafKind = kind
        try:
            index = _leaf_index(bundle, ref)
        except PorError:
            index = -1
        if index >= 0 and leaf_kind == "reasoning_leaf":
            # The step on chain forms first (SPEC §10.1), when its kind has an executor
            # on forms: the proof the chain settles for a fraction of the CBOR ones' gas.
            builders.append(lambda: build_form_step_proof(
                bundle, form_step_kind(bundle, index), index))
            # Then cheapest first (SPEC §10.1): a citation proof carries the step and at
            # most two items, an omission proof the step and one item; the one-step
            # proof carries everything the step cites, so it is built only when
            # neither wins (each builder refuses a step that breaks no rule of its).
            builders.append(lambda: build_citation_proof(bundle, index))
            builders.append(lambda: build_omission_proof(bundle, index))
            builders.append(lambda: build_one_step_proof(bundle, index))
        if index >= 0:
            builders.append(lambda: build_inclusion_proof(bundle, leaf_kind, index))
    builders.append(lambda: build_bundle_proof(bundle))
    for build in builders:
        try:
            yield build()
        except PorError:
            continue


def _specific(bundle: Bundle, ref: ChallengeRef) -> Proof:
    kind = ref.kind
    if kind in ("prompt_spec", "verdict"):
        return build_inclusion_proof(bundle, kind)
    if kind == "evidence_leaf":
        index = _leaf_index(bundle, ref)
        return build_inclusion_proof(bundle, "evidence_leaf", index)
    if kind == "reasoning_leaf":
        index = _leaf_index(bundle, ref)
        try:
            return build_one_step_proof(bundle, index)
        except PorError:
            return build_inclusion_proof(bundle, "reasoning_leaf", index)
    return build_bundle_proof(bundle)


def _leaf_index(bundle: Bundle, ref: ChallengeRef) -> int:
    """The ref's leaf index, else the position of its evidence/step id."""
    if ref.leaf_index is not None:
        return ref.leaf_index
    record_id = ref.evidence_id if ref.kind == "evidence_leaf" else ref.step_id
    if record_id is None:
        # No leaf named: the dispute is about the commitments as a whole.
        raise ProofError("proof.no_such_leaf", "the challenge names no leaf")
    kind: LeafKind = "evidence_leaf" if ref.kind == "evidence_leaf" else "reasoning_leaf"
    return leaf_index_by_id(bundle, kind, record_id)


def bundle_from_bytes(data: bytes, *, max_size: int | None = None) -> Bundle:
    """Strictly decode ``bundle.cbor`` bytes into a Bundle (``codec.*``, ``schema.*``).

    Only the bundle map is validated: the records inside stay bytes, so a proof
    can still be built for a leaf that is not a valid record.
    """
    value = decode_bundle(data,
                          max_size=DEFAULT_BUNDLE_MAX_SIZE if max_size is None else max_size)
    bundle = Bundle.from_dict(value)
    # decode() proved the bytes canonical; they are the record's canonical form iff
    # the model dumps back to the same value (as Record.from_cbor), so the bundle is
    # not encoded a second time (its bytes are kept as its encoding instead).
    if bundle.to_dict() != value:
        raise SchemaError("schema.non_canonical_record",
                          f"{Bundle.SCHEMA}: bytes are not the record's canonical form")
    bundle._cbor = bytes(data)
    return bundle


def proof_file_name(proof: Proof) -> str:
    """``<kind>-<first 16 hex digits of challenge_id>.cbor``: the same proof always
    gets the same name; the CLI adds ``-2``, ``-3``... rather than overwrite a
    different file of that name."""
    return f"{proof.kind}-{proof.challenge_id.hex()[:16]}.cbor"


__all__ = [
    "CORRUPTED_COPY",
    "NoProof",
    "bundle_from_bytes",
    "is_corrupted_copy",
    "proof_file_name",
    "proof_for_ref",
    "winning_proof",
]
