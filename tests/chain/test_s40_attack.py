"""s40 attack on the forms route (settleByForms -> checkForms -> executors): an honest
bundle's FormStepProof with one carried form swapped for another committed form (right
index and path, so inclusion holds) or a form carried twice must never be won, and Python
(``verify_form_step_proof``) and the chain (``checkForms`` on ``form_step_args``) must give
the same (won, check id). Args re-encoded (trailing bytes) are documented: the chain
accepts them under another proof hash. Committed artifacts in revm (like
test_forms_route.py): no node needed.
"""

from __future__ import annotations

from typing import Any

import pytest
from forms_route_support import check_forms, honest_market, leaf_of, lie
from proof_check_support import ProofChecker
from scratch_harness import SOLC

from por.chain.calldata import form_step_args
from por.challenge.form_step import _form, _record, build_form_step_proof, verify_form_step_proof
from por.challenge.records import FormStepProof, seal
from por.errors import PorError
from por.merkle import leaf_hash
from por.merkle.tree import inclusion_proof_from_leaf_hashes
from por.signing.eip712 import keccak256

pytestmark = SOLC

KINDS = ["check", "aggregate", "deduce", "judge"]


@pytest.fixture(scope="module")
def router() -> ProofChecker:
    return ProofChecker()


def _proof(bundle: Any, kind: str) -> FormStepProof:
    return build_form_step_proof(bundle, kind, None if kind == "judge" else leaf_of(kind))


def _resealed(proof: FormStepProof, forms: list[bytes], index: list[int],
              hashes: list[bytes]) -> FormStepProof:
    body = {"schema": FormStepProof.SCHEMA, "kind": proof.kind, "por_root": proof.por_root,
            "forms": forms, "index": index, "forms_size": proof.forms_size,
            "paths": [inclusion_proof_from_leaf_hashes(hashes, i) for i in index],
            "forms_path": list(proof.forms_path)}
    out: FormStepProof = seal(FormStepProof, body)
    return out


def _python(proof: FormStepProof) -> tuple[bool, str]:
    try:
        outcome = verify_form_step_proof(proof)
    except PorError as exc:
        return False, exc.check_id
    return outcome.outcome == "won", outcome.reason


def _chain(router: ProofChecker, proof: FormStepProof) -> tuple[bool, str]:
    kind, args = form_step_args(proof)
    try:
        won, check_id, _root = check_forms(router, kind, args)
    except RuntimeError as exc:  # checkForms passed a revert on: settleByForms reverts
        return False, "revert " + str(exc)[-24:]
    return won, check_id


def _variants(kind: str) -> list[tuple[str, FormStepProof]]:
    bundle = honest_market()
    proof = _proof(bundle, kind)
    hashes = list(bundle.forms)  # the committed leaf hashes
    spec = _record(bundle.prompt_spec, "the PromptSpec")
    base = 1 + len(spec["data_requirements"])
    forms = [_form(bundle, spec, i, base) for i in range(len(hashes))]
    assert [leaf_hash(f) for f in forms] == hashes
    out = []
    for pos in range(len(proof.index)):
        for j in range(len(forms)):
            if j == proof.index[pos]:
                continue
            index = list(proof.index)
            index[pos] = j
            out.append((f"{kind}: forms[{pos}] <- form {j}",
                        _resealed(proof, [forms[i] for i in index], index, hashes)))
        index = [*proof.index, proof.index[pos]]  # form `pos` carried twice, at the end
        out.append((f"{kind}: forms[{pos}] carried again",
                    _resealed(proof, [forms[i] for i in index], index, hashes)))
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_an_honest_bundle_is_never_struck_and_python_agrees(router: ProofChecker,
                                                            kind: str) -> None:
    struck, differ = [], []
    for name, proof in _variants(kind):
        py, ch = _python(proof), _chain(router, proof)
        if py[0] or ch[0]:
            struck.append((name, py, ch))
        if py != ch:
            differ.append((name, py, ch))
    assert not struck, struck[:5]
    assert not differ, differ[:5]


