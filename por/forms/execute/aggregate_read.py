"""What the aggregate executor on chain forms reads, checked: Python's twin of
``PorAggregateFormRead.sol`` (SPEC §5.6's layouts; §12.5.4's reads).

Each carried form is read through :mod:`por.forms.execute.read`, up to the last word the
aggregate reads (a malformation there raises :class:`~por.forms.execute.FormFault`; the
parts no rule of §12.5.4 reads are not walked). What was read is kept as offsets in
:class:`Ctx`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from por.forms.execute import CitationsFault
from por.forms.execute.read import (
    at,
    fault,
    open_form,
    read_b,
    read_d,
    read_e,
    read_h,
    read_l,
    read_o,
    read_t,
    read_w,
    read_z,
    skip_t,
    skip_v,
    span,
    step_id_hash,
    tag_of,
)
from por.forms.words import AGGREGATE, CHUNK, COMMON, EXTRACT, MAP, REQUIREMENT

BAD_INPUTS = "step.bad_inputs"
CITATION_MISMATCH = "step.citation_mismatch"
BAD_PRIOR_OUTPUT = "step.bad_prior_output"
MAX63 = (1 << 63) - 1
_U64 = (1 << 64) - 1
TIMESTAMP, TEXT = 2, 3


def word(f: bytes, p: int) -> int:
    """The word at ``p`` of ``f`` (already checked in bounds)."""
    return int.from_bytes(f[p:p + 32], "big")


def t_size(f: bytes, p: int) -> int:
    """The size of the checked ``T`` at ``p``: its length word and its padded bytes."""
    return 32 + ((word(f, p) + 31) & ~31)


def t_at(f: bytes, p: int) -> bytes:
    """The checked ``T`` at ``p`` as encoded (length word, padded bytes)."""
    return f[p:p + t_size(f, p)]


@dataclass
class Ctx:
    """The carried forms and what the recomputation needs from them (offsets)."""

    agg: bytes = b""  # AGGREGATE form
    common: bytes = b""
    req: bytes = b""  # REQUIREMENT
    chunk: bytes = b""  # CHUNK
    rid_hash: bytes = b""  # H(R) (T(inputs.requirement_id) is at 64): the output's requirement_id
    evid: int = 0  # AGGREGATE: L[H] evidence_ids: its count word
    evid_end: int = 0
    reqs: int = 0  # COMMON: its requirement table's count word
    r: int = 0
    chunk_at: int = 0  # the chunk's place among the cited forms
    ext: list[bytes] = field(default_factory=list)  # the cited EXTRACT forms, in order
    claims: list[int] = field(default_factory=list)  # extract k: its claims' count word
    strategy: int = 0
    tiers: int = 0  # tie_breaker highest_provenance
    targets: list[int] = field(default_factory=list)  # R's source target hashes
    rank_of: dict[int, int] | None = None  # each target's last place (``aggregate._rank``)
    fields: int = 0  # REQUIREMENT: the first field
    n_fields: int = 0
    bad_claim: bool = False  # a cited timestamp above 2^63 - 1 (Python's bad claim value)


def roles(c: Ctx, forms: Sequence[bytes], index: Sequence[int], size: int) -> None:
    """Each form's role by its forms index: COMMON at 0 (its requirement table gives r),
    the AGGREGATE and the cited steps at step indexes 1 + r .. size - 2 with step tags,
    the REQUIREMENT at 1 .. r. Another tag at an index is a fault."""
    if len(forms) < 3 or index[1] != 0:
        fault("COMMON is not carried at forms index 0")
    common = forms[1]
    o = open_form(common, COMMON)
    o = read_h(common, o)[1]  # metric
    o = read_z(common, o)[1]  # sources_required
    o = read_d(common, o)[1]  # numeric tolerance
    r, q = read_l(common, o)
    c.common, c.reqs, c.r = common, o, r
    for _ in range(r):
        q = read_h(common, q)[1]
        q = read_e(common, q, 3)[1]
        q = read_w(common, q)[1]
        q = read_w(common, q)[1]
    if size < r + 3:  # COMMON, r REQUIREMENTs, a step, VERDICT
        fault("a forms tree too small for its requirements")
    last = size - 2
    if index[0] < 1 + r or index[0] > last or index[2] < 1 or index[2] > r:
        fault("a carried form's index is not its role's")
    for f, i in zip(forms[3:], index[3:], strict=True):
        if i < 1 + r or i > last:
            fault("a cited form's index is not a step's")
        if not EXTRACT <= tag_of(f) <= MAP:
            fault("a cited form's tag is not a step's")


def aggregate(c: Ctx, forms: Sequence[bytes]) -> int:
    """The AGGREGATE's words up to its evidence ids: T(R), Ri (returned), priors, evidence
    ids. The carried cited forms must be the step's priors, in order (``Citations``)."""
    a = forms[0]
    o = open_form(a, AGGREGATE) + 32  # the step id
    at(a, 32)
    rid, nxt = read_t(a, o)
    c.agg, c.rid_hash = a, hashlib.sha256(rid).digest()
    ri = at(a, nxt)
    n, q = read_l(a, nxt + 32)
    span(a, q, n << 5)
    if n != len(forms) - 3:
        raise CitationsFault(len(forms), "not one carried form per prior step id")
    for k in range(n):
        if at(a, q + (k << 5)) != at(forms[3 + k], 32):
            raise CitationsFault(3 + k, f"carried form {3 + k} is not the step's citation")
    q += n << 5
    c.evid = q
    n, q = read_l(a, q)  # L[H]: the count bounds its words
    c.evid_end = q + (n << 5)
    return ri


