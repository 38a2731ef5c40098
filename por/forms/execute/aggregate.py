"""The aggregate executor on chain forms (SPEC §10.4.4, §12.5.4 on §5.6's layouts):
Python's twin of ``contracts/src/forms/PorAggregateForm.sol`` (with
``PorAggregateFormVote.sol``) after ``PorForms.included``. Rule S5 is not applied (ADR
0017, s39 decision 1).

The carried forms: ``forms[0]`` the step's AGGREGATE, ``forms[1]`` COMMON, ``forms[2]``
the REQUIREMENT of the step's requirement R (any REQUIREMENT when COMMON lists no R),
then the forms of its ``prior_step_ids`` in citation order. The answer: won
``one_step.id_position``, ``one_step.prior_order``, ``one_step.unexecutable`` (cause
``step.bad_inputs``, ``step.citation_mismatch`` or ``step.bad_prior_output``),
``one_step.mismatch``; lost ``one_step.match``; :class:`FormFault` /
:class:`CitationsFault` where the Solidity reverts ``ProofForm()`` / ``Citations(i)``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from por.forms.execute import EXECUTORS, Answer
from por.forms.execute.aggregate_read import (
    BAD_INPUTS,
    BAD_PRIOR_OUTPUT,
    CITATION_MISMATCH,
    Ctx,
    aggregate,
    chunk,
    extracts,
    id_at,
    requirement,
    roles,
    split,
    word,
)
from por.forms.execute.check_read import decimal_at

NUMERIC = 1
STRATEGIES = (b"single_best", b"multi_source_quorum", b"fallback_chain")
ZERO = bytes(32)


def _w(n: int) -> bytes:
    return n.to_bytes(32, "big")


def run(forms: Sequence[bytes], index: Sequence[int], size: int) -> Answer:
    """The aggregate executor's answer on the carried ``forms`` (inclusion checked)."""
    c = Ctx()
    roles(c, forms, index, size)
    ri = aggregate(c, forms)
    if not id_at(c, index[0] - 1 - c.r):
        return Answer(True, "one_step.id_position")
    if any(i >= index[0] for i in index[3:]):
        return Answer(True, "one_step.prior_order")
    cause = _causes(c, forms, index, ri)
    # the recomputed step cites its extract steps, then C: C cited elsewhere fails
    # `recompute_step`'s last check (its prior_step_ids), before the comparison
    if not cause and c.chunk_at != len(forms) - 4:
        cause = CITATION_MISMATCH
    if cause:
        return Answer(True, "one_step.unexecutable", cause)
    if _recompute(c) != c.agg:
        return Answer(True, "one_step.mismatch")
    return Answer(False, "one_step.match")


def _causes(c: Ctx, forms: Sequence[bytes], index: Sequence[int], ri: int) -> str:
    """Python's checks before the selection, in its order (``recompute_step``,
    ``aggregate_step``): "" when all hold, else the cause."""
    if ri != 0:
        return BAD_INPUTS  # inputs with another key
    cause = split(c, forms)
    if not cause:
        cause = extracts(c)
    if not cause:
        cause = requirement(c, forms, index)
    if not cause:
        cause = chunk(c, forms)
    if not cause and c.bad_claim:
        cause = BAD_PRIOR_OUTPUT  # `read_extract`, after the chunk
    return cause


@dataclass
class Voter:
    """A field's voter: extract ``k``'s first claim with the field's key and kind, at
    ``claim`` in its form."""

    k: int
    f: bytes
    claim: int
    value: bytes = b""  # its V as encoded
    tier: int = 0
    number: Fraction = Fraction(0)  # a numeric voter's value


@dataclass
class Vote:
    """The vote's running counts over the fields."""

    selected: int = 0
    fallback_used: bool = False
    used: set[int] = field(default_factory=set)  # extract k's item is in some evidence_ids


