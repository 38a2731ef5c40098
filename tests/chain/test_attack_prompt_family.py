"""s44 attack on the PromptSpec's FormProof family on chain (``PorFormFamilyPrompt``, SPEC
§10.2.8; ADR 0017 s43 ``psfamily``): each test plays inputs an attacker chooses and passes
because chain and Python answer alike, or differ only as §10.2.8 states (Python won
``one_step.invalid_record`` on an invalid PromptSpec, the chain ``F`` of its decoded value),
and the family never reverts.

* the index rule at ``j = r``, ``r + 1``, ``r + 2``, ``2^32``, ``2^63 - 2`` on forms trees
  whose paths all verify (synthetic), and past the schema's range (``2^63``, ``2^64 - 2``);
  ``formAt`` with ``j`` up to ``2^256 - 1``;
* 0, 9 and 16 requirements; leaves that are CBOR but not a PromptSpec; leaves that are not
  por-cbor/1 (keys out of order, a key twice, a long head, indefinite lengths, a float);
* valid PromptSpecs with long texts of every UTF-8 width across CBOR's length heads, and the
  most item-dense valid ones s44 found, whose whole FormProof transaction stays under the
  largest step's 3 000 000 (their gas against the bench's: ADR 0017's s44 addendum).
"""

from __future__ import annotations

from typing import Any

import pytest
from bundle_edits import honest, recommit
from formproof_families import check_call, prompt_form, prompt_gas
from forms_harness import selector
from prompt_attack_cases import (
    DENSE_COMMON,
    DENSE_REQUIREMENT,
    base_spec,
    dense,
    duplicated,
    long_texts,
    longest,
    reordered,
    requirements,
    synthetic_file,
    synthetic_proof,
)
from proof_check_support import calldata_gas
from scratch_harness import SOLC
from test_forms_formproof import python_check
from test_forms_formproof_prompt import agree_form, py_form, py_valid

from por.challenge.form_proof import build_form_proof
from por.challenge.records import FormProof
from por.encoding import decode, encode
from por.errors import PorError
from por.merkle import leaf_hash

pytestmark = SOLC

JUNK = bytes(range(32))


def _r(leaf: bytes) -> int:
    return len(decode(leaf)["data_requirements"])


def agree_proof(leaf: bytes, j: int, size: int, form_leaf: bytes) -> str:
    """The envelope's answer on a synthetic FormProof of ``leaf`` at ``j`` equals
    Python's, but on an invalid PromptSpec (the stated case: Python won
    ``one_step.invalid_record``, the chain answers ``F`` or the index rule)."""
    proof = synthetic_proof(leaf, j, size, form_leaf)
    py = python_check(proof)
    got, _ = check_call(proof.to_cbor())
    assert not isinstance(got, str), (j, got)
    if got == py:
        return py[1]
    assert py == (True, "one_step.invalid_record") and not py_valid(leaf), (j, py, got)
    assert got[1] in ("form.match", "form.mismatch", "form.none", "proof.form_index"), got
    return "stated:" + got[1]


def _honest_leaf(leaf: bytes, j: int) -> bytes:
    """LH(F) of form ``j`` of ``leaf`` as the chain reads it (JUNK where undefined)."""
    form = py_form(leaf, j)
    return leaf_hash(form[2]) if form is not None and form[1] else JUNK