def id_at(c: Ctx, leaf: int) -> bool:
    """The step id at reasoning leaf ``leaf`` is ``step_id(leaf + 1)``."""
    return step_id_hash(leaf + 1) == c.agg[32:64]


def split(c: Ctx, forms: Sequence[bytes]) -> str:
    """The cited forms split as Python's ``_split``: extract steps in order and check
    chunks; "", or ``step.citation_mismatch`` for another kind or not one chunk."""
    chunks = 0
    for k, f in enumerate(forms[3:]):
        tag = tag_of(f)
        if tag == EXTRACT:
            c.ext.append(f)
        elif tag == CHUNK:
            c.chunk_at = k
            chunks += 1
        else:
            return CITATION_MISMATCH
    return "" if chunks == 1 else CITATION_MISMATCH


def extracts(c: Ctx) -> str:
    """Each EXTRACT read up to its claims (all checked), then the k-th extract step's
    evidence id must be the step's k-th cited id (``read_cards``); one per cited id."""
    if word(c.agg, c.evid) != len(c.ext):
        return CITATION_MISMATCH
    for f in c.ext:
        open_form(f, EXTRACT)
        at(f, 128)  # step id, source id, tier, evidence id hash
        read_w(f, 96)  # tier
        claims, bad = _claims_of(f, skip_t(f, 160))  # T(evidence_id): read by the judge only
        c.claims.append(claims)
        c.bad_claim = c.bad_claim or bad
    e = c.evid + 32  # each cited id's H against the item's word 4
    for k, f in enumerate(c.ext):
        if f[128:160] != c.agg[e + (k << 5):e + (k << 5) + 32]:
            return CITATION_MISMATCH
    return ""


def _claims_of(f: bytes, o: int) -> tuple[int, bool]:
    """The claims of an EXTRACT at ``o``, each checked: key, kind, claim id (``H(key)
    E(kind) H(claim_id)``, three words), value (a text's ``H``, one word); ``bad`` when a
    timestamp is above 2^63 - 1."""
    n, q = read_l(f, o)
    bad = False
    for _ in range(n):
        kind = word(f, q + 32)
        if q + 96 > len(f) or kind > 3:
            fault("a claim's kind or claim id does not parse")
        q += 96
        if kind == TIMESTAMP and at(f, q) > MAX63:
            bad = True
        q = read_h(f, q)[1] if kind == TEXT else skip_v(f, q, kind)
    return o, bad