def _recompute(c: Ctx) -> bytes:
    """The AGGREGATE recomputed from the carried forms."""
    vote = Vote()
    tolerance = _tolerance(c)
    fields = []
    p = c.fields
    index = _index(c)
    for _ in range(c.n_fields):
        out, p = _field(c, index, vote, p, tolerance)
        fields.append(out)
    head = [c.agg[:c.evid_end], c.rid_hash, _w(c.strategy), c.chunk[96:256],
            _w(int(vote.fallback_used)), _w(c.n_fields)]
    return b"".join([*head, *fields, _sources_used(c, vote), ZERO, _description(c, vote)])


def _tolerance(c: Ctx) -> Fraction | None:
    """COMMON's tolerance, None when it is negative (no two numbers agree then)."""
    t = decimal_at(c.common, 96)
    return None if t < 0 else t


def _value(kind: int, f: bytes, claim: int) -> bytes:
    """The V of the claim at ``claim`` (H key, E kind, H claim id, V) as encoded: a
    numeric's ``D``, else one word (a text's ``H``)."""
    p = claim + 96
    size = 32 + (((word(f, p) & 0xFFFFFFFF) + 31) & ~31) if kind == NUMERIC else 32
    return f[p:p + size]


Index = dict[tuple[bytes, int], list[tuple[int, int]]]


def _index(c: Ctx) -> Index:
    """Each (H(key), kind) of a cited claim to the cited items' first claims with it, in
    item order, as (k, claim position): one walk of every claim (the Solidity walks each
    item's claims per field up to FEW fields, then sorts the same claims once)."""
    index: Index = {}
    for k, (f, start) in enumerate(zip(c.ext, c.claims, strict=True)):
        n = word(f, start)
        q = start + 32
        for _ in range(n):
            ck = word(f, q + 32)
            found = index.setdefault((f[q:q + 32], ck), [])
            if not found or found[-1][0] != k:
                found.append((k, q))
            v = q + 96  # H(key) E(kind) H(claim_id), then V
            q = v + 32 + (((word(f, v) & 0xFFFFFFFF) + 31) & ~31) if ck == NUMERIC else v + 32
    return index


def _voters(c: Ctx, index: Index, kind: int, key: bytes) -> list[Voter]:
    """The field's voters: each cited item's first claim with the field's key and kind."""
    return [Voter(k, c.ext[k], q, _value(kind, c.ext[k], q),
                  word(c.ext[k], 96) if c.tiers == 1 else 0)
            for k, q in index.get((key, kind), [])]


def _field(c: Ctx, index: Index, vote: Vote, fp: int,
           tolerance: Fraction | None) -> tuple[bytes, int]:
    """One field: its voters, the strategy, its form; the next field's offset."""
    kind = word(c.req, fp)
    key = c.req[fp + 32:fp + 64]  # E(kind) H(key)
    voters = _voters(c, index, kind, key)
    out = [key, _w(kind)]
    if not voters:
        out += [_w(1), ZERO, ZERO, ZERO, ZERO, ZERO, ZERO]  # missing: no value, no quorum
    elif c.strategy == 1:
        out += _quorum(c, vote, kind, voters, tolerance)
    else:
        out += _single(c, vote, voters)
    out += [_votes(c, key, voters), ZERO]  # the field's rest
    return b"".join(out), fp + 64


def _rank(c: Ctx, source: int) -> int:
    """The index of ``source`` in R's ``source_targets`` (the last), else their count: a
    dict of each target's last place, built once per proof (s42 ``dedbound``)."""
    if c.rank_of is None:
        c.rank_of = {t: i for i, t in enumerate(c.targets)}
    return c.rank_of.get(source, len(c.targets))


def _single(c: Ctx, vote: Vote, voters: list[Voter]) -> list[bytes]:
    best = 0
    fallback = False
    if c.strategy == 2:
        ranks = [_rank(c, word(v.f, 64)) for v in voters]
        best = ranks.index(min(ranks))
        fallback = not c.targets or word(voters[best].f, 64) != c.targets[0]
    elif c.tiers == 1:
        tiers = [v.tier for v in voters]
        best = tiers.index(max(tiers))
    if fallback:
        vote.fallback_used = True
    vote.selected += 1
    chosen = voters[best]
    vote.used.add(chosen.k)
    return [_w(0), _w(len(voters)), _w(int(fallback)), _w(1), chosen.value, ZERO, _w(1),
            _claim_id(chosen), _w(1), chosen.f[128:160]]


