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
from forms_reader_cases import BAD_DECIMALS, BAD_TEXTS, DECIMALS, TEXTS, WORD_CASES
from scratch_harness import SOLC

from por.forms.words import D, T

pytestmark = SOLC

PROBE = """// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;
import {PorForms as F} from "./PorForms.sol";
contract FormsProbe {
    function d(bytes calldata f) external pure returns (bool, uint256, uint256, uint256, uint256) {
        (bool n, uint256 s, uint256 l, uint256 p, uint256 nx) = F.readD(f, 0);
        return (n, s, l, F.magnitude(p, l), nx);
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
