"""``contracts/src/forms/PorForms.sol``: the bounds-checked form readers and the forms
inclusion (ADR 0017 decision 5, draft §1 and §3; s39 ``aggform``).

Every honest encoding of ``por.forms.words`` reads back; every malformation the draft's
``proof.form`` names reverts ``ProofForm()`` (a length past the end, non-zero padding,
a non-digit byte, a decimal word breaking §1's rules, a presence, boolean or enum word
out of range, an integer word at or above 2^64), never a read of zeros; a fixture
bundle's forms are included under its 7-component ``por_root`` and a changed form is not.
"""

from __future__ import annotations

import hashlib
from decimal import Decimal
from typing import Any

import pytest
from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from forms_harness import call, deploy, forms_root_of, selector
from forms_reader_cases import BAD_DECIMALS, BAD_TEXTS, DECIMALS, TEXTS, WORD_CASES
from scratch_harness import SOLC

from por.forms.words import D, T, W
from por.signing.eip712 import keccak256

pytestmark = SOLC

PROBE = """// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;
import {PorForms as F} from "./PorForms.sol";
import {PorFormsDecimal as D} from "./PorFormsDecimal.sol";
contract FormsProbe {
    function d(bytes calldata f) external pure returns (bool, uint256, uint256, uint256, uint256) {
        (bool n, uint256 s, uint256 l, uint256 p, uint256 nx) = D.readD(f, 0);
        return (n, s, l, D.magnitude(p, l), nx);
    }
    function t(bytes calldata f) external pure returns (bytes memory out, uint256 nx) {
        (uint256 p, uint256 l, uint256 n) = F.readT(f, 0);
        out = new bytes(l);
        assembly { calldatacopy(add(out, 32), p, l) }
        nx = n;
    }
    function w(bytes calldata f, uint256 i) external pure returns (uint256) { return F.word(f, i); }
    function o(bytes calldata f, uint256 max) external pure returns (bool, uint256, uint256) {
        return F.readO(f, 0, max);
    }
    function l(bytes calldata f) external pure returns (uint256, uint256) { return F.readL(f, 0); }
    function e(bytes calldata f, uint256 n) external pure returns (uint256, uint256) {
        return F.readE(f, 0, n);
    }
    function ww(bytes calldata f) external pure returns (uint256, uint256) { return F.readW(f, 0); }
    function tag(bytes calldata f, uint256 t_) external pure returns (uint256) {
        return F.open(f, t_);
    }
    function st(bytes calldata f, uint256 i, uint256 r, uint256 n) external pure returns (uint256) {
        return F.stepTag(f, i, r, n);
    }
    function inc(bytes32 root, uint256 size, bytes32[] calldata cp, bytes[] calldata fs,
                 uint256[] calldata ix, bytes32[][] calldata ps) external view returns (bool) {
        F.include(root, size, cp, fs, ix, ps);
        return true;
    }
}
"""


def probe(signature: str, types: list[str], args: list[object]) -> bytes | str:
    out, _gas = call(deploy("FormsProbe", PROBE), selector(signature) + abi_encode(types, args))
    return out


def read_d(form: bytes) -> bytes | str:
    return probe("d(bytes)", ["bytes"], [form])


@pytest.mark.parametrize("text", DECIMALS)
def test_honest_decimals_read(text: str) -> None:
    form = D(text)
    out = read_d(form)
    assert isinstance(out, bytes)
    types = ["bool", "uint256", "uint256", "uint256", "uint256"]
    neg, scale, length, mag, nxt = abi_decode(types, out)
    digits = text.lstrip("-").replace(".", "").lstrip("0") or "0"
    assert (neg, length, mag, nxt) == (text.startswith("-"), len(digits), int(digits), len(form))
    assert scale == (len(text.split(".")[1]) if "." in text else 0)


@pytest.mark.parametrize("name", sorted(BAD_DECIMALS))
def test_malformed_decimals_are_proof_form(name: str) -> None:
    assert read_d(BAD_DECIMALS[name]) == "proof.form"


@pytest.mark.parametrize("text", TEXTS)
def test_texts_read(text: str) -> None:
    form = T(text)
    out = probe("t(bytes)", ["bytes"], [form])
    assert isinstance(out, bytes)
    data, nxt = abi_decode(["bytes", "uint256"], out)
    assert (data, nxt) == (text.encode(), len(form))


