"""What checking a proof found (SPEC §10.4): level traces, outcomes, the report.

The hashes in a :class:`LevelTrace` are the ones the verifier itself computed
(``por.merkle.inclusion_trace``) and then compared, not a second computation
for display.  ``ProofReport.to_json_obj`` is the ``por check-proof --json``
document body (hashes and leaf bytes as lower-case hex).

Leaves out: verification itself (``proofs``, ``one_step``, ``check``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal

from por.bundle.layout import COMPONENTS
from por.challenge.diffs import FieldDiff, field_diffs
from por.challenge.records import InclusionProof
from por.errors import PorError, ProofError

#: A proof is ``valid`` (every hash checks) or ``invalid``; ``error``: no verdict.
Status = Literal["valid", "invalid", "error"]
#: A challenge is ``won`` (the committed data is wrong) or ``lost`` (it is right).
Outcome = Literal["won", "lost"]
#: SPEC §10.6: 0 the challenge is won (a valid proof that the committed data is
#: wrong), 1 it is lost (an invalid proof, or a valid one of right data),
#: 2 no verdict.  Scripts read who won from the exit code alone.
EXIT_WON: Final = 0
EXIT_LOST: Final = 1
EXIT_NO_VERDICT: Final = 2
#: The versioned ``schema`` of the check-proof JSON document.
REPORT_SCHEMA: Final = "por/proof-check/1"


@dataclass(frozen=True)
class LevelTrace:
    """One level of an inclusion check, exactly as computed.

    ``level`` is ``"leaf"`` (record leaf -> component root) or ``"component"``
    (component leaf -> ``por_root``).  ``hashes[0]`` is the leaf hash and
    ``hashes[j + 1]`` the running hash after ``path[j]`` (hashed on ``sides[j]``);
    ``hashes[-1]`` is the calculated root compared with ``expected_root``.
    """

    level: str
    leaf: bytes
    index: int
    size: int
    path: tuple[bytes, ...]
    sides: tuple[str, ...]
    hashes: tuple[bytes, ...]
    expected_root: bytes

    @property
    def calculated_root(self) -> bytes:
        """The root the path leads to."""
        return self.hashes[-1]

    @property
    def ok(self) -> bool:
        """Whether the calculated root is the expected one."""
        return self.hashes[-1] == self.expected_root

    def to_json_obj(self) -> dict[str, Any]:
        """JSON form; the record leaf's bytes are shown once, on the proof."""
        return {
            "level": self.level,
            "leaf": self.leaf.hex() if self.level == "component" else None,
            "leaf_hash": self.hashes[0].hex(),
            "index": self.index,
            "size": self.size,
            "path": [h.hex() for h in self.path],
            "sides": list(self.sides),
            "hashes": [h.hex() for h in self.hashes],
            "committed_root": self.expected_root.hex(),
            "recomputed_root": self.calculated_root.hex(),
            "ok": self.ok,
        }


@dataclass
class InclusionCheck:
    """One inclusion proof being checked; ``levels`` fill in as they are computed."""

    role: str
    proof: InclusionProof
    levels: list[LevelTrace] = field(default_factory=list)
    leaf_record: str | None = None
    leaf_id: str | None = None

    def to_json_obj(self) -> dict[str, Any]:
        """Every field of the proof plus the computed levels."""
        p = self.proof
        return {
            "role": self.role,
            "schema": p.SCHEMA,
            "challenge_id": p.challenge_id.hex(),
            "kind": p.kind,
            "component": p.component,
            "leaf": p.leaf.hex(),
            "leaf_index": p.leaf_index,
            "tree_size": p.tree_size,
            "leaf_path": [h.hex() for h in p.leaf_path],
            "component_root": p.component_root.hex(),
            "component_path": [h.hex() for h in p.component_path],
            "por_root": p.por_root.hex(),
            "leaf_record": self.leaf_record,
            "leaf_id": self.leaf_id,
            "levels": [level.to_json_obj() for level in self.levels],
        }


@dataclass
class FormCheck:
    """One carried form of a FormStepProof being checked (SPEC §10.4.4): its level in the
    ``forms`` tree, and for form 0 also the component level to ``por_root``."""

    role: str
    index: int
    size: int
    form: bytes
    levels: list[LevelTrace] = field(default_factory=list)

    def heading(self) -> str:
        """``forms[i]: form <index> of <size> in forms`` (``por check-proof -v``)."""
        return f"{self.role}: form {self.index} of {self.size} in forms"

    def to_json_obj(self) -> dict[str, Any]:
        """The carried form (hex), its index and the computed levels."""
        return {"role": self.role, "kind": "form", "component": "forms",
                "form": self.form.hex(), "leaf_index": self.index, "tree_size": self.size,
                "levels": [level.to_json_obj() for level in self.levels]}


@dataclass(frozen=True)
class Finding:
    """A fault a verified BundleProof exhibits (a check id and one line)."""

    check_id: str
    message: str


@dataclass
class BundleCheck:
    """A BundleProof being checked: its component leaves and what they show."""

    component_leaves: tuple[bytes, ...]
    leaf_hashes: tuple[bytes, ...] = ()
    calculated_root: bytes | None = None
    findings: list[Finding] = field(default_factory=list)

    def to_json_obj(self) -> dict[str, Any]:
        """Component leaves (root, size), their leaf hashes, the root, the findings."""
        return {
            "components": [
                {"name": name, "leaf": leaf.hex(), "root": leaf[:32].hex(),
                 "size": int.from_bytes(leaf[32:], "big")}
                for name, leaf in zip(COMPONENTS, self.component_leaves, strict=True)
            ],
            "leaf_hashes": [h.hex() for h in self.leaf_hashes],
            "recomputed_root": None if self.calculated_root is None
            else self.calculated_root.hex(),
            "findings": [{"id": f.check_id, "message": f.message} for f in self.findings],
        }