@pytest.mark.parametrize("n", [1, 8])
def test_the_index_rule_at_r_and_past_it(n: int) -> None:
    """A valid PromptSpec of ``n`` requirements: forms ``0..r`` answer ``F`` (match and
    mismatch); ``r + 1`` (a step's index), ``r + 2``, ``2^32`` and ``2^63 - 2`` are
    ``proof.form_index`` on both sides although every path verifies."""
    leaf = encode(requirements(base_spec(), n))
    assert py_valid(leaf) and _r(leaf) == n
    seen = []
    for j in range(n + 1):
        seen.append(agree_proof(leaf, j, n + 3, _honest_leaf(leaf, j)))
        seen.append(agree_proof(leaf, j, n + 3, JUNK))
    assert seen == ["form.match", "form.mismatch"] * (n + 1)
    for j in (n + 1, n + 2, 2**32, 2**63 - 2):
        assert agree_proof(leaf, j, max(j + 1, n + 3), JUNK) == "proof.form_index", j
    for j in (n, n + 1, 2**64 - 1, 2**256 - 1):  # formAt itself: no revert, no form past r
        agree_form(leaf, j)
        assert prompt_form(leaf, j)[:2] == (True, j <= n)


@pytest.mark.parametrize(("index", "size"), [(2**63, 2**63 + 1), (2**64 - 2, 2**64 - 1),
                                             (2**63 - 1, 2**64 - 1)])
def test_an_index_past_the_schema_range_is_refused(index: int, size: int) -> None:
    """form_index or forms_size of 2^63 or more (uint64 in CBOR, past §10.2.8's schema):
    Python refuses the file (schema.value), the chain answers proof.schema, not won."""
    leaf = honest("08-quorum-agree").prompt_spec
    data = synthetic_file(leaf, index, size, JUNK)
    with pytest.raises(PorError) as caught:
        FormProof.from_cbor(data)
    assert caught.value.check_id == "schema.value"
    assert check_call(data)[0] == (False, "proof.schema")


@pytest.mark.parametrize("n", [0, 9, 16])
def test_zero_or_too_many_requirements_is_the_stated_case(n: int) -> None:
    """0 and more than MAX_REQUIREMENTS (8) requirements: invalid for Python (won
    one_step.invalid_record); the chain reads the array (valid), answers F up to r and
    proof.form_index past it: the disagreement §10.2.8 states."""
    spec = requirements(base_spec(), max(n, 1))
    spec["data_requirements"] = spec["data_requirements"][:n]
    leaf = encode(spec)
    assert not py_valid(leaf) and prompt_form(leaf, 0)[0] is True
    seen = {agree_form(leaf, j) for j in range(n + 2)}
    assert seen == {"stated"}
    answers = {agree_proof(leaf, j, n + 3, _honest_leaf(leaf, j)) for j in (0, n, n + 1)}
    assert answers <= {"stated:form.match", "stated:form.none", "stated:proof.form_index"}
    assert "stated:proof.form_index" in answers


#: Leaves that are por-cbor/1 but not a PromptSpec (the chain: valid only when a map with
#: an array ``data_requirements``).
NOT_A_SPEC: list[Any] = [
    5, -1, "x", b"x", [], [{}], {}, {"data_requirements": 5}, {"data_requirements": {}},
    {"data_requirements": []}, {"data_requirements": [1, "x", True, [], {}]},
    {"data_requirements": [{}] * 3, "market": 5, "prediction_semantics": []},
    {"data_requirements": [0] * 300},
    {"data_requirements": [[[[[[0]]]]]] * 20},
    {"schema": "por.PromptSpec/1", "data_requirements": [{"requirement_id": "r"}]},
]


@pytest.mark.parametrize("value", NOT_A_SPEC, ids=[repr(v)[:30] for v in NOT_A_SPEC])
def test_cbor_that_is_not_a_prompt_spec(value: Any) -> None:
    leaf = encode(value)
    r = len(value["data_requirements"]) if isinstance(value, dict) and isinstance(
        value.get("data_requirements"), list) else 0
    for j in (*range(r + 2), 2**64, 2**256 - 1):
        assert agree_form(leaf, j) in ("invalid", "stated")
    for j in (0, r, r + 1):
        agree_proof(leaf, j, r + 3, JUNK)


