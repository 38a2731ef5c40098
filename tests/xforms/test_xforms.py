"""The draft's forms, implemented from docs/spec-forms-draft.md alone, against forms.json.

s39: draft §6 item 22: the synthesized markets and the shapes of forms.json are compared
too (the harness only: `test_market_forms` over both lists, `test_shapes`).
"""
import json
from pathlib import Path

import cbor2
import pytest

from tests.xforms.forms_x import D, H, L, R, T, W, requirement
from tests.xforms.steps_x import LH, NoForm, form, forms_of, forms_root

VEC = json.loads((Path(__file__).parents[2] / "fixtures/vectors/forms.json").read_text())


def dec(h):
    return cbor2.loads(bytes.fromhex(h))


def z(n):
    return bytes(n)


def test_draft_examples():
    assert W(5) == z(31) + b"\x05"
    assert H("price").hex() == "683b531f41ec88a2f345b727afe59757b73162a340a65c86bba62866f8fe556c"
    assert T("ab") == W(2) + b"ab" + z(30)
    assert T("") == W(0)
    assert D("-0.25") == b"\x80\x00\x02" + z(28) + b"\x02" + b"25" + z(30)
    assert D("100") == W(3) + b"100" + z(29)
    assert D("0") == W(1) + b"0" + z(31)
    assert L(T, ["a"]) == W(1) + W(1) + b"a" + z(31)
    assert R({"a": 1, "x": 1}, {"a"}).hex() == (
        "2956b2cee8e54663cef11aac45368e3a869c862ed7a6fd2dba3a408017ce3e0e")
    for bad in ("1.50", "-0", "1e5", "01", ".5", "1.", "+1", 5):
        with pytest.raises(NoForm):
            D(bad)
    with pytest.raises(NoForm):
        W(True)
    with pytest.raises(NoForm):
        W(-1)


def test_worked_example_requirement():
    v = next(x for x in VEC["vectors"] if x["market"] == "01-boolean-observed")
    f = requirement(dec(v["prompt_spec_cbor_hex"])["data_requirements"][0])
    assert len(f) == 14 * 32
    assert LH(f).hex() == "4b24cca3cfb93c38f6f470156e100eeb7742d96df321ccf0b1ac57b0c71ae088"


@pytest.mark.parametrize("v", VEC["vectors"] + VEC["synthesized"], ids=lambda v: v["market"])
def test_market_forms(v):
    steps = [dec(s) for s in v["steps_cbor_hex"]]
    mine = forms_of(dec(v["prompt_spec_cbor_hex"]), steps, dec(v["verdict_cbor_hex"]))
    assert len(mine) == v["forms_size"] == len(v["forms"])
    for f, e in zip(mine, v["forms"], strict=True):
        assert int.from_bytes(f[:32], "big") == e["tag"], e["name"]
        assert f.hex() == e["form_hex"], e["name"]
        assert LH(f).hex() == e["leaf_hash_hex"], e["name"]
    assert forms_root(mine).hex() == v["forms_root_hex"]


@pytest.mark.parametrize("n", VEC["no_form"], ids=lambda n: n["why"])
def test_no_form(n):
    with pytest.raises(NoForm):
        form(dec(n["record_cbor_hex"]), n["requirement"])


@pytest.mark.parametrize("s", VEC["shapes"], ids=lambda s: s["why"])
def test_shapes(s):
    mine = form(dec(s["record_cbor_hex"]))
    assert mine.hex() == s["form_hex"]
    assert LH(mine).hex() == s["leaf_hash_hex"]


@pytest.mark.parametrize("e", VEC["edits"], ids=lambda e: f"{e['step_id']} {e['edit']}")
def test_edits(e):
    try:
        mine = LH(form(dec(e["record_cbor_hex"]))).hex()
    except NoForm:
        mine = None
    assert mine == e["leaf_hash_hex"]


# Layout paths forms.json does not exercise (no boolean group with `other`, no `from_leaf`,
# no `gate_reason`, no inclusivity flags): my reading of the draft, word by word.
def _market(prefix):
    v = next(x for x in VEC["vectors"] if x["market"].startswith(prefix))
    return dec(v["prompt_spec_cbor_hex"]), [dec(s) for s in v["steps_cbor_hex"]]


def test_unexercised_chunk_paths():
    _, steps = _market("08")
    s = next(x for x in steps if x["inputs"]["kind"] == "check_requirement")
    base = form(s)
    s["output"]["from_leaf"] = 3
    s["output"]["items"][0]["gate_reason"] = "g"
    s["output"]["items"][0]["reasons"] = ["gate.agent_name", "sanity.http_status"]
    ref = {"claim_id": "c", "evidence_id": "e", "value": True}
    s["output"]["groups"].append({"kind": "boolean", "key": "k", "claim_count": 2,
                                  "first": ref, "other": dict(ref, value=False)})
    f = form(s)
    # O(from_leaf) keeps its width, P[H](gate_reason) +1, two reasons (codes 7, 6) +2,
    # a boolean group with `other`
    group = (W(0) + H("k") + W(2) + H("c") + H("e") + W(1) + W(0)
             + W(1) + H("c") + H("e") + W(0) + W(0) + W(0))
    assert len(f) == len(base) + 32 * 3 + len(group)
    assert W(1) + W(3) in f
    assert W(7) + W(6) in f and W(1) + H("g") in f and group in f
    with pytest.raises(NoForm):
        s["output"]["groups"][-1]["other"]["value"] = "false"
        form(s)


def test_unexercised_inclusivity():
    spec, _ = _market("08")
    from tests.xforms.forms_x import common
    base = common(spec)
    ps = spec["prediction_semantics"]
    ps["lower_inclusive"] = False
    f = common(spec)
    assert len(f) == len(base)
    diff = [k for k in range(0, len(f), 32) if f[k:k + 32] != base[k:k + 32]]
    assert len(diff) == 1 and f[diff[0]:diff[0] + 64] == W(1) + W(0)  # O: W(1) B(false)
    with pytest.raises(NoForm):
        ps["lower_inclusive"] = 0
        common(spec)
