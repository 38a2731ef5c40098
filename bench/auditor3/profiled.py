"""The figures of the settle-gas model that only the gas profiler can give (ADR 0016
§3): constants, measured at commit 1b10d08 (``main`` after wave s36) with

    PYTHONPATH=. python bench/gas_profile.py "<class>" --top 2000 --json

for each class of ``bench/gas_steps.py`` (anvil settle), and with ``--proof P --bundle
B`` for the largest rows of the kinds without a measurable common part (map,
JudgeProof, OmissionProof, CitationProof; P and B the proof and lying bundle
``bench/largest_gas.py``'s ``proofs(KINDS)`` builds at the default caps), grouped by
``bench/gasprof/groups.py``.  Everything else the model takes from the contracts (the
§2 reader per document, the registry, the route, the common part, the step kinds' own
stages) ``bench/auditor3_model.py`` measures in revm in the same run.  Re-measure these
after a cut of the executors named below (``tests/unit/bench`` holds the structure,
never these values)."""

from __future__ import annotations

from fractions import Fraction

#: The commit the constants below were profiled at.
PROFILED_AT = "1b10d08"

#: Merkle inclusions (group "Merkle inclusions (PorInclusion.verify)"), least squares of
#: gas / measured over the 17 profiled rows (typical and largest), as
#: ``H * sha + W * bytes``: H per SHA-256 step of a path (or a tree node), W per byte of
#: leaf hashed (-18..+17 % a row; the group is 2-7 % of a settle).
H = Fraction(658)
W = Fraction(1057, 1000)

#: The own stages (groups "the kind's own stages" + "ABI encoding") of the rows whose
#: executor has no common part the bench can measure apart (map: it is the common part's
#: executor; the proof executors walk their own parts), by class of
#: ``bench/auditor3_model.py``: (gas, the /2 proof's bytes profiled).  A row whose proof
#: has other bytes (other caps: ``--ascii``, ``--id-points``...) is not this profile
#: (its own part is then the residual).  The step kinds' own stages are measured in the
#: run.
OWN: dict[str, tuple[int, int]] = {
    "CitationProof (issue 22, reordered)": (46_724, 1803),
    "map (forged, map_lies)": (33_209, 4069),
    "JudgeProof (forged verdict)": (276_382, 7094),
    "OmissionProof (omitted item)": (71_045, 2350),
    "map [one.text]": (103_440, 31147),
    "map [many]": (49_096, 16380),
    "JudgeProof (forged verdict) [one.text]": (993_121, 111440),
    "JudgeProof (forged verdict) [many]": (647_515, 21951),
    "OmissionProof (last item unread) [one.text]": (164_063, 24287),
    "CitationProof (reordered) [one.numeric]": (119_970, 32777),
    "CitationProof (reordered) [one.text]": (114_242, 20590),
}

#: The JudgeProof's own parts walk (group "the proof's parts walk": ``PorJudgeCheck``'s
#: ``verifyParts``, cheaper per item than PorOneStepCheck's walk and fields the model
#: fits), by class: (its /2 walk, the /2 proof's bytes), and the ratio that scales the
#: model's /3 walk.
WALK: dict[str, tuple[int, int]] = {
    "JudgeProof (forged verdict)": (42_603, 7094),
    "JudgeProof (forged verdict) [one.text]": (167_194, 111440),
    "JudgeProof (forged verdict) [many]": (52_675, 21951),
}

#: Kinds whose profiled own group holds their parts walk and carried fields (no
#: ``verifyParts``/``prepare`` of PorOneStepCheck: their own walk), and the kinds whose
#: own group holds a carried leaf's §2 pass (the JudgeProof's PromptSpec and verdict,
#: ``PorJudgeCheck.spec``/``verdictRecord`` > ``PorCborTop.checkTop``).
WALK_IN_OWN = ("omission", "citation")
PASS_IN_OWN: dict[str, tuple[str, ...]] = {"judge": ("prompt_spec", "verdict")}

#: The kind's PromptSpec reading beyond its §2 pass (inclusive, typical class; bytes of
#: the PromptSpec leaf): check ``PorCheckKeys.specTop`` less its ``checkTop`` pass plus
#: ``PorCheckSpec.readSpecAt``; aggregate ``PorAggregateSpec.spec``; contradictions
#: ``PorContradictionsStep.readSpec``; deduce ``PorDeduceRead.specTop`` less its pass
#: plus ``PorDeduceSpec.read``; JudgeProof ``PorJudgeRules.readSpec``.  /3 keeps it in
#: proportion to the PromptSpec bytes still carried (the largest rows at the same rate).
SPEC_READ: dict[str, tuple[int, int]] = {
    "check_requirement": (57_582, 2261), "aggregate": (48_455, 2261),
    "contradictions": (4_270, 2261), "deduce": (35_992, 2261), "judge": (67_885, 2261),
}

#: The re-walks (exclusive gas of ``PorCbor.skip``, ``PorCbor.get``,
#: ``PorCborKeys.walkWords*``, ``PorCheckKeys.walk*``/``find*``,
#: ``PorDeduceSpec.seek``/``get``/``next``; bytes of the leaves the /2 proof carries),
#: typical class: what reading by entry could remove (the /3 floor).
REWALK: dict[str, tuple[int, int]] = {
    "check_requirement": (54_427, 4884), "aggregate": (46_913, 5712),
    "contradictions": (3_769, 3635), "deduce": (9_633, 3817), "judge": (13_560, 4484),
    "map": (6_665, 2721), "omission": (15_398, 1362), "citation": (7_312, 1209),
}