def requirement(c: Ctx, forms: Sequence[bytes], index: Sequence[int]) -> str:
    """R in COMMON's requirement table (``step.bad_inputs`` when none), the carried
    REQUIREMENT its form, read up to its fields."""
    k = 0
    while k < c.r and c.common[c.reqs + 32 + (k << 7):c.reqs + 64 + (k << 7)] != c.rid_hash:
        k += 1
    if k == c.r:
        return BAD_INPUTS
    if index[2] != 1 + k:
        raise CitationsFault(2, "carried form 2 is not R's REQUIREMENT")
    q = forms[2]
    open_form(q, REQUIREMENT)
    if at(q, 32).to_bytes(32, "big") != c.rid_hash:
        fault("R's REQUIREMENT names another requirement")
    c.req = q
    c.strategy = read_e(q, 64, 3)[0]
    c.tiers = read_e(q, 96, 2)[0]
    read_w(q, 128)  # min_sources
    read_w(q, 160)  # quorum
    nt, o = read_l(q, 192)
    span(q, o, nt << 5)
    c.targets = [word(q, o + 32 * i) for i in range(nt)]
    o += nt << 5
    c.n_fields, p = read_l(q, o)
    c.fields = p
    for _ in range(c.n_fields):
        p = read_e(q, p, 4)[1]
        p = read_h(q, p)[1]  # L[E(kind) H(key)]
    return ""


def chunk(c: Ctx, forms: Sequence[bytes]) -> str:
    """The cited chunk as ``read_state`` reads it (R's, its counts and coverage), then its
    ``sources`` name exactly the cited items (``step.citation_mismatch``)."""
    f = forms[3 + c.chunk_at]
    c.chunk = f
    ns, o = read_l(f, 256)
    span(f, o, ns << 7)
    cause = _state(c, f, o + (ns << 7))
    if cause:
        return cause
    # a rest word that is not 0, or a source id twice: the same cause, in any order
    # (linear here, O(ns log ns) on chain: the count is the signer's, SPEC §17)
    ids = [word(f, o + (k << 7) + 64) for k in range(ns)]
    if any(word(f, o + (k << 7) + 96) != 0 for k in range(ns)) or len(set(ids)) != ns:
        return BAD_PRIOR_OUTPUT
    if ns != len(c.ext):
        return CITATION_MISMATCH
    for k, x in enumerate(c.ext):
        e = o + (k << 7)
        # step id, H(evidence_id), source id
        if f[e:e + 96] != x[32:64] + x[128:160] + x[64:96]:
            return CITATION_MISMATCH
    return ""


def _state(c: Ctx, f: bytes, o: int) -> str:
    """The chunk's requirement (its ``inputs`` and ``output``), its counts and coverage;
    ``o`` is its T(inputs.requirement_id)."""
    q = read_t(f, o)[1]
    if t_at(f, o) != c.agg[64:64 + t_size(f, o)]:
        return CITATION_MISMATCH
    if at(f, 64).to_bytes(32, "big") != c.rid_hash:
        return CITATION_MISMATCH
    at(f, q)  # Ri
    n, q = read_l(f, q + 32)  # priors, L[H]
    n, q = read_l(f, q + (n << 5))  # evidence ids, L[H]
    q += n << 5
    chunk_no = read_w(f, q)[0]
    admitted = read_w(f, q + 32)[0]
    claim_count = read_w(f, q + 64)[0]
    covered = read_b(f, 96)[0]
    provenance_ok = read_b(f, 128)[0]
    item_count = read_w(f, 160)[0]
    last_leaf = read_o(f, 192, _U64)[1]
    if max(item_count, chunk_no, admitted, claim_count, last_leaf) > MAX63:
        return BAD_PRIOR_OUTPUT
    if covered != (admitted > 0) or (covered and not provenance_ok):
        return BAD_PRIOR_OUTPUT
    return ""


__all__ = ["BAD_INPUTS", "BAD_PRIOR_OUTPUT", "CITATION_MISMATCH", "Ctx", "aggregate", "chunk",
           "extracts", "id_at", "requirement", "roles", "split", "t_at", "t_size", "word"]