@pytest.mark.parametrize("form", BAD_TEXTS)
def test_malformed_texts_are_proof_form(form: bytes) -> None:
    assert probe("t(bytes)", ["bytes"], [form]) == "proof.form"


#: Python's reader -> the probe's function.
PROBES = {"word": "w(bytes,uint256)", "read_o": "o(bytes,uint256)", "read_l": "l(bytes)",
          "read_e": "e(bytes,uint256)", "read_w": "ww(bytes)", "open_form": "tag(bytes,uint256)"}


def words(signature: str, form: bytes, *extra: int) -> tuple[object, ...] | str:
    """``signature``'s decoded uint/bool results on ``form`` (and ``extra``), or the revert."""
    types = ["bytes"] + ["uint256"] * len(extra)
    out = probe(signature, types, [form, *extra])
    if isinstance(out, str):
        return out
    width = 3 if signature.startswith("o(") else 1 if signature[:2] in ("w(", "ta") else 2
    kinds = ["bool", "uint256", "uint256"] if width == 3 else ["uint256"] * width
    return tuple(abi_decode(kinds, out))


@pytest.mark.parametrize("case", WORD_CASES, ids=lambda c: f"{c[0]}-{c[1].hex()[-8:]}")
def test_words_options_lists_enums(case: tuple[str, bytes, int | None, object]) -> None:
    reader, form, extra, answer = case
    args = () if extra is None else (extra,)
    assert words(PROBES[reader], form, *args) == answer


def test_step_tag() -> None:
    """``stepTag``: a step's form at a step index (``1 + r`` .. ``size - 2``) with a
    step's tag (EXTRACT .. MAP), else ``proof.form``."""
    def tag(form: bytes, index: int, r: int = 2, size: int = 10) -> object:
        out = probe("st(bytes,uint256,uint256,uint256)", ["bytes"] + ["uint256"] * 3,
                    [form, index, r, size])
        return out if isinstance(out, str) else abi_decode(["uint256"], out)[0]

    for t in range(3, 9):
        assert tag(W(t) + W(0), 3) == t
        assert tag(W(t) + W(0), 8) == t
    assert tag(W(3), 2) == "proof.form"  # a requirement's index
    assert tag(W(3), 9) == "proof.form"  # the verdict's
    for t in (1, 2, 9, 10):
        assert tag(W(t), 5) == "proof.form"
    assert tag(W(3)[:31], 5) == "proof.form"


def test_inclusion_of_a_fixture_bundle() -> None:
    from bundle_edits import honest

    bundle = honest("08-quorum-agree")
    committed = forms_root_of(bundle)
    # the harness's forms and por_root are the bundle's own (por.Bundle/2, SPEC §5.4)
    assert committed.por_root == bundle.commitments.por_root
    assert committed.forms.root == bundle.commitments.forms_root
    assert [f.leaf for f in committed.forms.forms] == list(bundle.forms)
    forms = committed.forms.forms
    chosen = [0, 1, len(forms) - 1]
    args = [committed.por_root, committed.forms.size, committed.component_path,
            [forms[i].form for i in chosen], chosen, [committed.path(i) for i in chosen]]
    types = ["bytes32", "uint256", "bytes32[]", "bytes[]", "uint256[]", "bytes32[][]"]
    sig = "inc(bytes32,uint256,bytes32[],bytes[],uint256[],bytes32[][])"
    assert abi_decode(["bool"], probe(sig, types, args)) == (True,)
    args[3] = [forms[0].form, forms[1].form + bytes(32), forms[-1].form]
    assert probe(sig, types, args) == "revert:" + selector("FormsInclusion(uint256)").hex()
    args[3] = [forms[i].form for i in chosen]
    args[0] = bytes(32)
    assert probe(sig, types, args) == "revert:" + selector("FormsPorRoot()").hex()


# ------------------------------------------------- reads at call data positions (s40 fold)

