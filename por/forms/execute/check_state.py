"""The running state of the cited chunk P read from its CHUNK form (SPEC §5.6), with SPEC
§12.5.3's checks of a malformed state, and the chunk's contradiction groups (P's, then
updated with the admitted items' claims): Python's twin of ``PorCheckFormState.sol``.

A group holds its kind (0 boolean, 1 numeric), H(key), claim_count and up to two claim
references, each the encoded ``H(claim_id)``, ``H(evidence_id)`` and value ``V``
(numeric: min then max; boolean: first, then ``other`` when present).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from por.forms.execute.check_read import MAX63, code, count, int64w, opt, t_end, v_end, value_of, w
from por.forms.execute.read import fault, read_d


@dataclass(frozen=True)
class Ref:
    """A claim reference: its encoded ``H(claim_id)``, ``H(evidence_id)`` and value."""

    claim_id: bytes
    evidence_id: bytes
    value: bytes


@dataclass
class Group:
    """A contradiction group (kind, H(key), claim count, its references)."""

    kind: int
    key: int
    count: int
    first: Ref
    second: Ref | None = None


@dataclass
class Prior:
    """What the chunk reads of P (absent: all zero)."""

    f: bytes = b""
    present: bool = False
    covered: bool = False
    provenance_ok: bool = False
    has_last: bool = False
    last: int = 0
    chunk: int = 0
    item_count: int = 0
    admitted: int = 0
    claim_count: int = 0
    sources: int = 0  # the first `sources` entry (4 words each)
    n_sources: int = 0
    rid_t: int = 0  # T(inputs.requirement_id)
    out_rid: bytes = b""  # H(output.requirement_id)
    groups_at: int = 0  # the first group
    n_groups: int = 0
    groups: list[Group] = field(default_factory=list)

    def source(self, k: int) -> int:
        """Source entry ``k``'s source id word."""
        p = self.sources + 128 * k + 64
        return int.from_bytes(self.f[p:p + 32], "big")


def read_prior(f: bytes) -> tuple[Prior, bool]:
    """P's state from its form ``f``; ``bad`` when SPEC §12.5.3 finds it malformed (a count
    out of 0..2^63-1, coverage against the counts, a source entry with another key or
    named twice). The whole form is walked up to its groups (a fault is ``proof.form``)."""
    bad = False
    s = Prior(f=f, present=True)
    s.out_rid = w(f, 64).to_bytes(32, "big")
    s.covered = code(f, 96, 1) == 1
    s.provenance_ok = code(f, 128, 1) == 1
    s.item_count = int64w(f, 160)
    s.has_last, s.last = opt(f, 192)
    s.n_sources = count(f, 256, 4)
    s.sources = 288
    named: set[int] = set()
    for k in range(s.n_sources):
        e = s.sources + 128 * k
        if w(f, e + 96) != 0:
            bad = True
        source = w(f, e + 64)
        if source in named:  # a source named twice
            bad = True
        named.add(source)
    q = s.sources + 128 * s.n_sources
    s.rid_t = q
    q = t_end(f, q)
    w(f, q)  # Ri, not read
    q += 32
    q += 32 + 32 * count(f, q, 1)  # priors
    q += 32 + 32 * count(f, q, 1)  # evidence ids, L[H]
    s.chunk = int64w(f, q)
    s.admitted = int64w(f, q + 32)
    s.claim_count = int64w(f, q + 64)
    int64w(f, q + 96)  # window start, end, rest
    int64w(f, q + 128)
    w(f, q + 160)
    opt(f, q + 192)  # from_leaf
    q = _skip_items(f, q + 256)
    s.n_groups = count(f, q, 1)
    s.groups_at = q + 32
    if (s.chunk > MAX63 or s.item_count > MAX63 or s.admitted > MAX63
            or s.claim_count > MAX63 or (s.has_last and s.last > MAX63)
            or s.covered != (s.admitted > 0) or (s.covered and not s.provenance_ok)):
        bad = True
    return s, bad