def test_judge_final_step_is_mapped_not_passed_on(router: ProofChecker) -> None:
    """FINDING: the judge executor's ``FinalStep()`` (forms[2] not at ``size - 2``) is not
    in PorFormsRoute.idOf's table: ``checkForms`` reverts with 0xaf799ecc where Python's
    ``por check-proof`` answers lost ``proof.final_step`` (SPEC §14.8 table)."""
    bundle = honest_market()
    proof = _proof(bundle, "judge")
    hashes = list(bundle.forms)
    spec = _record(bundle.prompt_spec, "the PromptSpec")
    base = 1 + len(spec["data_requirements"])
    index = list(proof.index)
    index[2] = index[2] - 1  # the step before the final one: inclusion holds
    forms = [_form(bundle, spec, i, base) for i in index]
    bad = _resealed(proof, forms, index, hashes)
    assert _python(bad) == (False, "proof.final_step")
    assert _chain(router, bad) == (False, "proof.final_step")


@pytest.mark.parametrize("kind", KINDS)
def test_a_reencoded_lie_still_wins_under_another_proof_hash(router: ProofChecker,
                                                             kind: str) -> None:
    """Documents: args with trailing bytes are the same proof to the executor, another
    proof hash (and challenge id) to the registry. Harmless while a strike moves the record
    out of Proposed (one strike per round), but a proof is not one hash."""
    proof = _proof(lie(kind), kind)
    hkind, args = form_step_args(proof)
    assert check_forms(router, hkind, args)[0]
    assert check_forms(router, hkind, args + b"\x00" * 32)[0]


