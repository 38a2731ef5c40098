"""The cited items of a check chunk read from their EXTRACT forms and admitted by SPEC
§12.5.3 (Python's twin of ``PorCheckFormItems.sol``): reasons in §12.2's order, the window
with slack, ``observed_at``/``observed_from``, the gate's blank source id through
EXTRACT's derived word."""

from __future__ import annotations

from dataclasses import dataclass

from por.forms.execute.check_read import MAX63, code, count, int64w, t_end, v_end, w
from por.forms.execute.read import fault

#: The reason bits (bit c: reason code c, 1..7) and §12.4's statuses.
TIER_BIT = 1 << 4
GATE_BIT = 1 << 7
CONFIDENCE_MAX = 10_000


def _word(f: bytes, p: int) -> int:
    """A word already checked in bounds."""
    return int.from_bytes(f[p:p + 32], "big")


@dataclass
class Item:
    """One cited item as read from its EXTRACT form ``f``."""

    f: bytes
    claims: int  # the first claim's offset
    n_claims: int
    tail: int  # H(requirement_id), then status, retrieved_at, confidence, blank
    leaf: int = 0  # its evidence leaf (its forms index - 1 - r)
    reasons: int = 0  # bit c set: reason code c (1..7)
    observed: int = 0
    from_claim: bool = False

    def word(self, p: int) -> int:
        """The item form's word at ``p`` (checked by :func:`read_item`)."""
        return _word(self.f, p)


@dataclass
class Rules:
    """What the admission reads of COMMON and REQUIREMENT (offsets: a list's count word)."""

    start: int  # the window with slack
    end: int
    metric: bytes  # H(ps.metric)
    skip_metric: bool  # the predicate is timestamp_threshold
    common: bytes
    allowed: int  # COMMON: L[H] allowed_sources
    requirement: bytes
    targets: int  # REQUIREMENT: L[H] of R's targets
    codes: int  # REQUIREMENT: L[W] accepted_status_codes, 0 when absent
    min_tier: int


def read_item(f: bytes) -> tuple[Item, bool]:
    """The EXTRACT form ``f`` walked whole (a fault anywhere, or a byte after its last
    word, is ``proof.form``); ``bad`` when a timestamp claim's value is above 2^63-1
    (Python's ``step.bad_prior_output``)."""
    bad = False
    code(f, 96, 3)  # provenance_tier
    q = t_end(f, 160)
    n = count(f, q, 4)
    claims = q + 32
    q += 32
    for _ in range(n):
        kind = code(f, q + 32, 3)
        w(f, q + 64)  # H(claim_id)
        q += 96
        if kind == 2 and int64w(f, q) > MAX63:
            bad = True
        q = v_end(kind, f, q)
    status = w(f, q + 32)
    if status < 100 or status > 599 or w(f, q + 64) > MAX63:
        fault("a card's status or retrieved_at out of range")
    code(f, q + 96, CONFIDENCE_MAX)
    code(f, q + 128, 1)
    if q + 160 != len(f):
        fault("bytes after an EXTRACT's last word")
    return Item(f, claims, n, q), bad


def next_claim(f: bytes, q: int) -> int:
    """The offset of the claim after the (checked) one at ``q`` (``H(key) E(kind)
    H(claim_id) V``: its value at ``q + 96``, one word but a numeric's ``D``)."""
    v = q + 96
    if _word(f, q + 32) == 1:
        return v + (96 if _word(f, v) & ((1 << 232) - 1) > 32 else 64)
    return v + 32


def _listed(f: bytes, p: int, x: int) -> bool:
    """Whether the (checked) list whose count word is at ``p`` holds the word ``x``."""
    return any(_word(f, p + 32 * (i + 1)) == x for i in range(_word(f, p)))


def admit(it: Item, rules: Rules) -> None:
    """Admit ``it`` by ``rules``: its reasons (bits), observed_at and its source."""
    f = it.f
    it.observed = it.word(it.tail + 64)
    q = it.claims
    for _ in range(it.n_claims):
        if it.word(q + 32) == 2 and not (rules.skip_metric
                                         and f[q:q + 32] == rules.metric):
            it.observed = it.word(q + 96)
            it.from_claim = True
            break
        q = next_claim(f, q)
    source = it.word(64)
    bits = 0
    if not _listed(rules.common, rules.allowed, source):
        bits |= 1 << 1
    if not _listed(rules.requirement, rules.targets, source):
        bits |= 1 << 2
    if it.observed < rules.start or it.observed > rules.end:
        bits |= 1 << 3
    if it.word(96) < rules.min_tier:
        bits |= TIER_BIT
    if it.word(it.tail + 96) > CONFIDENCE_MAX:
        bits |= 1 << 5
    status = it.word(it.tail + 32)
    if (not 200 <= status <= 299 if rules.codes == 0
            else not _listed(rules.requirement, rules.codes, status)):
        bits |= 1 << 6
    if bits == 0 and it.word(it.tail + 128) == 1:
        bits = GATE_BIT
    it.reasons = bits


__all__ = ["GATE_BIT", "TIER_BIT", "Item", "Rules", "admit", "next_claim", "read_item"]
