"""The settle-gas model (ADR 0016, "Measured projection"): every term a measurement on
today's contracts (revm, the committed build), most of them in the same run; applied
to /2 (calibration: its error is printed) and to /3 (the projection).

    settle = calls(bytes) + reader(proof) + exec
    exec   = common + own
    common = sum reader(leaf) + H * sha + W * hashed + P * items + Q * fields + C

* ``reader(doc)``: ``PorProofCheck.checkCbor`` on the document's exact bytes, less the
  call's base (``checkCbor`` of an empty map): the §2 reader, measured per document,
  for the /2 proof and each leaf it carries, and for the /3 proof and each entry leaf.
* ``calls(bytes)``: the registry and the checker's route (``settleByProof`` less the
  executor less ``reader(proof)``), fitted as a + b n + c n^2 in the proof's bytes n.
* ``common`` (SPEC §10.5 steps 1-6 and the PromptSpec's §2 pass): ``H`` per SHA-256
  step and ``W`` per leaf byte hashed (``profiled.py``: the profiled Merkle group);
  ``P`` per walked item (each /2 InclusionProof map and its record's top level; for /3
  each record array and entry), ``Q`` per byte of the carried leaves but the
  PromptSpec (the fields read from them: ids compared and hashed), ``C`` per proof:
  fitted in the run to the common part ``bench/common_part.py`` measures on every step
  proof (check, aggregate, contradictions, deduce; typical and largest), least squares
  of the relative error, exact rationals.
* ``own``: the step kinds', measured in the run (the executor alone less its common
  part less the PromptSpec's pass); the map's and the proof kinds', profiled
  (``profiled.OWN``), less what the model counts as common (their own walk, the
  JudgeProof's passes); a row with neither is the residual (``fit``: error 0 by
  construction).  /3 keeps it but for the PromptSpec reading, which scales with the
  PromptSpec bytes carried (``SPEC_READ``), and adds the recomputed step's tree (its
  leaves and nodes hashed); the floor also drops the re-walks (``REWALK``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from auditor3.profiled import OWN, REWALK, SPEC_READ, WALK, WALK_IN_OWN, H, W


def least_squares(rows: list[list[Fraction]], ys: list[Fraction]) -> list[Fraction]:
    """The x minimising |A x - y| (normal equations, Gauss-Jordan), exact rationals."""
    n = len(rows[0])
    m = [[sum((r[i] * r[j] for r in rows), Fraction(0)) for j in range(n)]
         + [sum((r[i] * y for r, y in zip(rows, ys, strict=True)), Fraction(0))]
         for i in range(n)]
    for i in range(n):
        pivot = next(k for k in range(i, n) if m[k][i] != 0)
        m[i], m[pivot] = m[pivot], m[i]
        for k in range(n):
            if k != i:
                f = m[k][i] / m[i][i]
                m[k] = [a - f * b for a, b in zip(m[k], m[i], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def hashing(r: dict[str, Any], v: str) -> Fraction:
    """The Merkle hashing of a /2 or /3 proof (``v``: "2" or "3")."""
    return H * int(r["sha" + v]) + W * int(r["hashed" + v])


def profiled(table: dict[str, tuple[int, int]], r: dict[str, Any]) -> bool:
    """The row is the one profiled: its class, its /2 proof's bytes."""
    return bool(table.get(r["class"], (0, -1))[1] == r["bytes2"])


