"""Typed results handed between the numbered verification steps (SPEC §6.2).

Each step of ``verifier.steps`` takes what earlier steps established as typed
values and returns its own:

1. decode        -> :class:`Decoded` (the bundle's plain decode)
2. schema        -> :class:`Records` (the bundle and every record but the steps)
3. commitments   -> ``Commitments`` (recomputed from the records' bytes)
5. replay audit  -> ``ReasoningTrace`` (the replayed, byte-equal trace)

Steps 4, 6, 7 and 8 only add checks.  The fast path (``verifier.fast``) fills
a :class:`Handoff` with what the full verifier need not do again; each step
takes its part out of it, so what a step drops is freed (SPEC §17).

Leaves out: the steps themselves.  Imports no pydantic at run time: the fast
path makes a ``Handoff`` without loading the model layer.  Plain slotted
classes, not dataclasses: this module loads on every ``por verify``, and
declaring a dataclass costs about a millisecond of start-up (issue 16).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from por.bundle.layout import Bundle
    from por.bundle.manifest import Manifest
    from por.errors import PorError
    from por.lean.evidence import EvidenceItem as LeanEvidenceItem
    from por.lean.trace import Step as LeanStep
    from por.schemas import DeterministicVerdict, EvidenceBundle, PromptSpec, TraceHeader


class Decoded:
    """Step 1's result: the bundle as the strict decoder gives it (leaf records
    as bytes).  A wrapper, because a decoded value may be ``None`` (CBOR null)."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value


class Handoff:
    """What the fast path did before it stepped aside, for the full verifier.

    ``decoded``: the plain decode of the bundle; ``decode_error``: why step 1
    failed instead; ``lean_items``: every evidence item, valid as a lean record,
    ids unique (step 2 makes no second decode); ``step_mismatch``: the first
    replayed step that differs from its leaf, as ``(index, step)`` (step 5
    reports it without auditing again); ``forms_ok``: the steps ``[0, forms_ok)``
    whose carried form hash the fast path found equal to ``LH(F)`` (step 5's forms
    check need not compute them again).  A step takes its field (reads it and
    sets it to ``None``), as the fast path's work is needed once.
    """

    __slots__ = ("decode_error", "decoded", "forms_ok", "lean_items", "step_mismatch")

    def __init__(self, decoded: Decoded | None = None, decode_error: PorError | None = None,
                 lean_items: list[LeanEvidenceItem] | None = None,
                 step_mismatch: tuple[int, LeanStep] | None = None) -> None:
        self.decoded = decoded
        self.decode_error = decode_error
        self.lean_items = lean_items
        self.step_mismatch = step_mismatch
        self.forms_ok = 0

    def take(self) -> Handoff:
        """A new handoff with everything of this one, which is left empty."""
        taken = Handoff(self.decoded, self.decode_error, self.lean_items, self.step_mismatch)
        taken.forms_ok, self.forms_ok = self.forms_ok, 0
        self.decoded = self.decode_error = self.lean_items = self.step_mismatch = None
        return taken


class CommittedEvidence:
    """The committed evidence items: models, or the fast path's lean items, made
    into models the first time a step reads them (step 2 checked them, ids
    unique); a forged step is reported without them."""

    __slots__ = ("_count", "_lean", "_market_id", "_models")

    def __init__(self, market_id: str, *, lean: list[LeanEvidenceItem] | None = None,
                 models: EvidenceBundle | None = None) -> None:
        self._market_id = market_id
        self._lean = lean
        self._models = models
        self._count = len(lean) if lean is not None else (
            0 if models is None else len(models.items))

    @property
    def count(self) -> int:
        """How many evidence items the bundle commits (without making models)."""
        return self._count

    def requirement_ids(self) -> list[str]:
        """Each item's ``requirement_id``, in bundle order (without making models)."""
        if self._lean is not None:
            return [item.requirement_id for item in self._lean]
        return [] if self._models is None else [i.requirement_id for i in self._models.items]

    def models(self) -> EvidenceBundle:
        """The items as an ``EvidenceBundle`` (made once; the lean items are then freed)."""
        models = self._models
        if models is None:
            from por.schemas import EvidenceBundle, EvidenceItem  # noqa: PLC0415

            models = self._models = EvidenceBundle(
                bundle_id="committed", market_id=self._market_id,
                items=[EvidenceItem.from_lean(item) for item in self._lean or ()])
            self._lean = None
        return models


class Records:
    """Step 2's result: the bundle and its records, each strictly parsed (read only).

    The reasoning steps stay bytes (``bundle.steps``): step 5 compares them with
    the replay, and parses one only where it differs."""

    __slots__ = ("bundle", "evidence", "header", "manifest", "prompt_spec", "verdict")

    def __init__(self, *, bundle: Bundle, manifest: Manifest,
                 header: TraceHeader, prompt_spec: PromptSpec,
                 verdict: DeterministicVerdict, evidence: CommittedEvidence) -> None:
        self.bundle = bundle
        self.manifest = manifest
        self.header = header
        self.prompt_spec = prompt_spec
        self.verdict = verdict
        self.evidence = evidence


__all__ = ["CommittedEvidence", "Decoded", "Handoff", "Records"]
