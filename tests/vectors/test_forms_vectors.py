"""Chain-form vectors fixtures/vectors/forms.json (ADR 0017 stage 2, SPEC §5.6).

The committed file equals the generator's output, and its inputs (the records' exact
``por-cbor/1`` bytes) give back its forms, leaf hashes and roots through ``por.forms``:
the fixture markets', the synthesized markets' (paths no fixture market reaches) and
the shapes' (records edited to reach paths no honest build reaches).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from vector_generators import load_generator

from por.encoding import decode
from por.errors import PorError
from por.forms import form_of, forms_of
from por.merkle.hashing import leaf_hash
from por.merkle.tree import root_from_leaf_hashes

VECTORS = Path(__file__).resolve().parents[2] / "fixtures" / "vectors"
DATA: dict[str, Any] = json.loads((VECTORS / "forms.json").read_text(encoding="utf-8"))


def test_committed_file_is_the_generators_output() -> None:
    gen = load_generator("gen_forms")
    assert (VECTORS / "forms.json").read_text(encoding="utf-8") == gen.render()


def test_every_market_is_there() -> None:
    from por.scenarios import list_scenarios

    assert [v["market"] for v in DATA["vectors"]] == list_scenarios()


def test_the_synthesized_markets_are_there() -> None:
    gen = load_generator("gen_forms")
    assert [(v["market"], v["base"], v["edit"]) for v in DATA["synthesized"]] == gen.SYNTHESIZED
    fixture_roots = {v["forms_root_hex"] for v in DATA["vectors"]}
    assert not fixture_roots & {v["forms_root_hex"] for v in DATA["synthesized"]}


def test_shapes() -> None:
    assert len(DATA["shapes"]) >= 5
    for case in DATA["shapes"]:
        form = form_of(decode(bytes.fromhex(case["record_cbor_hex"])))
        assert form.hex() == case["form_hex"], case["why"]
        assert leaf_hash(form).hex() == case["leaf_hash_hex"], case["why"]


def test_forms_from_the_recorded_bytes() -> None:
    for v in DATA["vectors"] + DATA["synthesized"]:
        spec = decode(bytes.fromhex(v["prompt_spec_cbor_hex"]))
        steps = [decode(bytes.fromhex(x)) for x in v["steps_cbor_hex"]]
        verdict = decode(bytes.fromhex(v["verdict_cbor_hex"]))
        forms = forms_of(spec, steps, verdict)
        assert forms.root.hex() == v["forms_root_hex"]
        assert forms.size == v["forms_size"] == len(v["forms"])
        r = len(spec["data_requirements"])
        for j, entry in enumerate(v["forms"]):
            form = bytes.fromhex(entry["form_hex"])
            assert leaf_hash(form).hex() == entry["leaf_hash_hex"]
            assert int.from_bytes(form[:32], "big") == entry["tag"]
            if entry["record"] == "prompt_spec":
                assert form == form_of(spec, None if j == 0 else j - 1)
            elif entry["record"] == "verdict":
                assert form == form_of(verdict) and j == r + len(steps) + 1
            else:
                assert entry["record"] == f"steps[{j - 1 - r}]"
                assert form == form_of(steps[j - 1 - r])
        leaves = [bytes.fromhex(e["leaf_hash_hex"]) for e in v["forms"]]
        assert root_from_leaf_hashes(leaves).hex() == v["forms_root_hex"]


def test_no_form_records() -> None:
    assert len(DATA["no_form"]) >= 15
    for case in DATA["no_form"]:
        record = decode(bytes.fromhex(case["record_cbor_hex"]))
        try:
            form_of(record, case["requirement"])
        except PorError as exc:
            assert exc.check_id == "form.none", case["why"]
        else:
            raise AssertionError(f"{case['why']}: has a form")


def test_edits_of_the_edited_market() -> None:
    market = next(v for v in DATA["vectors"] if v["market"] == DATA["edited_market"])
    honest = {f["leaf_hash_hex"] for f in market["forms"]}
    with_form = 0
    for case in DATA["edits"]:
        record = decode(bytes.fromhex(case["record_cbor_hex"]))
        try:
            leaf = leaf_hash(form_of(record)).hex()
        except PorError as exc:
            assert exc.check_id == "form.none" and case["leaf_hash_hex"] is None, case["edit"]
            continue
        assert leaf == case["leaf_hash_hex"] and leaf not in honest, case["edit"]
        with_form += 1
    assert with_form > 100
