"""``contracts/src/forms/PorForms.sol``: the bounds-checked form readers and the forms
inclusion (ADR 0017 decision 5, draft §1 and §3; s39 ``aggform``).

Every honest encoding of ``por.forms.words`` reads back; every malformation the draft's
``proof.form`` names reverts ``ProofForm()`` (a length past the end, non-zero padding,
a non-digit byte, a decimal word breaking §1's rules, a presence, boolean or enum word
out of range, an integer word at or above 2^64), never a read of zeros; a fixture
bundle's forms are included under its 7-component ``por_root`` and a changed form is not.
"""

from __future__ import annotations

import pytest
from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from forms_harness import call, deploy, forms_root_of, selector
from scratch_harness import SOLC

from por.forms.words import D, T, W

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


DECIMALS = ["0", "1", "-1", "0.5", "-0.25", "100", "10.01", "9" * 64, "-" + "9" * 63,
            "0." + "0" * 61 + "1", "-0." + "0" * 60 + "1", "1" * 40 + "." + "2" * 23,
            "123456789012345678901234567890123", "0.000001"]


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


def _head(neg: int, scale: int, length: int) -> bytes:
    return (neg << 255 | scale << 232 | length).to_bytes(32, "big")


def _digits(s: bytes) -> bytes:
    return s + bytes(-len(s) % 32 or (32 if not s else 0))


BAD_DECIMALS = {
    "leading zero": _head(0, 0, 2) + _digits(b"05"),
    "trailing zero in a fraction": _head(0, 1, 2) + _digits(b"50"),
    "minus zero": _head(1, 0, 1) + _digits(b"0"),
    "not a digit": _head(0, 0, 2) + _digits(b"1a"),
    "a digit byte below 0": _head(0, 0, 1) + _digits(b"/"),
    "non-zero padding": _head(0, 0, 1) + b"1" + b"\x00" * 30 + b"\x01",
    "length 0": _head(0, 0, 0) + bytes(32),
    "length 65": _head(0, 0, 65) + b"1" * 65 + bytes(31),
    "scale 63": _head(0, 63, 1) + _digits(b"1"),
    "65 characters": _head(1, 0, 64) + b"1" * 64,
    "65 characters with a point": _head(0, 63 - 1, 64) + b"1" * 64,
    "bits between scale and len": (1 << 100 | 1).to_bytes(32, "big") + _digits(b"1"),
    "digits past the end": _head(0, 0, 33) + b"1" * 32,
    "no digits word": _head(0, 0, 1),
}


@pytest.mark.parametrize("name", sorted(BAD_DECIMALS))
def test_malformed_decimals_are_proof_form(name: str) -> None:
    assert read_d(BAD_DECIMALS[name]) == "proof.form"


@pytest.mark.parametrize("text", ["", "a", "ab", "x" * 31, "y" * 32, "z" * 33, "€uro"])
def test_texts_read(text: str) -> None:
    form = T(text)
    out = probe("t(bytes)", ["bytes"], [form])
    assert isinstance(out, bytes)
    data, nxt = abi_decode(["bytes", "uint256"], out)
    assert (data, nxt) == (text.encode(), len(form))


@pytest.mark.parametrize("form", [
    W(3) + b"ab" + b"\x00" * 29 + b"\x01",  # padding not zero
    W(2) + b"ab" + b"\x00" * 29 + b"\x01",  # padding not zero, an even length (s39 fix)
    W(6) + b"abcdef" + b"\x00" * 25 + b"\x01",  # the same, checkform's 6-byte evidence id
    W(33) + b"a" * 32,  # bytes past the end
    (2**64).to_bytes(32, "big") + bytes(32),  # a length past any form
    W(1),  # no bytes word
    b"\x00" * 31,  # not even a word
])
def test_malformed_texts_are_proof_form(form: bytes) -> None:
    assert probe("t(bytes)", ["bytes"], [form]) == "proof.form"


def words(signature: str, form: bytes, *extra: int) -> tuple[object, ...] | str:
    """``signature``'s decoded uint/bool results on ``form`` (and ``extra``), or the revert."""
    types = ["bytes"] + ["uint256"] * len(extra)
    out = probe(signature, types, [form, *extra])
    if isinstance(out, str):
        return out
    width = 3 if signature.startswith("o(") else 1 if signature[:2] in ("w(", "ta") else 2
    kinds = ["bool", "uint256", "uint256"] if width == 3 else ["uint256"] * width
    return tuple(abi_decode(kinds, out))


def test_words_options_lists_enums() -> None:
    assert words("w(bytes,uint256)", W(1) + W(2), 2) == "proof.form"
    assert words("w(bytes,uint256)", W(1) + W(2), 1) == (2,)
    assert words("o(bytes,uint256)", W(0) + W(0), 2**64 - 1) == (False, 0, 64)
    assert words("o(bytes,uint256)", W(1) + W(5), 2**64 - 1) == (True, 5, 64)
    for bad in (W(0) + W(1), W(2) + W(0), W(1)):
        assert words("o(bytes,uint256)", bad, 2**64 - 1) == "proof.form"
    assert words("o(bytes,uint256)", W(1) + W(2), 1) == "proof.form"
    assert words("l(bytes)", W(2) + W(0) + W(0)) == (2, 32)
    assert words("l(bytes)", W(3) + W(0) + W(0)) == "proof.form"
    assert words("e(bytes,uint256)", W(2), 3) == (2, 32)
    assert words("e(bytes,uint256)", W(3), 3) == "proof.form"
    assert words("ww(bytes)", (2**64).to_bytes(32, "big")) == "proof.form"
    assert words("tag(bytes,uint256)", W(5) + W(0), 5) == (32,)
    for bad in (W(4) + W(0), W(5)[:31], b""):
        assert words("tag(bytes,uint256)", bad, 5) == "proof.form"


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
