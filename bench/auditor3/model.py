"""The settle-gas model (ADR 0016, "Measured projection"): every term a measurement on
today's contracts (revm, the committed build), fitted once over every row, then
applied to /2 (calibration: its error is printed) and to /3 (the projection).

    settle = registry(bytes) + route + reader(proof) + sum reader(leaf)
             + H * sha_calls + P * parts + own

* ``reader(doc)``: ``PorProofCheck.checkCbor`` on the document's exact bytes, less the
  call's base (``checkCbor`` of an empty map): the §2 reader, measured per document,
  for the /2 proof and each leaf it carries, and for the /3 proof and each entry leaf.
* ``registry(bytes)``: ``settleByProof`` less ``checkProof``, fitted as a + b*bytes.
* ``route``: ``checkProof`` less the executor less ``reader(proof)``, the median.
* ``H``: the profiled "Merkle inclusions" gas over the SHA-256 calls of the /2 proofs
  (``MERKLE`` in bench/auditor3_model.py).  ``P``: the common part (SPEC §10.5 steps
  1-6, ``bench/common_part.py``) less the carried leaves' reader passes less H *
  sha_calls, per part (the median over the step rows; a part: a /2 InclusionProof,
  a /3 entry leaf: the parts walk and the leaf's top-level fields).
* ``own``: the executor less the common part (the kind's own stages), measured per
  row; for the rows without a common-part bench (map, JudgeProof, OmissionProof,
  CitationProof) the residual (their /2 error is then the registry and route fits
  only: marked ``fit``).  /3 keeps it but for the PromptSpec reading, which scales
  with the PromptSpec bytes carried (``SPEC_READ``), and adds the recomputed step's
  tree (its leaves and nodes hashed).  Rational arithmetic, no floats.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

#: The kinds' PromptSpec reading per PromptSpec byte (gas, inclusive, over the
#: 2 261-byte PromptSpec of scenario 08): ``bench/gas_profile.py "<class>" --json
#: --top 400`` at a301f82 (aggregate ``PorAggregateRead.spec`` 83 660, JudgeProof
#: ``PorJudgeRules.readSpec`` 154 583) and ADR 0014's s34 table for the rest
#: (``PorCheckSpec.readSpec`` 71 904, contradictions ``readSpec`` 42 161,
#: ``PorDeduceSpec.read`` 98 858).
SPEC_READ: dict[str, Fraction] = {
    "aggregate": Fraction(83_660, 2261), "judge": Fraction(154_583, 2261),
    "check_requirement": Fraction(71_904, 2261), "contradictions": Fraction(42_161, 2261),
    "deduce": Fraction(98_858, 2261),
}


def median(values: list[Any]) -> Any:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def fit_line(points: list[tuple[int, int]]) -> tuple[Fraction, Fraction]:
    """Least squares y = a + b x, exact rationals."""
    n = len(points)
    sx, sy = sum(x for x, _ in points), sum(y for _, y in points)
    sxx, sxy = sum(x * x for x, _ in points), sum(x * y for x, y in points)
    b = Fraction(n * sxy - sx * sy, n * sxx - sx * sx)
    return Fraction(sy - b * sx, n), b


class Model:
    """The fitted figures; ``fit`` from measured rows (dicts of model.py's runner)."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.reg_a, self.reg_b = fit_line([(r["bytes2"], r["settle"] - r["checkProof"])
                                           for r in rows])
        self.route = median([r["checkProof"] - r["exec"] - r["reader2"] for r in rows
                             if r["exec"] is not None])
        profiled = [r for r in rows if r.get("merkle2") is not None]
        self.h = Fraction(sum(r["merkle2"] for r in profiled), sum(r["sha2"] for r in profiled))
        self.p = median([Fraction(r["common"] - r["leaves2"] - self.h * r["sha2"], r["parts2"])
                         for r in rows if r["common"] is not None])

    def shared(self, nbytes: int, reader: int, leaves: int, sha: int, parts: int) -> Fraction:
        return (self.reg_a + self.reg_b * nbytes + self.route + reader + leaves
                + self.h * sha + self.p * parts)

    def own2(self, r: dict[str, Any]) -> Fraction:
        if r["common"] is not None:
            return Fraction(r["exec"] - r["common"])
        total = self.shared(r["bytes2"], r["reader2"], r["leaves2"], r["sha2"], r["parts2"])
        return r["settle"] - total  # residual: no common-part bench for this class

    def settle2(self, r: dict[str, Any]) -> int:
        return round(self.shared(r["bytes2"], r["reader2"], r["leaves2"], r["sha2"],
                                 r["parts2"]) + self.own2(r))

    def settle3(self, r: dict[str, Any]) -> int:
        rate = SPEC_READ.get(r["kind"], Fraction(0))
        own = (self.own2(r) - rate * r["spec2"] + rate * r["spec3"]
               + self.h * r["recompute_sha"])
        return round(self.shared(r["bytes3"], r["reader3"], r["leaves3"], r["sha3"],
                                 r["parts3"]) + own)

    def figures(self) -> dict[str, str]:
        return {"registry": f"{round(self.reg_a)} + {round(self.reg_b * 1000)}/1000 a byte",
                "route": str(self.route), "H (per SHA-256 call)": str(round(self.h)),
                "P (per part / entry)": str(round(self.p))}