def _skip_items(f: bytes, q: int) -> int:
    n = count(f, q, 8)
    q += 32
    for _ in range(n):
        code(f, q + 64, 1)  # admitted
        nr = count(f, q + 96, 1)
        for j in range(nr):
            reason = w(f, q + 128 + 32 * j)
            if reason == 0 or reason > 7:
                fault("an item's reason code out of range")
        q += 128 + 32 * nr
        int64w(f, q)  # observed_at
        code(f, q + 32, 1)  # observed_from
        q += 128 if code(f, q + 64, 1) == 1 else 96  # gate_reason
        w(f, q)  # the item's rest
        q += 32
    return q


def _ref(f: bytes, q: int, kind: int) -> tuple[Ref, int, bool]:
    """The reference at ``q``: itself, the offset after its rest word, and whether the
    rest word is not zero."""
    w(f, q + 32)  # H(claim_id) H(evidence_id)
    v = q + 64
    end = v_end(1 if kind == 1 else 0, f, v)
    return Ref(f[q:q + 32], f[q + 32:v], f[v:end]), end + 32, w(f, end) != 0


def load_groups(prior: Prior) -> tuple[int, bool]:
    """P's groups into ``prior.groups``; the offset after them, and ``bad`` when a group is
    malformed (a count out of 1..2^63-1, a rest word, a boolean ``other`` of ``first``'s
    value, a (kind, key) named twice)."""
    f = prior.f
    q = prior.groups_at
    bad = False
    named: set[tuple[int, int]] = set()
    for _ in range(prior.n_groups):
        kind = code(f, q, 1)
        key = w(f, q + 32)
        cnt = int64w(f, q + 64)
        if cnt == 0 or cnt > MAX63:
            bad = True
        first, q, ref_bad = _ref(f, q + 96, kind)
        bad = bad or ref_bad
        second = None
        if kind == 1:
            second, q, ref_bad = _ref(f, q, kind)
        elif code(f, q, 1) == 1:
            second, q, ref_bad = _ref(f, q + 32, kind)
            if first.value[:32] == second.value[:32]:
                bad = True
        else:
            q += 32
        bad = bad or ref_bad or w(f, q) != 0
        q += 32
        if (kind, key) in named:  # a (kind, key) named twice
            bad = True
        named.add((kind, key))
        prior.groups.append(Group(kind, key, cnt, first, second))
    return q, bad


def _below(a: bytes, b: bytes) -> int:
    """-1, 0, 1 as the decimal ``a`` is below, equal to, above ``b`` (§3.2's order)."""
    x, y = value_of(read_d(a, 0)[0]), value_of(read_d(b, 0)[0])
    return (x > y) - (x < y)


def add_claim(groups: list[Group], where: dict[tuple[int, int], Group], kind: int, key: int,
              ref: Ref) -> None:
    """Fold one admitted claim into ``groups``: §12.5.3's min/max by §3.2's exact order,
    boolean first/other. ``where`` is :func:`group_index` of ``groups``, kept with them: a
    claim finds its group in O(1) (the Solidity scans up to ``FEW`` groups, then sorts;
    the same groups either way)."""
    g = where.get((kind, key))
    if g is None:
        g = Group(kind, key, 1, ref, ref if kind == 1 else None)
        groups.append(g)
        where[(kind, key)] = g
        return
    g.count += 1
    if kind == 1:
        high = g.second or g.first  # a numeric group has both
        if _below(ref.value, g.first.value) < 0:
            g.first = ref
        if _below(ref.value, high.value) > 0:
            g.second = ref
    elif g.second is None and ref.value[:32] != g.first.value[:32]:
        g.second = ref


def group_index(groups: list[Group]) -> dict[tuple[int, int], Group]:
    """Each (kind, H(key)) of ``groups`` to its first group (the one a scan finds)."""
    where: dict[tuple[int, int], Group] = {}
    for g in groups:
        where.setdefault((g.kind, g.key), g)
    return where


__all__ = ["Group", "Prior", "Ref", "add_claim", "group_index", "load_groups", "read_prior"]
