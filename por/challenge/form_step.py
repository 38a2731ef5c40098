"""Form step proofs (SPEC §10.2.9, §10.4.4; ADR 0017 §3): a step re-executed on chain forms.

A ``por.FormStepProof/1`` carries the forms one executor on forms reads, in its order,
each with its index and RFC 9162 path in the ``forms`` tree, and the ``forms``
component leaf's path to ``por_root``; no record's CBOR. ``kind`` names the executor:

* ``check`` / ``aggregate``: the step's CHUNK / AGGREGATE, COMMON, the REQUIREMENT of
  the step's ``requirement_id`` (REQUIREMENT 0 when no entry has it), the forms of its
  ``prior_step_ids`` (the first leaf with each id, in citation order);
* ``deduce`` / ``map`` / ``contradictions``: the DEDUCE / MAP / CONTRADICTIONS form,
  COMMON, the forms of its ``prior_step_ids``;
* ``judge``: VERDICT, COMMON, the last step's form, the EXTRACT forms of the items the
  last step's ``source_summary`` names (the extract step at each id's first evidence
  leaf, each id once).

The checker proves every carried form under one ``forms`` root and that root under
``por_root`` (the ids of SPEC §10.4.4, in its order), then runs the kind's executor
(``por.forms.execute``): ``proof.form`` / ``proof.citations`` make the proof invalid,
an answer is the outcome (won or lost, the answer's check id and cause).

The bytes are computed from the records (``por.forms.form_of``); the paths from the
bundle's committed ``forms`` leaf hashes. A carried form whose committed hash is not
``LH(F)`` of its record is a form lie, which a FormProof answers (SPEC §10.2.8): the
builder refuses with its ``form.*`` id.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from por.bundle.layout import COMPONENT_INDEX, COMPONENTS, Bundle, component_leaf
from por.challenge.one_step import positions_of
from por.challenge.proofs import level_trace, require_por_root, verify_challenge_id
from por.challenge.records import MAX_FORMS, FormStepProof, seal
from por.challenge.report import ChallengeOutcome, FormCheck
from por.challenge.step_leaf import step_value
from por.container import POR_BUNDLE, component_path, root_from_component_path
from por.encoding import decode
from por.errors import PorError, ProofError
from por.forms import form_of
from por.forms.execute import execute
from por.merkle import leaf_hash
from por.merkle.tree import inclusion_path_from_levels, tree_levels
from por.schemas import DeterministicVerdict, ReasoningStep

#: The executor on forms of each step kind that has one (SPEC §10.2.9).
STEP_EXECUTOR: Final[dict[str, str]] = {"check_requirement": "check",
                                         "aggregate": "aggregate", "deduce": "deduce",
                                         "map": "map", "contradictions": "contradictions"}
#: Every FormStepProof kind: the step executors' and the judge's.
FORM_STEP_KINDS: Final = ("check", "aggregate", "deduce", "map", "judge", "contradictions")


def form_step_kind(bundle: Bundle, leaf: int) -> str:
    """The FormStepProof kind of reasoning leaf ``leaf`` (``check``, ``aggregate``,
    ``deduce``); ``ProofError``: ``proof.no_such_leaf``, ``proof.step_record`` (the leaf
    is not a step map), ``proof.no_form_executor`` (its kind has no executor on forms)."""
    if type(leaf) is not int or not 0 <= leaf < len(bundle.steps):
        raise ProofError("proof.no_such_leaf", f"no reasoning_leaf leaf {leaf!r} among "
                         f"{len(bundle.steps)}")
    step = _step(bundle, leaf)
    _valid(bundle.steps[leaf], ReasoningStep, f"step leaf {leaf}")
    inputs = step.get("inputs")
    kind = inputs.get("kind") if isinstance(inputs, dict) else None
    executor = STEP_EXECUTOR.get(kind) if isinstance(kind, str) else None
    if executor is None:
        shown = repr(kind)[:60]
        raise ProofError("proof.no_form_executor", f"step leaf {leaf} has kind {shown}; "
                         "only check_requirement, aggregate, contradictions, deduce and "
                         "map steps (and the "
                         "verdict, --judge) have an executor on forms")
    return executor


def build_form_step_proof(bundle: Bundle, kind: str, leaf: int | None = None) -> FormStepProof:
    """The FormStepProof of ``kind`` (``check``/``aggregate``/``deduce`` on reasoning
    leaf ``leaf``, ``judge`` on the verdict with ``leaf`` None); see the module doc.

    ``ProofError``: ``proof.no_such_leaf``, ``proof.step_record`` (the step, or for
    ``judge`` the verdict, is not a valid record), ``proof.no_form_executor``,
    ``proof.kind`` (the step is not of ``kind``),
    ``proof.citation_missing`` (a cited id no leaf carries), ``proof.schema`` (more than
    ``MAX_FORMS`` forms), ``proof.leaf_path`` / ``proof.component_path`` (the forms do
    not hash to the bundle's commitments), ``form.none`` / ``form.mismatch`` (a carried
    form's committed hash is not ``LH(F)`` of its record: a FormProof's lie).
    """
    if kind not in FORM_STEP_KINDS:
        raise ValueError(f"no executor on forms for kind {kind!r}")
    if (kind == "judge") != (leaf is None):
        raise ValueError("judge takes no leaf; check, aggregate and deduce take one")
    spec = _record(bundle.prompt_spec, "the PromptSpec")
    requirements = spec.get("data_requirements")
    r = len(requirements) if isinstance(requirements, list) else 0
    base = 1 + r  # forms index of reasoning leaf 0
    if leaf is None:  # judge
        _valid(bundle.verdict, DeterministicVerdict, "the verdict")
        carried = _judge_forms(bundle, base)
    else:
        found = form_step_kind(bundle, leaf)
        if found != kind:
            raise ProofError("proof.kind", f"step leaf {leaf} is read by the {found} "
                             f"executor, not by {kind}", required=kind, found=found)
        carried = _step_forms(bundle, leaf, spec, base, kind)
    if len(carried) > MAX_FORMS:
        raise ProofError("proof.schema", f"the {kind} executor would read {len(carried)} "
                         f"forms; a FormStepProof carries at most {MAX_FORMS}",
                         required=f"<= {MAX_FORMS}", found=len(carried))
    forms = _forms(bundle, spec, carried, base)
    c = bundle.commitments
    levels = _committed_levels(bundle)
    body: dict[str, Any] = {
        "schema": FormStepProof.SCHEMA, "kind": kind, "por_root": c.por_root,
        "forms": forms, "index": carried, "forms_size": len(bundle.forms),
        "paths": [inclusion_path_from_levels(levels, i) for i in carried],
        "forms_path": component_path(POR_BUNDLE, c, "forms"),
    }
    proof: FormStepProof = seal(FormStepProof, body)
    return proof


def verify_form_step_proof(proof: FormStepProof, *, por_root: bytes | None = None,
                           checks: list[FormCheck] | None = None) -> ChallengeOutcome:
    """SPEC §10.4.4: the trusted root, every carried form under one ``forms`` root, that
    root under ``por_root``, the id, then the executor's answer. ``checks`` receives a
    :class:`FormCheck` per carried form (form 0's also holds the component level)."""
    sink = checks if checks is not None else []
    require_por_root(proof.por_root, por_root)
    n = len(proof.forms)
    if len(proof.index) != n or len(proof.paths) != n:
        raise ProofError("proof.schema", f"forms, index and paths have {n}, "
                         f"{len(proof.index)} and {len(proof.paths)} entries")
    size = proof.forms_size
    root = b""
    checks_here = [FormCheck(role=f"forms[{i}]", index=index, size=size, form=form)
                   for i, (form, index) in enumerate(zip(proof.forms, proof.index,
                                                         strict=True))]
    for i, (check, path) in enumerate(zip(checks_here, proof.paths, strict=True)):
        sink.append(check)
        level = level_trace(check.role, "leaf", check.form, check.index, size, path, root)
        if i == 0:  # form 0 fixes the forms root the others must reach
            root = level.calculated_root
            level = replace(level, expected_root=root)
        check.levels.append(level)
        if not level.ok:
            raise ProofError("proof.leaf_path", f"forms[{i}] (form {check.index}) does not lead "
                             "to the forms root form 0 leads to", committed=root,
                             recomputed=level.calculated_root)
    first = checks_here[0]  # the record holds at least one form
    top = level_trace(first.role, "component", component_leaf(root, size),
                      COMPONENT_INDEX["forms"], len(COMPONENTS), proof.forms_path,
                      proof.por_root)
    first.levels.append(top)
    if not top.ok:
        raise ProofError("proof.component_path", "the forms component leaf does not lead "
                         "to por_root", committed=proof.por_root,
                         recomputed=top.calculated_root)
    verify_challenge_id(proof, "form step")
    answer = execute(proof.kind, proof.forms, proof.index, size)
    because = f" ({answer.cause})" if answer.cause else ""
    return ChallengeOutcome("won" if answer.won else "lost", answer.check_id,
                            f"the {proof.kind} executor on forms answers "
                            f"{answer.check_id}{because}", cause=answer.cause or None)


# --- building -----------------------------------------------------------------------------


def _record(blob: bytes, what: str) -> dict[str, Any]:
    try:
        value = decode(blob)
    except PorError as exc:
        raise ProofError("proof.step_record", f"{what} does not decode ({exc.check_id}); "
                         "challenge it by inclusion") from None
    if not isinstance(value, dict):
        raise ProofError("proof.step_record", f"{what} is not a map; challenge it by "
                         "inclusion")
    return value


def _valid(blob: bytes, cls: Any, what: str) -> None:
    """The disputed record is valid (a record that is not is its InclusionProof's or
    FormProof's, SPEC §10.1): else ``proof.step_record``."""
    try:
        cls.from_cbor(blob)
    except PorError as exc:
        raise ProofError("proof.step_record", f"{what} is not a valid record "
                         f"({exc.check_id}); challenge it by inclusion") from None


def _step(bundle: Bundle, leaf: int) -> dict[str, Any]:
    return _record(bundle.steps[leaf], f"step leaf {leaf}")


def _positions(bundle: Bundle, ids: list[Any]) -> list[int]:
    """Leaf of the first step carrying each id (``proof.citation_missing``)."""
    wanted = {p for p in ids if isinstance(p, str)}
    found = positions_of(bundle.steps, "step_id", wanted, read=step_value)
    for p in ids:
        if p not in found:
            raise ProofError("proof.citation_missing", f"the step cites {str(p)[:80]!r}, "
                             "which no committed step carries")
    return [found[p] for p in ids]


def _step_forms(bundle: Bundle, leaf: int, spec: dict[str, Any], base: int,
                kind: str) -> list[int]:
    """Forms indexes the ``kind`` executor reads for the step at ``leaf``."""
    step = _step(bundle, leaf)
    prior = step.get("prior_step_ids")
    cited = [base + j for j in _positions(bundle, prior if isinstance(prior, list) else [])]
    if kind in ("deduce", "map", "contradictions"):
        return [base + leaf, 0, *cited]
    inputs = step.get("inputs")
    rid = inputs.get("requirement_id") if isinstance(inputs, dict) else None
    entries = spec.get("data_requirements")
    rids = [q.get("requirement_id") if isinstance(q, dict) else None
            for q in (entries if isinstance(entries, list) else [])]
    k = rids.index(rid) if rid in rids else 0
    return [base + leaf, 0, 1 + k, *cited]


def _judge_forms(bundle: Bundle, base: int) -> list[int]:
    """VERDICT, COMMON, the last step, the summarised items' extract steps."""
    if not bundle.steps:
        raise ProofError("proof.no_such_leaf", "the bundle has no reasoning steps")
    last = len(bundle.steps) - 1
    output = _step(bundle, last).get("output")
    variables = output.get("evaluation_variables") if isinstance(output, dict) else None
    summary = variables.get("source_summary") if isinstance(variables, dict) else None
    wanted: list[str] = []
    if isinstance(summary, list) and all(isinstance(s, str) for s in summary):
        wanted = list(dict.fromkeys(summary))
    found = positions_of(bundle.evidence, "evidence_id", set(wanted))
    missing = [w for w in wanted if w not in found]
    if missing:
        raise ProofError("proof.citation_missing", f"source_summary names evidence_id "
                         f"{missing[0][:80]!r}, which no committed leaf carries")
    size = base + len(bundle.steps) + 1
    return [size - 1, 0, base + last, *(base + found[w] for w in wanted)]


def _forms(bundle: Bundle, spec: dict[str, Any], carried: list[int], base: int) -> list[bytes]:
    """``F`` of each carried record; each must be the committed leaf (else ``form.*``)."""
    committed = bundle.forms
    out: list[bytes] = []
    values: dict[int, bytes] = {}
    for index in carried:
        if index not in values:
            values[index] = _form(bundle, spec, index, base)
            if index >= len(committed) or leaf_hash(values[index]) != committed[index]:
                raise ProofError("form.mismatch", f"form {index}: the committed leaf hash is "
                                 "not LH(F) of its record; a FormProof answers it "
                                 "(SPEC §10.2.8)")
        out.append(values[index])
    return out


def _form(bundle: Bundle, spec: dict[str, Any], index: int, base: int) -> bytes:
    steps = len(bundle.steps)
    try:
        if index < base:
            return form_of(spec, index - 1 if index > 0 else None)
        if index < base + steps:
            return form_of(_step(bundle, index - base))
        return form_of(_record(bundle.verdict, "the verdict"))
    except PorError as exc:
        if exc.check_id != "form.none":
            raise
        raise ProofError("form.none", f"form {index} has no chain form ({exc.message}); "
                         "a FormProof answers it (SPEC §10.2.8)") from None


def verdict_form_inclusion(bundle: Bundle) -> tuple[bytes, int, list[bytes], list[bytes]]:
    """The committed VERDICT form ``F`` (the ``forms`` tree's last leaf, SPEC §5.6.12), the
    forms size, F's path and the ``forms`` component's path to ``por_root``: what the
    outcome proof carries (SPEC §14.4). ``ProofError`` ``form.mismatch`` / ``form.none``
    when the committed leaf is not ``LH(F)`` of the verdict record (a FormProof answers it),
    ``proof.leaf_path`` / ``proof.component_path`` for forms that are not the committed."""
    levels = _committed_levels(bundle)
    size = len(bundle.forms)
    (form,) = _forms(bundle, {}, [size - 1], size - len(bundle.steps) - 1)
    return (form, size, inclusion_path_from_levels(levels, size - 1),
            component_path(POR_BUNDLE, bundle.commitments, "forms"))


def _committed_levels(bundle: Bundle) -> list[list[bytes]]:
    """The ``forms`` tree over the committed leaf hashes, checked against the
    commitments (``proof.leaf_path``, ``proof.component_path``)."""
    c = bundle.commitments
    if not bundle.forms:
        raise ProofError("proof.leaf_path", "the bundle carries no forms")
    levels = tree_levels(list(bundle.forms))
    root = levels[-1][0]
    if root != c.forms_root or len(bundle.forms) != c.forms_count:
        raise ProofError("proof.leaf_path", "the forms leaf hashes do not hash to the "
                         "committed forms root and size", committed=c.forms_root,
                         recomputed=root)
    reached = root_from_component_path(POR_BUNDLE, "forms", root, len(bundle.forms),
                                       component_path(POR_BUNDLE, c, "forms"))
    if reached != c.por_root:
        raise ProofError("proof.component_path", "the forms component leaf does not lead "
                         "to por_root", committed=c.por_root, recomputed=reached)
    return levels


__all__ = [
    "FORM_STEP_KINDS",
    "STEP_EXECUTOR",
    "build_form_step_proof",
    "form_step_kind",
    "verdict_form_inclusion",
    "verify_form_step_proof",
]
