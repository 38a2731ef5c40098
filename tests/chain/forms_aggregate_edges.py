"""Edge decimals and shapes for the aggregate on chain forms (s39 ``aggform``).

:func:`edge_cases` rewrites scenario ``08-quorum-agree`` (one requirement, quorum over
three sources' ``close``): the three claim values, the tolerance, ``quorum`` /
``min_sources``, the tie-breaker and the three items' provenance tiers drawn from edge
pools (64-digit decimals whose alignment crosses 2^254, scales 0/18/19/62, ties,
tolerance 0, tolerances equal to a difference of two values and one unit of the 62nd
decimal place off it); the aggregate is recomputed by por's ``recompute_step`` (a
consistent step: lost) and, every other case, one output edit of
``aggregate_lies.edit_output`` follows (a lie). Every commitment is recomputed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from decimal import Decimal, localcontext
from typing import Any

from aggregate_lies import edit_output, rewrite
from bundle_edits import honest, recommit, steps_of

from por.bundle.layout import Bundle
from por.encoding import decode, encode
from por.numbers import is_canonical_decimal

#: 2^254 as 64 leading digits: m * 10^13 is just below 2^254, (m + 1) * 10^13 above.
BORDER = "2894802230932904885589274625217197696331749616641014100986439600"
VALUES = [
    "0", "1", "-1", "251.4", "251.45", "251.35", "9" * 64, "-" + "9" * 63, BORDER,
    str(int(BORDER) + 1), "-" + BORDER[:63], "0." + "0" * 61 + "1", "-0." + "0" * 60 + "1",
    "1" + "0" * 18, "0." + "0" * 17 + "1", "0." + "0" * 18 + "1", "1.000000000000000001",
    "1.0000000000000000001", "1" * 40 + "." + "2" * 23, "12345.6789", "-12345.6789",
]
TOLERANCES = ["0", "0.05", "1", "0." + "0" * 61 + "1", "0.0000000000001", "0." + "0" * 17 + "1",
              "0." + "0" * 18 + "1", "9" * 64, "10", "0.000001"]
UNIT = Decimal("1e-62")


def _text(d: Decimal) -> str | None:
    """The canonical text of ``d``, or None when it has none within 64 characters."""
    with localcontext() as ctx:
        ctx.prec = 200
        text = format(d.normalize(), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text == "-0":
        text = "0"
    return text if is_canonical_decimal(text) else None


def _boundaries(values: list[str]) -> list[str]:
    """|a - b| of two values, and one 10^-62 either side of it (canonical ones only)."""
    out = []
    with localcontext() as ctx:
        ctx.prec = 200
        for a in values:
            for b in values:
                d = abs(Decimal(a) - Decimal(b))
                out += [t for t in (_text(d), _text(d + UNIT), _text(d - UNIT)) if t]
    return [t for t in out if not t.startswith("-")]


def _claims(step: dict[str, Any], key: str) -> list[dict[str, Any]]:
    return [c for c in step["output"]["claims"] if c.get("key") == key]


Fixed = tuple[list[str], str, int, int]


def edge_case(base: Bundle, rng: random.Random, lie: bool, fixed: Fixed | None = None
              ) -> tuple[Bundle, int] | None:
    """One edge case of ``base`` (scenario 08's bundle), drawn or ``fixed`` (values,
    tolerance, quorum, min_sources); None when it does not rewrite."""
    leaf = steps_of(base, "aggregate")[0]
    steps = [decode(s) for s in base.steps]
    spec = decode(base.prompt_spec)
    policy = spec["data_requirements"][0]["selection_policy"]
    if fixed is None:
        values = [rng.choice(VALUES) for _ in range(3)]
        if rng.random() < 0.3:
            values[rng.randrange(3)] = values[rng.randrange(3)]  # a tie
        spec["conflict_policy"]["numeric_tolerance"] = rng.choice(TOLERANCES + _boundaries(values))
        policy["min_sources"] = rng.choice([1, 2, 3, 3, 4])
        policy["quorum"] = rng.randint(1, policy["min_sources"])
    else:
        values, spec["conflict_policy"]["numeric_tolerance"] = fixed[0], fixed[1]
        policy["quorum"], policy["min_sources"] = fixed[2], fixed[3]
    policy["tie_breaker"] = rng.choice(["source_order", "highest_provenance"])
    for k, step in enumerate(steps[:3]):
        for claim in _claims(step, "close"):
            claim["value"] = values[k]
        step["output"]["card"]["provenance_tier"] = rng.choice([0, 3, 3])
    raw = [encode(s) for s in steps]
    spec_bytes = encode(spec)
    rewritten = rewrite(spec_bytes, raw, leaf)
    if rewritten is None:
        return None
    if lie:
        step = decode(rewritten)
        edit_output(step["output"], rng)
        rewritten = encode(step)
    raw[leaf] = rewritten
    return recommit(base, steps=raw, prompt_spec=spec_bytes), leaf


def edge_cases(count: int, seed: int) -> Iterator[tuple[str, Bundle, int]]:
    """``count`` edge cases (about half lies) of scenario 08."""
    base = honest("08-quorum-agree")
    rng = random.Random(seed)  # noqa: S311 - seeded cases, not secrets
    made = 0
    while made < count:
        case = edge_case(base, rng, lie=made % 2 == 1)
        if case is not None:
            made += 1
            yield f"edge {made}", case[0], case[1]