@dataclass(frozen=True)
class ChallengeOutcome:
    """Who a challenge favours (SPEC §10.4, §10.5).

    ``won``: the committed data is wrong (the challenger wins); ``lost``: it is
    right (the bundle stands).  ``reason`` is one check id.  ``differences``:
    the field-level diffs of a step that differs from its recomputation.
    """

    outcome: Outcome
    reason: str
    message: str
    step_id: str | None = None
    committed_leaf_hash: bytes | None = None
    recomputed_leaf_hash: bytes | None = None
    recomputed: dict[str, Any] | None = None
    differing_fields: tuple[str, ...] = ()
    differences: tuple[FieldDiff, ...] = ()
    cause: str | None = None

    @property
    def won(self) -> bool:
        """True iff the challenger wins."""
        return self.outcome == "won"

    def to_json_obj(self) -> dict[str, Any]:
        """JSON form (hashes hex)."""
        return {
            "outcome": self.outcome,
            "winner": "challenger" if self.won else "bundle",
            "reason": self.reason,
            "message": self.message,
            "step_id": self.step_id,
            "committed_leaf_hash": _hex(self.committed_leaf_hash),
            "recomputed_leaf_hash": _hex(self.recomputed_leaf_hash),
            "recomputed": self.recomputed,
            "differing_fields": list(self.differing_fields),
            "differences": [d.to_json_obj() for d in self.differences],
            "cause": self.cause,
        }


@dataclass(frozen=True)
class ProofReport:
    """The result of ``check_proof``: status, the first failure, what was computed."""

    status: Status
    check_id: str
    message: str
    schema: str | None = None
    kind: str | None = None
    challenge_id: bytes | None = None
    por_root: bytes | None = None
    committed: Any = None
    recomputed: Any = None
    required: Any = None
    found: Any = None
    inclusions: tuple[InclusionCheck | FormCheck, ...] = ()
    bundle: BundleCheck | None = None
    outcome: ChallengeOutcome | None = None

    @property
    def expected(self) -> Any:
        """PorError's ``expected``: the recomputed or the required value."""
        return self.recomputed if self.required is None else self.required

    @property
    def actual(self) -> Any:
        """PorError's ``actual``: the committed or the found value."""
        return self.committed if self.found is None else self.found

    @property
    def exit_code(self) -> int:
        """0 the challenge is won, 1 it is lost (or the proof is invalid), 2 no
        verdict (SPEC §10.6)."""
        if self.status == "error":
            return EXIT_NO_VERDICT
        return EXIT_WON if self.won else EXIT_LOST

    @property
    def ok(self) -> bool:
        """True iff the proof is valid (whoever the outcome favours)."""
        return self.status == "valid"

    @property
    def won(self) -> bool:
        """True iff the proof is valid and the challenge is won."""
        return self.ok and self.outcome is not None and self.outcome.won

    def to_json_obj(self) -> dict[str, Any]:
        """The report as JSON values; every key always present."""
        return {
            "status": self.status,
            "challenge": ("won" if self.won else "lost") if self.status != "error" else None,
            "exit_code": self.exit_code,
            "check_id": self.check_id,
            "message": self.message,
            "committed": _show(self.committed),
            "recomputed": _show(self.recomputed),
            "required": _show(self.required),
            "found": _show(self.found),
            "proof_schema": self.schema,
            "kind": self.kind,
            "challenge_id": _hex(self.challenge_id),
            "por_root": _hex(self.por_root),
            "inclusions": [c.to_json_obj() for c in self.inclusions],
            "bundle": None if self.bundle is None else self.bundle.to_json_obj(),
            "outcome": None if self.outcome is None else self.outcome.to_json_obj(),
        }


def error_values(exc: PorError) -> dict[str, Any]:
    """The report's named pair for a failure (SPEC §10.6): ``committed`` and
    ``recomputed`` when ``exc`` compares a committed value with its recomputation
    from the proof, else ``required`` and ``found`` (a rule and what the proof has;
    every ``merkle.*``, ``codec.*`` and ``schema.*`` failure is of this kind)."""
    if isinstance(exc, ProofError) and exc.recomputes:
        return {"committed": exc.actual, "recomputed": exc.expected}
    return {"required": exc.expected, "found": exc.actual}


def _hex(value: bytes | None) -> str | None:
    return None if value is None else value.hex()


def _show(value: Any) -> Any:
    if value is None or isinstance(value, int | str):
        return value
    if isinstance(value, bytes | bytearray):
        return bytes(value).hex()
    return str(value)



def won_by_differences(reason: str, message: str, committed_json: Any, recomputed_json: Any,
                       /, **result: Any) -> ChallengeOutcome:
    """A won outcome whose message ends with the first field-level difference
    between the committed and the recomputed record's JSON forms (``result``:
    the other ChallengeOutcome fields)."""
    diffs = tuple(field_diffs(committed_json, recomputed_json))
    first = f": {diffs[0].line()}" if diffs else ""
    return ChallengeOutcome("won", reason, message + first,
                            differing_fields=tuple(d.field for d in diffs),
                            differences=diffs, **result)

__all__ = [
    "EXIT_LOST",
    "EXIT_NO_VERDICT",
    "EXIT_WON",
    "REPORT_SCHEMA",
    "BundleCheck",
    "ChallengeOutcome",
    "Finding",
    "FormCheck",
    "InclusionCheck",
    "LevelTrace",
    "Outcome",
    "ProofReport",
    "Status",
    "error_values",
    "won_by_differences",
]
