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
  (``PROFILE``).  ``P``: the profiled parts walk and carried leaves' fields over the
  items walked: each /2 InclusionProof map and its record's top level; for /3 each
  record array and entry (its index, its leaf's array, path and value head).
* ``own``: the profiled kind's own stages (``PROFILE``, the typical classes: their
  /2 error tests every other term); for the largest rows, unprofiled, the residual
  of the measured settle (their /2 error is 0 by construction).  /3 keeps it but
  for the PromptSpec reading, which scales with the PromptSpec bytes carried
  (``SPEC_READ``), and adds the recomputed step's tree (its leaves and nodes
  hashed).  Rational arithmetic, no floats.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

#: Own-stage figures of the typical classes, from ``PYTHONPATH=. python
#: bench/gas_profile.py "<class>" --top 2000 --json`` at a301f82 (anvil settle):
#: (inclusive PromptSpec reading of the kind, bytes of the PromptSpec leaf) and
#: (the re-walks: exclusive gas of the executors' skip / seek / key-walk functions,
#: ``PorCbor.skip``, ``PorCborKeys.walkWords*``, ``PorCheckKeys.walk*``/``find*``,
#: ``PorDeduceSpec.seek``/``get``/``next``, ``PorCbor.get``; bytes of the records the
#: /2 proof carries).  The largest rows use the same rates per byte (an estimate).
SPEC_READ: dict[str, tuple[int, int]] = {
    "check_requirement": (70_966, 2261), "aggregate": (83_660, 2261),
    "contradictions": (19_528, 2261), "deduce": (63_638, 2261), "judge": (154_583, 2261),
}
REWALK: dict[str, tuple[int, int]] = {
    "check_requirement": (116_596, 4884), "aggregate": (106_108, 5712),
    "contradictions": (60_952, 3635), "deduce": (107_137, 3817), "judge": (140_478, 4484),
    "map": (7_754, 2721), "omission": (21_745, 1362), "citation": (8_883, 1209),
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


#: The settle of each bench/gas_steps.py class on anvil, by hotspot group
#: (``PYTHONPATH=. python bench/gas_profile.py "<class>" --top 2000 --json`` at
#: a301f82, ``bench/gasprof/groups.py``): (the kind's own stages plus the ABI between
#: its split contracts, Merkle inclusions, the parts walk plus the carried leaves'
#: fields).  The own part is pure computation, equal on revm; the other two give H
#: and P.
PROFILE: dict[str, tuple[int, int, int]] = {
    "CitationProof (issue 22, reordered)": (52_748 + 1_723, 7_318, 0),
    "map (forged, map_lies)": (33_398 + 5_940, 19_910, 28_412 + 28_037),
    "check chunk, 3 items": (272_674 + 22_114, 34_748, 38_443 + 53_715),
    "check chunk, 10 items (full)": (622_005 + 53_446, 86_382, 72_778 + 140_998),
    "aggregate, 3 items": (473_312 + 54_852, 41_979, 43_256 + 68_601),
    "aggregate at caps (10 x 8)": (2_243_967 + 141_189, 100_257, 80_155 + 164_333),
    "contradictions, 3 items": (237_800 + 14_143, 21_236, 28_935 + 29_213),
    "deduce, 3 items": (330_895 + 19_042, 27_804, 33_520 + 43_542),
    "JudgeProof (forged verdict)": (501_431 + 13_600, 39_805, 40_797),
    "OmissionProof (omitted item)": (86_128 + 3_296, 13_479, 0),
}


#: Kinds whose executor runs the PromptSpec leaf's §2 pass inside its own stages.
SPEC_PASS_IN_OWN = ("aggregate", "contradictions", "deduce", "judge")


class Model:
    """The fitted figures, from measured rows (dicts of bench/auditor3_model.py)."""

    def __init__(self, rows: list[dict[str, Any]], scale: Fraction = Fraction(1),
                 own_cut: dict[str, int] | None = None) -> None:
        """``scale``: the §2 reader's cost relative to today's (another helper's cut
        of the reader per item plugs in here, e.g. 1/2); ``own_cut``: gas removed
        from a kind's own stages (e.g. the re-walk cuts), by kind."""
        self.scale, self.own_cut = scale, own_cut or {}
        self.reg_a, self.reg_b = fit_line([(r["bytes2"], r["settle"] - r["checkProof"])
                                           for r in rows])
        self.route = median([r["checkProof"] - r["exec"] - r["reader2"] for r in rows
                             if r["exec"] is not None])
        profiled = [(r, PROFILE[r["class"]]) for r in rows if r["class"] in PROFILE]
        self.h = Fraction(sum(p[1] for _r, p in profiled), sum(r["sha2"] for r, _p in profiled))
        self.p = Fraction(sum(p[2] for _r, p in profiled),
                          sum(r["items2"] for r, p in profiled if p[2]))

    def shared(self, nbytes: int, reader: int, leaves: int, sha: int, items: int, *,
               today: bool = False) -> Fraction:
        """The shared terms; the reader at ``scale`` unless ``today``."""
        scale = Fraction(1) if today else self.scale
        return (self.reg_a + self.reg_b * nbytes + self.route + scale * (reader + leaves)
                + self.h * sha + self.p * items)

    def own2(self, r: dict[str, Any]) -> Fraction:
        """The kind's own stages: profiled, or else the residual of the settle.  The
        profile's own group holds, for some kinds, work the model counts as shared:
        the PromptSpec's §2 pass (aggregate, contradictions, deduce, judge run it in
        their executor) and the parts walk (the proof executors' own walk: judge,
        omission, citation); it is taken out with the model's own figure for it."""
        if r["class"] in PROFILE:
            own, _merkle, walk = PROFILE[r["class"]]
            inside = r["spec_pass2"] if r["kind"] in SPEC_PASS_IN_OWN else 0
            return own - inside - (self.p * r["items2"] if walk == 0 else 0)
        return r["settle"] - self.shared(r["bytes2"], r["reader2"], r["leaves2"], r["sha2"],
                                         r["items2"], today=True)

    def common2(self, r: dict[str, Any]) -> int:
        """The model's SPEC §10.5 steps 1-6 on a /2 step proof (no PromptSpec pass: the
        map executor's common part, which ``bench/common_part.py`` measures), to test
        the shared terms on every step row, the largest included."""
        return round(r["leaves2"] - r["spec_pass2"] + self.h * r["sha2"] + self.p * r["items2"])

    def settle2(self, r: dict[str, Any], *, today: bool = True) -> int:
        """/2 as today (the calibration), or with the plugged-in cuts (``today`` False:
        the reader at ``scale``, ``own_cut`` taken off) for a fair comparison."""
        cut = 0 if today else self.own_cut.get(r["kind"], 0)
        return round(self.shared(r["bytes2"], r["reader2"], r["leaves2"], r["sha2"],
                                 r["items2"], today=today) + self.own2(r) - cut)

    def settle3(self, r: dict[str, Any], floor: bool = False) -> int:
        """/3: the shared terms on the /3 proof; the own part less the PromptSpec
        reading beyond the entries carried, plus the recomputed step's tree; with
        ``floor`` also less every re-walk (the lower bound: reading by entry finds
        each value without walking past others)."""
        spent, spec_bytes = SPEC_READ.get(r["kind"], (0, 1))
        own = (self.own2(r) - Fraction(spent, spec_bytes) * (r["spec2"] - r["spec3"])
               + self.h * r["recompute_sha"] - self.own_cut.get(r["kind"], 0))
        if floor:
            walked, carried = REWALK.get(r["kind"], (0, 1))
            own -= Fraction(walked, carried) * r["carried2"]
        return round(self.shared(r["bytes3"], r["reader3"], r["leaves3"], r["sha3"],
                                 r["items3"]) + max(own, Fraction(0)))

    def figures(self) -> dict[str, str]:
        return {"registry": f"{round(self.reg_a)} + {round(self.reg_b * 1000)}/1000 a byte",
                "route": str(self.route), "H (per SHA-256 call)": str(round(self.h)),
                "P (per walked item)": str(round(self.p))}