class Model:
    """The fitted figures, from measured rows (dicts of bench/auditor3_model.py)."""

    def __init__(self, rows: list[dict[str, Any]], scale: Fraction = Fraction(1),
                 own_cut: dict[str, int] | None = None) -> None:
        """``scale``: the §2 reader's cost relative to today's (another helper's cut
        of the reader per item plugs in here, e.g. 1/2); ``own_cut``: gas removed
        from a kind's own stages (e.g. the re-walk cuts), by kind."""
        self.scale, self.own_cut = scale, own_cut or {}
        # the registry and the checker's route (settleByProof less the executor less
        # the §2 reader over the proof: calldata copied into memory twice, the calls),
        # a + b n + c n^2 in the proof's bytes n (memory grows quadratically), least
        # squares of the relative error over the rows with an executor
        routed = [r for r in rows if r["exec"] is not None]
        self.a, self.b, self.c2 = least_squares(
            [[Fraction(x, r["settle"]) for x in (1, r["bytes2"], r["bytes2"] ** 2)]
             for r in routed],
            [Fraction(r["settle"] - r["exec"] - r["reader2"], r["settle"]) for r in routed])
        measured = [r for r in rows if r["common"] is not None]
        self.p, self.q, self.c = least_squares(
            [[Fraction(x, r["common"]) for x in (r["items2"], r["fields2"], 1)]
             for r in measured],
            [(r["common"] - r["leaves2"] + r["spec_pass2"] - hashing(r, "2")) / r["common"]
             for r in measured])

    def walk(self, items: int, fields: int) -> Fraction:
        return self.p * items + self.q * fields + self.c

    def walk_of(self, r: dict[str, Any], v: str) -> Fraction:
        """The parts walk and carried fields of the /2 or /3 proof: the fitted walk,
        scaled for a kind with its own profiled walker (``profiled.WALK``)."""
        fitted = self.walk(r["items" + v], r["fields" + v])
        if profiled(WALK, r):
            return fitted * WALK[r["class"]][0] / self.walk(r["items2"], r["fields2"])
        return fitted

    def shared(self, r: dict[str, Any], v: str, *, today: bool = False) -> Fraction:
        """The shared terms of the /2 or /3 proof; the reader at ``scale`` unless
        ``today``."""
        scale = Fraction(1) if today else self.scale
        n = int(r["bytes" + v])
        return (self.a + self.b * n + self.c2 * n * n
                + scale * int(r["reader" + v] + r["leaves" + v]) + hashing(r, v)
                + self.walk_of(r, v))

    def source(self, r: dict[str, Any]) -> str:
        """Where a row's own part comes from: "run", "profile" or "fit" (residual)."""
        return ("run" if r["common"] is not None and r["exec"] is not None
                else "profile" if profiled(OWN, r) else "fit")

    def own2(self, r: dict[str, Any]) -> Fraction:
        """The kind's own stages, without what the model counts as common."""
        how = self.source(r)
        if how == "run":
            return Fraction(r["exec"] - r["common"] - r["spec_pass2"])
        if how == "profile":
            own = Fraction(OWN[r["class"]][0] - int(r["pass_in_own2"]))
            if r["kind"] in WALK_IN_OWN:
                own -= self.walk(r["items2"], r["fields2"])
            return own
        return int(r["settle"]) - self.shared(r, "2", today=True)

    def common2(self, r: dict[str, Any]) -> int:
        """The model's common part (SPEC §10.5 steps 1-6, no PromptSpec pass) of a /2
        step proof, to compare with ``bench/common_part.py``'s measurement."""
        return round(int(r["leaves2"] - r["spec_pass2"]) + hashing(r, "2")
                     + self.walk(r["items2"], r["fields2"]))

    def settle2(self, r: dict[str, Any], *, today: bool = True) -> int:
        """/2 as today (the calibration), or with the plugged-in cuts (``today`` False:
        the reader at ``scale``, ``own_cut`` taken off) for a fair comparison."""
        cut = 0 if today else self.own_cut.get(r["kind"], 0)
        return round(self.shared(r, "2", today=today) + self.own2(r) - cut)

    def settle3(self, r: dict[str, Any], floor: bool = False) -> int:
        """/3: the shared terms on the /3 proof; the own part less the PromptSpec
        reading beyond the entries carried, plus the recomputed step's tree (its leaves
        hashed, 2 n - 1 steps); with ``floor`` also less every re-walk (the lower
        bound: reading by entry finds each value without walking past others)."""
        spent, spec_bytes = SPEC_READ.get(r["kind"], (0, 1))
        rebuilt = int(r["recompute_sha"])
        own = (self.own2(r) - Fraction(spent, spec_bytes) * int(r["spec2"] - r["spec3"])
               + H * rebuilt + (W * int(r["roles2"]["step"]) if rebuilt else 0)
               - self.own_cut.get(r["kind"], 0))
        if floor:
            walked, carried = REWALK.get(r["kind"], (0, 1))
            own -= Fraction(walked, carried) * int(r["carried2"])
        return round(self.shared(r, "3") + max(own, Fraction(0)))

    def figures(self) -> dict[str, str]:
        return {"registry and route": f"{round(self.a)} + {round(self.b * 1000)}/1000 a byte"
                f" + {round(self.c2 * 10**9)}/10^9 a byte squared",
                "H (per SHA-256 step, profiled)": str(H),
                "W (per leaf byte hashed, profiled)": f"{round(W * 1000)}/1000",
                "P (per walked item)": str(round(self.p)),
                "Q (per carried byte, PromptSpec aside)": f"{round(self.q * 1000)}/1000",
                "C (per proof)": str(round(self.c))}
