"""s41 ``execa``: the check chunk's reads of its cited P over counts the signer commits.
``PorCheckFormState`` checked P's ``sources`` distinct and its groups' (kind, key)
distinct pairwise: a proposer who commits a P (CHUNK form) of n sources or n groups
priced the next chunk's FormStepProof at O(n^2) gas (as the aggregate's sources, s40
attack finding 2). Now ``PorFormsSort.repeats`` (pairwise to 16, a merge sort above).
Each case: the chain's answer equals Python's executor's on the same call data
(``forms_python.agrees``), a repeat is found at any count, and 4x the entries cost
under 6x the gas. Committed sources compiled in revm (the SOLC gate).
"""

from __future__ import annotations

import hashlib

from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from forms_harness import EXECUTE, call, deploy, forms_root_of, proof_call_data, replaced, selector
from forms_python import agrees, forms_args
from forms_route_support import honest_market, leaf_of
from scratch_harness import SOLC

from por.challenge.form_step import build_form_step_proof
from por.forms.execute.check_state import load_groups, read_prior
from por.signing.eip712 import keccak256

pytestmark = SOLC
INCLUSION = "(bytes32,uint256,uint256[],bytes32[][],bytes32[])"
CAUSES = {keccak256(c.encode()): c for c in ("step.bad_prior_output", "step.citation_mismatch")}


def _w(n: int) -> bytes:
    return n.to_bytes(32, "big")


def _h(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def _with_prior(grow: str, n: int, repeat: bool) -> bytes:
    """The check chunk's call data with its P (the last carried form) given ``n`` more
    ``sources`` entries or boolean groups (``grow``); ``repeat``: the last names the
    first's source (or (kind, key))."""
    bundle = honest_market()
    data = proof_call_data(build_form_step_proof(bundle, "check", leaf_of("check")))
    forms, index, _size = forms_args(data)
    p = forms[-1]
    prior, _bad = read_prior(p)
    if grow == "sources":
        extra = [_h(f"step {k}") + _h(f"item {k}") + _h(f"source {k}") + bytes(32)
                 for k in range(n)]
        if repeat:
            extra[-1] = extra[-1][:64] + p[prior.sources + 64:prior.sources + 96] + bytes(32)
        at = prior.sources + 128 * prior.n_sources
        p = p[:256] + _w(prior.n_sources + n) + p[288:at] + b"".join(extra) + p[at:]
    else:
        end, _bad = load_groups(prior)
        key = [_h(f"key {k}") for k in range(n)]
        if repeat:
            key[-1] = key[0]
        extra = [_w(0) + key[k] + _w(1) + _h("claim") + _h("item") + _w(1) + bytes(32)
                 + _w(0) + bytes(32) for k in range(n)]
        at = prior.groups_at - 32
        p = p[:at] + _w(prior.n_groups + n) + p[at + 32:end] + b"".join(extra) + p[end:]
    c = replaced(bundle, forms_root_of(bundle), index[-1], p)
    forms[-1] = p
    inc = (c.por_root, c.forms.size, index, [c.path(i) for i in index], c.component_path)
    return selector(EXECUTE) + abi_encode(["bytes[]", INCLUSION], [forms, inc])


def _answer(data: bytes) -> tuple[str, int]:
    out, gas = call(deploy("PorCheckForm"), data)
    assert isinstance(out, bytes), out
    agrees("check", data, _ids(out))
    cause = abi_decode(["bool", "bytes32", "bytes32"], out)[2]
    return CAUSES.get(cause, cause.hex()), gas


def _ids(out: bytes) -> tuple[bool, str, str]:
    from forms_deduce_cases import BY_HASH

    won, check_id, cause = abi_decode(["bool", "bytes32", "bytes32"], out)
    return bool(won), BY_HASH[check_id], BY_HASH.get(cause, "")


def test_a_repeat_in_p_is_found_at_any_count() -> None:
    """A source or a (kind, key) named twice is ``step.bad_prior_output`` on chain as in
    Python, pairwise (few) or merge-sorted (many)."""
    for grow in ("sources", "groups"):
        for n in (2, 20, 100):
            cause, _gas = _answer(_with_prior(grow, n, True))
            assert cause == "step.bad_prior_output", (grow, n, cause)


def test_p_with_many_sources_or_groups_costs_about_linear_gas() -> None:
    """100 -> 400 entries: quadratic before (about 10x), now under 6x."""
    for grow in ("sources", "groups"):
        small = _answer(_with_prior(grow, 100, False))[1]
        big = _answer(_with_prior(grow, 400, False))[1]
        assert big < 6 * small, (grow, small, big)
