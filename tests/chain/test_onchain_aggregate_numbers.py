"""The aggregate's decimals read a word at a time (``PorAggregateNumber``, ADR 0013
"Addendum (s37, agg6)") agree with ``por check-proof``.

The reader checks each numeric claim's text canonical and reads its value once; texts of
28 characters or more are classed 32 bytes at a time (digits, the dot) and their digit
runs joined in five multiply-and-add steps, shorter ones by ``PorDecimal``'s character
loop; the selector's quorum then works on those values (and numeric_tolerance's, read the
same way), no longer on the texts. New ways to be wrong: a digit run misread (a lane
joined with the wrong factor, a run across the two words of a 33- to 64-character text),
the dot's place (in the first or second word, at either edge), the scale, the sign, a
non-canonical text taken as canonical (a leading or trailing zero, a second dot or sign,
a byte outside the digits in a long text, 65 characters). Quorum markets whose voters
write long values differing within and just past the tolerance (short and long
tolerances) are compared honest and forged; extract steps' claims are rewritten to
canonical and non-canonical long texts and the aggregate recomputed (lost) or left (won):
the chain and Python must give the same answer every time.
"""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal

from aggregate_lies import aggregates, rewrite
from bundle_edits import recommit
from exec_support import ExecChecker
from test_onchain_aggregate import _quorum_market, exercise

from por.bundle.layout import Bundle
from por.encoding import decode, encode
from por.errors import PorError
from por.numbers import format_decimal, is_canonical_decimal

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorAggregateExec")

#: Tolerances: read by the character loop (short) and a word at a time (28+ characters).
TOLERANCES = ["0", "0.5", "0.00000000000000000000000000123", "12345678901234567890123456.75"]

#: Long texts that are not canonical decimals (SPEC §3.2), and long ones that are.
NOT_CANONICAL = [
    "1" * 30 + ".", "1" * 30 + "..5", "0" + "1" * 30, "1." + "5" * 30 + "0", "1" * 65,
    "1" * 20 + "x" + "1" * 20, "1" * 40 + "\u00e9", "--" + "1" * 30, "1" * 32 + "-" + "1" * 5,
    "." + "1" * 40, "1" * 33 + ".", "0" * 30, "-" + "0" * 28 + ".0",
    "1" * 31 + "." + "2" * 31 + "0", "1" * 31 + "/" + "2" * 31, "1" * 31 + ":" + "2" * 20,
    "1" * 16 + "." + "2" * 16 + "." + "3" * 20, "-0" + "." + "0" * 40, "1" * 30 + " ",
    " " + "1" * 30, "1" * 29 + "e5", "+" + "1" * 30,
]
CANONICAL = [
    "1" * 64, "-" + "9" * 63, "1" * 31 + "." + "2" * 32, "1" * 32 + "." + "2" * 31,
    "1" * 33 + "." + "2" * 30, "0." + "0" * 61 + "1", "-0." + "0" * 60 + "1", "9" * 28,
    "1" * 27 + ".5", "0.0000000000000000000000000105",
]


def _canonical(x: Decimal) -> str | None:
    try:
        text = format_decimal(x)
    except PorError:
        return None
    return text if is_canonical_decimal(text) and len(text) <= 64 else None


def _values(rng: random.Random, tolerance: str, n: int) -> list[str]:
    """``n`` canonical values around a long base: equal, within the tolerance, exactly at
    it, one last digit past it, far; the base's dot in either word or absent, signs
    mixed."""
    t = Decimal(tolerance)
    whole = rng.randrange(1, 40)
    frac = rng.randrange(0, 63 - whole)
    digits = "".join(str(rng.randrange(10)) for _ in range(whole + frac - 1))
    base = Decimal(str(rng.randrange(1, 10)) + digits).scaleb(-frac) * rng.choice([1, 1, -1])
    places = len(tolerance.partition(".")[2])
    ulp = Decimal(1).scaleb(-max(frac, places))
    deltas = [t, t + ulp, -t, -t - ulp, ulp, t / 2 if t else -ulp,
              Decimal(10) ** rng.randrange(0, 30)]
    out = [_canonical(base)]
    while len(out) < n:
        out.append(_canonical(base + rng.choice(deltas)))
    texts = [v for v in out if v is not None]
    return texts if len(texts) == n else _values(rng, tolerance, n)


def test_long_values_in_the_quorum() -> None:
    rng = random.Random(3737)  # noqa: S311 - seeded cases, not secrets
    for tolerance in TOLERANCES:
        for _ in range(10):
            values = _values(rng, tolerance, rng.choice([3, 4]))
            exercise(_quorum_market(values, tolerance), rng, 3)
            COUNTS["quorum.market"] += 1
    assert COUNTS["quorum.market"] == 10 * len(TOLERANCES)


def _claims_set(bundle: Bundle, texts: list[str], rng: random.Random) -> tuple[Bundle, int]:
    """The first extract step's numeric claim set to ``texts[0]``, every other one to one
    of ``texts``; the aggregate recomputed from them about half the time."""
    index = aggregates(bundle)[0]
    steps = [decode(s) for s in bundle.steps]
    first = True
    for s in steps:
        if s["step_type"] != "extract":
            continue
        for c in s["output"]["claims"]:
            if c.get("kind") == "numeric":
                c["value"] = texts[0] if first else rng.choice(texts)
                first = False
    raw = [encode(s) for s in steps]
    if rng.random() < 0.5:
        raw[index] = rewrite(bundle.prompt_spec, raw, index) or raw[index]
    return recommit(bundle, steps=raw), index


def test_long_claim_texts() -> None:
    rng = random.Random(3738)  # noqa: S311 - seeded cases, not secrets
    for tolerance in TOLERANCES:
        bundle = _quorum_market(_values(rng, tolerance, 3), tolerance)
        for texts in [[bad, *rng.sample(CANONICAL, 2)] for bad in NOT_CANONICAL] + [
                rng.sample(CANONICAL, 3) for _ in range(10)]:
            b, index = _claims_set(bundle, texts, rng)
            _CHAIN.compare(b, index, "claims.long", COUNTS)
    assert COUNTS["claims.long"] == (len(NOT_CANONICAL) + 10) * len(TOLERANCES)
    # every outcome: unreadable claims, recomputed aggregates lost, left ones won
    assert COUNTS["id:one_step.unexecutable"] >= len(NOT_CANONICAL) * len(TOLERANCES), COUNTS
    assert COUNTS["id:one_step.match"] > 3 and COUNTS["id:one_step.mismatch"] > 3, COUNTS
