"""The hotspot groups of a settle (ADR 0014's s34 addendum): each opcode's gas goes
to the first group whose rule holds for its function stack (outermost first, the
opcode's own function last), so the groups sum to the traced total.  The rules
name functions of contracts/src as the source maps name them (srcmap.py)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

Rule = Callable[[tuple[str, ...]], bool]


def _has(*names: str) -> Rule:
    return lambda path: any(name in path for name in names)


def _calls(caller: str, callee: str) -> Rule:
    """``caller`` calls ``callee`` directly somewhere on the stack."""
    return lambda path: any(a == caller and b == callee for a, b in pairwise(path))


def _executor(path: tuple[str, ...]) -> bool:
    return any(f.endswith(("Exec.execute", "Exec.check")) or f.startswith("PorCitationCheck.")
               for f in path)


#: (group, rule), in order of precedence.
GROUPS: list[tuple[str, Rule]] = [
    ("registry (settleByProof outside checkProof)",
     lambda path: "PorProofCheck.checkProof" not in path),
    ("§2 reader over the proof (PorProofCheck.readTop)", _has("PorProofCheck.readTop")),
    ("ABI encoding and decoding of calls (Yul abi_*)",
     lambda path: path[-1].startswith("yul abi_")),
    ("carried leaves' §2 passes (PorRecords.reasoningStep or evidenceItem > "
     "PorCborTop.checkTop; the judge's verdict record)",
     lambda path: ("PorCborTop.checkTop" in path and ("PorRecords.reasoningStep" in path
                                                       or "PorRecords.evidenceItem" in path))
     or _calls("PorJudgeCheck.verdictRecord", "PorCbor.check")(path)),
    ("PromptSpec §2 pass (PorOneStepCheck.specIsCbor; PorJudgeCheck.decide > PorCbor.check)",
     lambda path: "PorOneStepCheck.specIsCbor" in path
     or _calls("PorJudgeCheck.decide", "PorCbor.check")(path)),
    ("Merkle inclusions (PorInclusion.verify)", _has("PorInclusion.verify")),
    ("the proof's parts walk (verifyParts, rest)",
     _has("PorOneStepCheck.verifyParts", "PorJudgeCheck.verifyParts")),
    ("carried leaves' fields (PorOneStepCheck.prepare, rest)", _has("PorOneStepCheck.prepare")),
    ("the kind's own stages (in the executor or PorCitationCheck, rest)", _executor),
    ("checker routing and dispatch (rest)", lambda path: True),
]


def group_of(path: tuple[str, ...]) -> str:
    """The group of an opcode whose function stack is ``path``."""
    return next(name for name, rule in GROUPS if rule(path))
