"""Hostile aggregates whose vote a signer sizes (s41 ``execa``, s40 decision 8's open
item): the aggregate's call data over a forms tree a proposer can commit, with ``n``
cited EXTRACT forms of ``n`` distinct sources, so every field votes over ``n`` voters.

:func:`votes_call_data` starts from scenario 08's honest aggregate (``forms_route_support
.honest_market``): its REQUIREMENT set to ``multi_source_quorum`` (tie-breaker
``highest_provenance`` when ``tiers``) with a quorum of ``need``, its first cited EXTRACT
copied ``n`` times (step id, source id and evidence id each its own; tier ``k`` for copy
``k``, so the tie order reverses the voters), the CHUNK's ``sources`` naming them, and the
AGGREGATE citing them (its step id the one its forms index needs). With ``rebuilt`` the
AGGREGATE is Python's own recomputation on those forms (``por.forms.execute.aggregate``),
so Python's executor answers ``one_step.match`` and the chain must too.
"""

from __future__ import annotations

import hashlib

from eth_abi.abi import encode as abi_encode
from forms_aggregate_cases import SIGNATURE, call_data
from forms_harness import forms_root_of, selector
from forms_python import forms_args
from forms_route_support import honest_market, leaf_of

from por.bundle.layout import COMPONENT_INDEX, COMPONENTS
from por.container.spec import component_leaf
from por.forms.execute import aggregate_read as ar
from por.forms.execute.aggregate import _causes, _recompute
from por.forms.execute.read import step_id_hash
from por.merkle.hashing import leaf_hash
from por.merkle.tree import inclusion_proof_from_leaf_hashes, root_from_leaf_hashes

INCLUSION = "(bytes32,uint256,uint256[],bytes32[][],bytes32[])"


def _w(n: int) -> bytes:
    return n.to_bytes(32, "big")


def _h(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def _word(f: bytes, p: int) -> int:
    return int.from_bytes(f[p:p + 32], "big")


def _extract(f: bytes, k: int, tiers: bool) -> bytes:
    """Copy ``k`` of the EXTRACT ``f``: its own step id, source id and evidence id."""
    tier = _w(k) if tiers else f[96:128]
    return (f[:32] + _h(f"vote step {k}") + _h(f"vote source {k}") + tier
            + _h(f"vote item {k}") + f[160:])


def _call_data(forms: list[bytes], index: list[int]) -> bytes:
    """``execute``'s call data over the tree of ``forms`` (all of them, in tree order)."""
    bundle = honest_market()
    leaves = [leaf_hash(f) for f in forms]
    components = [leaf_hash(component_leaf(*bundle.commitments.component(name)))
                  for name in COMPONENTS[:COMPONENT_INDEX["forms"]]]
    components.append(leaf_hash(component_leaf(root_from_leaf_hashes(leaves), len(forms))))
    inc = (root_from_leaf_hashes(components), len(forms), index,
           [inclusion_proof_from_leaf_hashes(leaves, i) for i in index],
           inclusion_proof_from_leaf_hashes(components, 6))
    return selector(SIGNATURE) + abi_encode(["bytes[]", INCLUSION],
                                            [[forms[i] for i in index], inc])


def votes_call_data(n: int, need: int, *, tiers: bool = True, rebuilt: bool = False,
                    negative: bool = False) -> bytes:
    """The hostile aggregate's call data (module docstring); ``negative``: COMMON's
    tolerance negated (no two numbers agree, nor one with itself)."""
    bundle = honest_market()
    committed = forms_root_of(bundle)
    r = committed.requirements
    carried, index, _size = forms_args(call_data(bundle, leaf_of("aggregate")))
    step, req, first, chunk = carried[0], bytearray(carried[2]), carried[3], carried[-1]
    req[64:96], req[96:128], req[128:160], req[160:192] = _w(1), _w(int(tiers)), _w(1), _w(need)
    extracts = [_extract(first, k, tiers) for k in range(n)]
    ns0 = _word(chunk, 256)
    sources = b"".join(e[32:64] + e[128:160] + e[64:96] + bytes(32) for e in extracts)
    chunk = chunk[:256] + _w(n) + sources + chunk[288 + 128 * ns0:]
    at = 1 + r + n + 1  # the AGGREGATE's forms index: COMMON, r REQUIREMENTs, n, CHUNK
    p = 64 + 32 + ((_word(step, 64) + 31) & ~31)  # Ri, after T(inputs.requirement_id)
    np0 = _word(step, p + 32)
    ne0 = _word(step, p + 64 + 32 * np0)
    rest = step[p + 96 + 32 * np0 + 32 * ne0:]
    step = (step[:32] + step_id_hash(at - r) + step[64:p + 32] + _w(n + 1)
            + b"".join(e[32:64] for e in extracts) + chunk[32:64] + _w(n)
            + b"".join(e[128:160] for e in extracts) + rest)
    tree = [f.form for f in committed.forms.forms[:1 + r]]
    tree[index[2]] = bytes(req)
    if negative:
        tree[0] = tree[0][:96] + bytes([tree[0][96] | 0x80]) + tree[0][97:]
    tree += [*extracts, chunk, step, committed.forms.forms[-1].form]
    cited = [1 + r + k for k in range(n)] + [1 + r + n]
    index = [at, 0, index[2], *cited]
    if rebuilt:
        tree[at] = _rebuilt([tree[i] for i in index], index, len(tree))
    return _call_data(tree, index)


def _rebuilt(forms: list[bytes], index: list[int], size: int) -> bytes:
    """Python's executor's recomputed AGGREGATE on the carried ``forms``."""
    c = ar.Ctx()
    ar.roles(c, forms, index, size)
    ri = ar.aggregate(c, forms)
    assert not _causes(c, forms, index, ri)
    return _recompute(c)


__all__ = ["votes_call_data"]