POSITIONS = """// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;
import {PorForms as F} from "./PorForms.sol";
import {PorFormsDecimal as D} from "./PorFormsDecimal.sol";
import {PorDecimal} from "../PorDecimal.sol";
contract PositionsProbe {
    function _span(bytes calldata f) private pure returns (uint256 p, uint256 end) {
        p = F.pos(f);
        end = p + f.length;
    }
    function tEnd(bytes calldata f) external pure returns (uint256, uint256) {
        (uint256 p, uint256 end) = _span(f);
        uint256 q = F.tEnd(p, end);
        return (q - p, F.tSize(p));
    }
    function vEnd(bytes calldata f, uint256 kind) external pure returns (uint256, uint256) {
        (uint256 p, uint256 end) = _span(f);
        return (F.vEnd(kind, p, end) - p, F.vSize(kind, p));
    }
    function word(bytes calldata f, uint256 how, uint256 o, uint256 x)
        external pure returns (uint256)
    {
        (uint256 p, uint256 end) = _span(f);
        if (how == 0) return F.wordAt(p + o, end);
        if (how == 1) return F.intAt(p + o, end);
        if (how == 2) return F.codeAt(p + o, end, x);
        return F.countAt(p + o, end, x);
    }
    function opt(bytes calldata f) external pure returns (bool, uint256) {
        (uint256 p, uint256 end) = _span(f);
        return F.optAt(p, end);
    }
    function claim(bytes calldata f) external pure returns (uint256) {
        return F.claimValue(F.pos(f)) - F.pos(f);
    }
    function texts(bytes calldata a, bytes calldata b)
        external view returns (bool, bytes32, bytes32)
    {
        F.tEnd(F.pos(a), F.pos(a) + a.length);
        F.tEnd(F.pos(b), F.pos(b) + b.length);
        return (F.sameT(F.pos(a), F.pos(b)), F.hashT(F.pos(a)), F.keccakT(F.pos(a)));
    }
    function dec(bytes calldata f)
        external pure returns (uint256, bool, uint256, uint256, bool, uint256, uint256)
    {
        (uint256 p, uint256 end) = _span(f);
        uint256 next = D.dEnd(p, end) - p;
        PorDecimal.Dec memory x = D.decAt(p);
        (PorDecimal.Dec memory y, uint256 n) = D.readDec(f, 0);
        require(n == next && y.neg == x.neg && y.lo == x.lo && y.scale == x.scale);
        (bool neg, uint256 scale, uint256 len,) = D.dAt(p);
        require(neg == x.neg && scale == x.scale);
        return (next, x.neg, x.lo, x.scale, neg, scale, len);
    }
    function cmp(bytes calldata a, bytes calldata b) external pure returns (int256) {
        D.dEnd(F.pos(a), F.pos(a) + a.length);
        D.dEnd(F.pos(b), F.pos(b) + b.length);
        return D.cmpDecimal(F.pos(a), F.pos(b));
    }
}
"""


def at(signature: str, types: list[str], args: list[object], out: list[str]
       ) -> tuple[Any, ...] | str:
    """``PositionsProbe``'s decoded answer, or its revert."""
    data, _gas = call(deploy("PositionsProbe", POSITIONS),
                      selector(signature) + abi_encode(types, args))
    return data if isinstance(data, str) else tuple(abi_decode(out, data))


def ends(value: bytes, kind: int) -> tuple[Any, ...] | str:
    """(``vEnd``, ``vSize``) of the value of ``kind`` at 0, or the revert."""
    return at("vEnd(bytes,uint256)", ["bytes", "uint256"], [value, kind], ["uint256"] * 2)


TEXTS = ["", "a", "ab", "x" * 31, "y" * 32, "z" * 33, "€uro"]
BAD_TEXTS = [W(3) + b"ab" + b"\x00" * 29 + b"\x01", W(2) + b"ab" + b"\x00" * 29 + b"\x01",
             W(6) + b"abcdef" + b"\x00" * 25 + b"\x01", W(33) + b"a" * 32,
             (2**64).to_bytes(32, "big") + bytes(32), W(1), b"\x00" * 31]