def _not_cbor() -> list[tuple[str, bytes]]:
    spec = base_spec()
    canonical = encode(spec)
    n = len(spec)
    cases = [(f"keys {i} and {j} swapped", reordered(spec, (i, j)))
             for i, j in ((0, 1), (0, n - 1), (n - 2, n - 1))]
    cases += [(f"{key} twice", duplicated(spec, key))
              for key in ("market", "data_requirements", "strict_mode")]
    cases += [
        ("a long head for the map", bytes([0xB8, n]) + canonical[1:]),
        ("indefinite-length map", bytes([0xBF]) + canonical[1:] + b"\xff"),
        ("a trailing byte", canonical + b"\x00"),
        ("a float", canonical.replace(encode("strict_mode") + b"\xf5",
                                      encode("strict_mode") + b"\xf9\x3c\x00")),
        ("truncated", canonical[:-1]),
    ]
    return cases


@pytest.mark.parametrize(("what", "leaf"), _not_cbor(), ids=[w for w, _ in _not_cbor()])
def test_leaves_that_are_not_por_cbor(what: str, leaf: bytes) -> None:
    """Not por-cbor/1 (§2): invalid on both sides at every form index (won
    one_step.invalid_record by the envelope, the chain's family never reverting)."""
    assert not py_valid(leaf), what
    for j in (0, 1, 2, 2**64 - 1):
        assert prompt_form(leaf, j) == (False, False, b""), (what, j)
    assert agree_proof(leaf, 0, 3, JUNK) == "one_step.invalid_record"
    assert agree_proof(leaf, 1, 3, JUNK) == "one_step.invalid_record"


LONG = [(w, size, n) for w in (1, 2, 3, 4) for size, n in ((23, 8), (24, 8), (255, 1),
                                                             (256, 1), (1000, 1), (0, 1))]


@pytest.mark.parametrize(("width", "size", "n"), LONG)
def test_long_texts_of_every_width(width: int, size: int, n: int) -> None:
    """Valid PromptSpecs whose texts F hashes or skips are ``size`` bytes of
    ``width``-byte code points (ids cut at 128 characters; size 0: the longest under the
    8 192-byte cap): F byte for byte at every j."""
    leaf = encode(long_texts(width, size, n) if size else longest(width, n))
    assert py_valid(leaf), (width, size, n)
    assert {agree_form(leaf, j) for j in range(n + 2)} <= {"form", "none"}
    assert agree_form(leaf, 0) == "form"


def _tx_gas(leaf: bytes, j: int) -> tuple[int, str]:
    """The whole transaction's gas (21 000 + call data + the envelope's check) of form
    ``j``'s honest FormProof on scenario 08 with PromptSpec ``leaf``, and its answer."""
    from eth_abi.abi import encode as abi_encode

    bundle = recommit(honest("08-quorum-agree"), prompt_spec=leaf)
    proof = build_form_proof(bundle, j).to_cbor()
    got, gas = check_call(proof)
    assert not isinstance(got, str)
    data = selector("check(bytes)") + abi_encode(["bytes"], [proof])
    return 21_000 + calldata_gas(data) + gas, got[1]


@pytest.mark.parametrize(("shape", "j"), [(DENSE_COMMON, 0), (DENSE_REQUIREMENT, 8)])
def test_the_most_item_dense_valid_prompt_specs(shape: tuple[int, int, int, int],
                                                j: int) -> None:
    """The valid PromptSpecs at §4's caps with the most items s44 found (short ids, value
    maps, 64 rules): F agrees at every form; the honest FormProof of the costliest form
    is lost form.match in one transaction under 3 000 000 gas (the largest step's target)."""
    leaf = encode(dense(*shape))
    assert py_valid(leaf) and len(leaf) <= 8192
    assert {agree_form(leaf, k) for k in range(_r(leaf) + 1)} == {"form"}
    gas, answer = _tx_gas(leaf, j)
    print(f"dense {shape}: {len(leaf)} B, formAt({j}) {prompt_gas(leaf, j):,}, tx {gas:,}")
    assert answer == "form.match" and gas < 3_000_000
