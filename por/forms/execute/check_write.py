"""The chunk's running state (SPEC §12.5.3) and its whole recomputed CHUNK form (SPEC
§5.6), built and compared with the committed one: Python's twin of
``PorCheckFormWrite.sol``."""

from __future__ import annotations

from dataclasses import dataclass, field

from por.forms.execute.check_items import GATE_BIT, TIER_BIT, Item, next_claim
from por.forms.execute.check_read import d_end, text
from por.forms.execute.check_state import Group, Prior, Ref, add_claim, group_index

#: H("agent name is blank (empty or only white space)"), the gate's fixed reason.
GATE_REASON = bytes.fromhex("f675b769c5c5affdcc8b39909d1b47ea9cf3330cf0702d6063ccdfb800e333d1")
ZERO = bytes(32)


def _w(n: int) -> bytes:
    return n.to_bytes(32, "big")


def _word(f: bytes, p: int) -> int:
    return int.from_bytes(f[p:p + 32], "big")


@dataclass
class Ctx:
    """The disputed chunk and what it reads: the carried forms and offsets in them."""

    step: bytes  # the CHUNK form
    common: bytes
    req: bytes  # the carried REQUIREMENT
    r: int = 0  # requirement count (COMMON's table)
    rid_t: int = 0  # the step's T(inputs.requirement_id)
    evidence: int = 0  # its L[H] evidence_ids: the count word
    head_end: int = 0  # after its evidence ids
    rid: bytes = b""  # H(R)
    row: int = 0  # R's row in COMMON's table (r when absent)
    step_index: int = 0


@dataclass
class State:
    """The chunk's own counts, its new sources and the groups."""

    admitted_now: int = 0
    claims: int = 0
    tier_failed: bool = False
    fresh: list[Item] = field(default_factory=list)  # the items whose source is new


def _state(prior: Prior, items: list[Item], groups: list[Group]) -> State:
    st = State(claims=prior.claim_count)
    where = group_index(groups)
    for it in items:
        if it.reasons & TIER_BIT:
            st.tier_failed = True
        if it.reasons:
            continue
        st.admitted_now += 1
        st.claims += it.n_claims
        _source(prior, st.fresh, it)
        _claims(groups, where, it)
    return st


def _source(prior: Prior, fresh: list[Item], it: Item) -> None:
    """Record ``it``'s source unless P's ``sources`` or an earlier fresh one names it."""
    source = it.word(64)
    if any(prior.source(j) == source for j in range(prior.n_sources)):
        return
    if any(x.word(64) == source for x in fresh):
        return
    fresh.append(it)


def _claims(groups: list[Group], where: dict[tuple[int, int], Group], it: Item) -> None:
    """Fold ``it``'s numeric and boolean claims into the groups (``where``: their index)."""
    f = it.f
    q = it.claims
    evidence_id = f[128:160]
    for _ in range(it.n_claims):
        kind = _word(f, q + 32)
        nxt = next_claim(f, q)
        if kind <= 1:
            ref = Ref(f[q + 64:q + 96], evidence_id, f[q + 96:nxt])
            add_claim(groups, where, kind, _word(f, q), ref)
        q = nxt


def build(c: Ctx, prior: Prior, items: list[Item], groups: list[Group]) -> bool:
    """The chunk's state from P's and the admitted ``items``, and whether its form is the
    committed one."""
    return form(c, prior, items, groups) == c.step


def form(c: Ctx, prior: Prior, items: list[Item], groups: list[Group]) -> bytes:
    """The chunk's CHUNK form recomputed from P's state and the admitted ``items``."""
    st = _state(prior, items, groups)
    chunk = prior.chunk + 1 if prior.present else 0
    out = [_head(c, prior, items, st), _w(chunk), _w(prior.admitted + st.admitted_now),
           _w(st.claims), _window(c), _w(int(prior.has_last)), _w(prior.last),
           _items(items), _groups(groups), ZERO,
           _description(c, chunk, st.admitted_now, len(items))]
    return b"".join(out)


def _head(c: Ctx, prior: Prior, items: list[Item], st: State) -> bytes:
    """Words 0-8, the sources, and the step's inputs, priors and evidence ids (copied:
    Python's citations are the step's when it gets here)."""
    n = len(items)
    covered = prior.admitted + st.admitted_now > 0
    ok = covered or ((not prior.present or prior.provenance_ok) and not st.tier_failed)
    out = [_w(4), c.step[32:64], c.rid, _w(int(covered)), _w(int(ok)),
           _w(prior.item_count + n), _w(int(n > 0 or prior.has_last)),
           _w(items[-1].leaf if n else prior.last), _w(prior.n_sources + len(st.fresh)),
           prior.f[prior.sources:prior.sources + 128 * prior.n_sources]]
    for it in st.fresh:
        out += [it.f[32:64], it.f[128:160], it.f[64:96], ZERO]
    out.append(c.step[c.rid_t:c.head_end])  # T(inputs.requirement_id), Ri, priors, evidence
    return b"".join(out)


def _window(c: Ctx) -> bytes:
    """``window`` {start, end} with the slack, and its rest word."""
    q = d_end(c.common, 96) + 64 + 128 * c.r
    start, slack = _word(c.common, q), _word(c.common, q + 64)
    return _w(start - slack if start > slack else 0) + _w(_word(c.common, q + 32) + slack) + ZERO


def _items(items: list[Item]) -> bytes:
    out = [_w(len(items))]
    for it in items:
        codes = [k for k in range(1, 8) if it.reasons >> k & 1]
        out += [it.f[128:160], it.f[64:96], _w(int(it.reasons == 0)), _w(len(codes)),
                *map(_w, codes), _w(it.observed), _w(0 if it.from_claim else 1)]
        out += [_w(1), GATE_REASON] if it.reasons == GATE_BIT else [ZERO]
        out.append(ZERO)
    return b"".join(out)


def _ref(ref: Ref) -> bytes:
    return ref.claim_id + ref.evidence_id + ref.value + ZERO


def _groups(groups: list[Group]) -> bytes:
    out = [_w(len(groups))]
    for g in groups:
        out += [_w(g.kind), _w(g.key), _w(g.count), _ref(g.first)]
        if g.kind == 0:
            out.append(_w(int(g.second is not None)))
        if g.second is not None:
            out.append(_ref(g.second))
        out.append(ZERO)
    return b"".join(out)


def _description(c: Ctx, chunk: int, admitted: int, n: int) -> bytes:
    """T("check requirement " + R + " chunk " + c + ": " + a + " of " + n + " item(s)
    admitted")."""
    data = (b"check requirement " + text(c.step, c.rid_t) + b" chunk %d: %d of %d item(s) admitted"
            % (chunk, admitted, n))
    return _w(len(data)) + data + bytes(-len(data) % 32)


__all__ = ["Ctx", "State", "build", "form"]