def _claim_id(v: Voter) -> bytes:
    """The voter's ``H(claim_id)``."""
    return v.f[v.claim + 64:v.claim + 96]


def _agree(kind: int, a: Voter, b: Voter, tolerance: Fraction | None) -> bool:
    """Voters a and b agree: numbers within the tolerance, other values equal."""
    if kind == NUMERIC:
        return tolerance is not None and abs(a.number - b.number) <= tolerance
    return a.value == b.value


def _quorum(c: Ctx, vote: Vote, kind: int, voters: list[Voter],
            tolerance: Fraction | None) -> list[bytes]:
    nv = len(voters)
    if nv < word(c.req, 128):  # min_sources
        return [_w(2), _w(nv), ZERO, ZERO, ZERO, ZERO, ZERO]
    need = word(c.req, 160)
    most = 0
    if kind == NUMERIC:
        for voter in voters:
            voter.number = decimal_at(voter.value, 0)
    size = _group_sizes(kind, voters, tolerance)
    for chosen in sorted(voters, key=lambda x: -x.tier):  # stable: voter order
        agreeing = size(chosen)
        most = max(most, agreeing)
        if agreeing >= need:
            group = [x for x in voters if _agree(kind, chosen, x, tolerance)]
            vote.selected += 1
            vote.used.update(x.k for x in group)
            return [_w(0), _w(nv), ZERO, _w(1), chosen.value, _w(1), _w(need),
                    _w(len(group)), _w(1), ZERO, _w(len(group)),
                    *(_claim_id(x) for x in group),
                    _w(len(group)), *(x.f[128:160] for x in group)]
    return [_w(3), _w(nv), ZERO, ZERO, _w(1), _w(need), _w(most), ZERO, ZERO, ZERO, ZERO]


def _group_sizes(kind: int, voters: list[Voter],
                 tolerance: Fraction | None) -> Callable[[Voter], int]:
    """How many voters agree with a voter (``_agree``, itself included), in O(log n)
    after one sort (numbers: those within the tolerance, by binary search) or one count
    (other values: the equal ones): the group per tie-ordered voter was O(n^2) (s42
    ``dedbound``; the chain's ``_counts`` sorts as well)."""
    if kind == NUMERIC:
        if tolerance is None:
            return lambda _voter: 0
        tol = tolerance
        numbers = sorted(v.number for v in voters)
        return lambda v: max(0, bisect_right(numbers, v.number + tol)  # a tolerance < 0: none
                             - bisect_left(numbers, v.number - tol))
    counts = Counter(v.value for v in voters)
    return lambda v: counts[v.value]


def _votes(c: Ctx, key: bytes, voters: list[Voter]) -> bytes:
    """``votes`` when ``sources_required`` is set and the field is the metric: every
    voter's value, source id (H) and item id."""
    if word(c.common, 64) == 0 or c.common[32:64] != key:
        return ZERO
    out = [_w(1), _w(len(voters))]
    for v in voters:
        out += [v.value, v.f[64:96], v.f[128:160], ZERO]  # V H(source_id) H(evidence_id)
    return b"".join(out)


def _sources_used(c: Ctx, vote: Vote) -> bytes:
    """``sources_used``: the cited items, in order, whose id is in some field's
    ``evidence_ids`` (by id: an item sharing a chosen item's id is used too)."""
    ids = {c.ext[k][128:160] for k in vote.used}
    used = [f[128:160] for f in c.ext if f[128:160] in ids]
    return _w(len(used)) + b"".join(used)


def _description(c: Ctx, vote: Vote) -> bytes:
    """T("aggregate requirement " R " by " strategy ": " selected " of " fields
    " field(s) selected")."""
    data = (b"aggregate requirement " + c.agg[96:96 + word(c.agg, 64)] + b" by "
            + STRATEGIES[min(c.strategy, 2)]
            + b": %d of %d field(s) selected" % (vote.selected, c.n_fields))
    return _w(len(data)) + data + bytes(-len(data) % 32)


EXECUTORS["aggregate"] = run