@pytest.mark.parametrize("text", TEXTS)
def test_texts_at_positions(text: str) -> None:
    """``tEnd`` ends a text where ``readT`` does; ``tSize``, ``sameT``, ``hashT``,
    ``keccakT`` on it; ``vEnd``/``vSize`` of a text value."""
    form = T(text)
    assert at("tEnd(bytes)", ["bytes"], [form], ["uint256", "uint256"]) == (len(form), len(form))
    assert ends(form, 3) == (len(form),) * 2
    for other in [*TEXTS, "ba", "x" * 30 + "w", "z" * 32 + "a"]:  # same lengths, other bytes
        same, sha, kec = at("texts(bytes,bytes)", ["bytes", "bytes"], [form, T(other)],
                            ["bool", "bytes32", "bytes32"])
        assert (same, sha, kec) == (other == text, hashlib.sha256(text.encode()).digest(),
                                    keccak256(form))


@pytest.mark.parametrize("form", BAD_TEXTS)
def test_malformed_texts_at_positions(form: bytes) -> None:
    assert at("tEnd(bytes)", ["bytes"], [form], ["uint256", "uint256"]) == "proof.form"
    assert ends(form, 3) == "proof.form"


@pytest.mark.parametrize("text", DECIMALS)
def test_decimals_at_positions(text: str) -> None:
    form = D(text)
    digits = text.lstrip("-").replace(".", "").lstrip("0") or "0"
    scale = len(text.split(".")[1]) if "." in text else 0
    neg = text.startswith("-")
    assert at("dec(bytes)", ["bytes"], [form], ["uint256", "bool", "uint256", "uint256", "bool",
                                                "uint256", "uint256"]) == (
        len(form), neg, int(digits), scale, neg, scale, len(digits))
    assert ends(form, 1) == (len(form),) * 2
    for other in DECIMALS:
        expected = (Decimal(text) > Decimal(other)) - (Decimal(text) < Decimal(other))
        got = at("cmp(bytes,bytes)", ["bytes", "bytes"], [form, D(other)], ["int256"])
        assert got == (expected,), (text, other)


@pytest.mark.parametrize("name", sorted(BAD_DECIMALS))
def test_malformed_decimals_at_positions(name: str) -> None:
    form = BAD_DECIMALS[name]
    assert at("dec(bytes)", ["bytes"], [form], ["uint256"] * 7) == "proof.form"
    assert ends(form, 1) == "proof.form"


def test_words_at_positions() -> None:
    def word(form: bytes, how: int, o: int = 0, x: int = 0) -> tuple[Any, ...] | str:
        return at("word(bytes,uint256,uint256,uint256)", ["bytes"] + ["uint256"] * 3,
                  [form, how, o, x], ["uint256"])

    assert word(W(1) + W(2), 0, 32) == (2,)
    assert word(W(1) + W(2), 0, 64) == "proof.form"
    assert word(W(1) + W(2)[:31], 0, 32) == "proof.form"
    assert word((2**64 - 1).to_bytes(32, "big"), 1) == (2**64 - 1,)
    assert word((2**64).to_bytes(32, "big"), 1) == "proof.form"
    assert word(W(3), 2, 0, 3) == (3,)
    assert word(W(4), 2, 0, 3) == "proof.form"
    assert word(W(2) + W(0) + W(0), 3, 0, 1) == (2,)
    # the count's bound takes the words from the count word on (the check executor's)
    assert word(W(3) + W(0) + W(0), 3, 0, 1) == (3,)
    assert word(W(4) + W(0) + W(0), 3, 0, 1) == "proof.form"
    assert word(W(1) + W(0) + W(0), 3, 0, 2) == (1,)
    assert word(W(2) + W(0) + W(0), 3, 0, 2) == "proof.form"
    for form, value in ((W(0) + W(0), (False, 0)), (W(1) + W(5), (True, 5))):
        assert at("opt(bytes)", ["bytes"], [form], ["bool", "uint256"]) == value
    for bad in (W(0) + W(1), W(2) + W(0), W(1), W(1) + (2**64).to_bytes(32, "big")):
        assert at("opt(bytes)", ["bytes"], [bad], ["bool", "uint256"]) == "proof.form"
    for kind, value, size in ((0, W(1), 32), (2, W(7), 32)):
        assert ends(value, kind) == (size, size)
    assert ends(W(2), 0) == "proof.form"
    assert ends(W(2)[:31], 2) == "proof.form"
    for text in TEXTS:  # H(key) E(kind) T(claim_id) V: the value's offset
        assert at("claim(bytes)", ["bytes"], [W(9) + W(1) + T(text) + D("1")], ["uint256"]) == (
            64 + len(T(text)),)