def test_an_executor_out_of_gas_is_not_a_lost_proof_schema(router: ProofChecker) -> None:
    """FINDING: PorFormsRoute.execute forwards all gas but 1/64; an executor that runs out
    of gas reverts with no data, which idOf maps to ``proof.schema``. So a won lie sent
    with too little gas answers lost ``proof.schema`` (settleByForms reverts
    ProofNotWon(proof.schema)) instead of running out of gas: an eth_call with a gas cap
    (or a relayer estimating) reads a valid proof as malformed. Expect a revert."""
    from eth_abi.abi import encode as abi_encode
    from proof_check_support import CALLER

    from por.signing.eip712 import keccak256
    proof = _proof(lie("check"), "check")
    kind, args = form_step_args(proof)
    data = keccak256(b"checkForms(bytes32,bytes)")[:4] + abi_encode(["bytes32", "bytes"],
                                                                    [kind, args])
    router.evm.message_call(CALLER, router.address, data)
    full = router.evm.result.gas_used
    answered = []
    for gas in range(60_000, full, max(1, (full - 60_000) // 40)):
        try:
            out = router.evm.message_call(CALLER, router.address, data, gas=gas)
        except RuntimeError:
            continue  # out of gas: right
        answered.append((gas, out[:32].hex()[-1], out[32:64].hex()[:8]))
    assert not any(won == "0" for _gas, won, _id in answered), answered[:3]


def _hostile_aggregate(ns: int, repeat: tuple[int, int] | None = None) -> FormStepProof:
    """The aggregate's FormStepProof over a bundle whose cited CHUNK form (forms[6]) lists
    ``ns`` distinct sources (the forms root and por_root recomputed: a proposer can commit
    it); ``repeat`` (j, k): source k names source j's id."""
    from forms_harness import forms_root_of, replaced
    bundle = honest_market()
    proof = _proof(bundle, "aggregate")
    at = 6
    f = proof.forms[at]
    ns0 = int.from_bytes(f[256:288], "big")
    entries = bytearray(f[288:288 + ns0 * 128])
    for k in range(ns0, ns):
        e = bytearray(128)
        e[64:96] = (10**9 + k).to_bytes(32, "big")
        entries += e
    if repeat is not None:
        j, k = repeat
        entries[k * 128 + 64:k * 128 + 96] = entries[j * 128 + 64:j * 128 + 96]
    g = f[:256] + ns.to_bytes(32, "big") + bytes(entries) + f[288 + ns0 * 128:]
    com = replaced(bundle, forms_root_of(bundle), proof.index[at], g)
    leaves = [x.leaf for x in com.forms.forms]
    body = {"schema": FormStepProof.SCHEMA, "kind": "aggregate", "por_root": com.por_root,
            "forms": [com.forms.forms[i].form for i in proof.index],
            "index": list(proof.index), "forms_size": proof.forms_size,
            "paths": [inclusion_proof_from_leaf_hashes(leaves, i) for i in proof.index],
            "forms_path": list(com.component_path)}
    out: FormStepProof = seal(FormStepProof, body)
    return out


def test_repeated_sources_are_found_in_either_order(router: ProofChecker) -> None:
    """The repeat check at any count (pairwise up to 16 sources, merge-sorted above): a
    source id twice is ``step.bad_prior_output`` on chain as in Python; all distinct, the
    count decides (``step.citation_mismatch``). Broken on purpose (the sorted scan
    skipped), the repeats above 16 are missed on chain."""
    for ns in (4, 16, 17, 40, 129):  # the honest chunk has 3
        for repeat in (None, (0, ns - 1), (ns // 2 - 1, ns // 2)):
            proof = _hostile_aggregate(ns, repeat)
            assert _chain(router, proof) == _python(proof), (ns, repeat)
            want = "step.citation_mismatch" if repeat is None else "step.bad_prior_output"
            assert verify_form_step_proof(proof).cause == want, (ns, repeat)
            assert _executor_cause(proof) == want, (ns, repeat)


def _executor_cause(proof: FormStepProof) -> str:
    """The cause the aggregate executor answers (the router keeps only won and the id)."""
    from eth_abi.abi import decode as abi_decode
    from forms_harness import call, deploy, selector

    _kind, args = form_step_args(proof)
    out, _gas = call(deploy("PorAggregateForm"),
                     selector("execute(bytes[],(bytes32,uint256,uint256[],bytes32[][],bytes32[]))")
                     + args)
    assert isinstance(out, bytes), out
    causes = ("step.citation_mismatch", "step.bad_prior_output")
    by_hash = {keccak256(c.encode()): c for c in causes}
    return by_hash.get(abi_decode(["bool", "bytes32", "bytes32"], out)[2], "other")


def _gas(router: ProofChecker, proof: FormStepProof) -> int:
    from eth_abi.abi import encode as abi_encode
    from proof_check_support import message_call

    from por.signing.eip712 import keccak256
    kind, args = form_step_args(proof)
    data = keccak256(b"checkForms(bytes32,bytes)")[:4] + abi_encode(["bytes32", "bytes"],
                                                                    [kind, args])
    _out, gas = message_call(router.evm, router.address, data)
    return gas


def test_a_chunk_with_many_sources_costs_linear_gas(router: ProofChecker) -> None:
    """Found by this file (s40): PorAggregateFormRead._chunk checked the cited chunk's
    ``ns`` sources pairwise distinct (O(ns^2)) before ``ns != c.n``; ``ns`` is bounded only
    by the form's length: 400 sources (~64 KB of args) cost ~27 M gas, 800 ~106 M (honest:
    ~123 k), so a proposer who commits such a chunk priced the aggregate's FormStepProof
    out of a block. Fixed at integration (``_repeats``: a merge sort above 16 sources;
    Python's twin linear): at most about linear."""
    small, big = _gas(router, _hostile_aggregate(100)), _gas(router, _hostile_aggregate(400))
    assert _python(_hostile_aggregate(400))[0]  # a won proof (one_step.unexecutable)
    assert big < 6 * small, (small, big)
