"""Issue 11, items 2-6: fail-fast validation, the bundle's work budget, the
signature layout, the regex work budget and ``build`` refusing what a verifier
refuses (SPEC §17).

Fail-fast is asserted on what pydantic is asked to report: at most a handful
of errors for inputs that used to materialise one error object (1-7 KB) per item.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from por.auditor.claim_extraction import REGEX_WORK_PER_BYTE, REGEX_WORK_SLACK, extract_item
from por.auditor.regex_syntax import measure
from por.bundle import Bundle, compute_commitments, with_forms
from por.challenge import build_one_step_proof, check_proof
from por.encoding import decode, encode
from por.errors import PorError
from por.protocol.budget import (
    MAX_BUNDLE_ITEMS,
    MAX_SIGNATURES,
    add_signature,
    check_buildable,
    check_signature_layout,
    decode_bundle,
    max_steps_for,
)
from por.scenarios import load_scenario
from por.schemas import DataRequirement, EvidenceItem, FieldSpec, ReasoningStep
from verifier import check_bundle

ROOT = Path(__file__).resolve().parents[3]
VALID = ROOT / "fixtures" / "bundles" / "valid" / "01-boolean-observed.cbor"
SIGNED = ROOT / "fixtures" / "bundles" / "valid" / "01-boolean-observed.signed-secp256k1.cbor"
MIB = 1 << 20


@pytest.fixture
def errors_reported(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many errors each pydantic ValidationError held (0 if pydantic never failed)."""
    from por.schemas import base

    counts: list[int] = []
    original = base.schema_error_from

    def counting(name: str, exc: Any) -> Any:
        counts.append(exc.error_count())
        return original(name, exc)

    monkeypatch.setattr(base, "schema_error_from", counting)
    return counts


def fails_fast(fn: Callable[[], Any], counts: list[int]) -> str:
    counts.clear()
    with pytest.raises(PorError) as info:
        fn()
    assert all(count <= 5 for count in counts), counts
    return info.value.check_id


def first(data: bytes) -> tuple[str, str | None]:
    report = check_bundle(data, now=1_767_225_601)
    failure = report.first_failure
    return report.status, None if failure is None else failure.check_id


def rebuild(bundle: Bundle, *, fix_verdict: bool = False, **parts: Any) -> bytes:
    from por.schemas import DeterministicVerdict

    records = {k: getattr(bundle, k) for k in ("manifest", "prompt_spec", "evidence",
                                                "trace_header", "steps", "verdict")}
    records.update(parts)
    if fix_verdict:
        c = compute_commitments(**records)
        records["verdict"] = DeterministicVerdict.from_cbor(records["verdict"]).model_copy(
            update={"evidence_root": c.evidence_root, "evidence_count": c.evidence_count,
                    "reasoning_root": c.reasoning_root,
                    "reasoning_count": c.reasoning_count}).to_cbor()
    records = with_forms({**records, "forms": parts.get("forms")})
    return bundle.model_copy(update={**records,
                                     "commitments": compute_commitments(**records)}).to_cbor()


# --- item 2: one error per record --------------------------------------------------------

STEP = {"schema": "por.ReasoningStep/1", "step_id": "step_0001", "step_type": "extract",
        "description": "", "evidence_ids": [], "prior_step_ids": [], "inputs": {}}


@pytest.mark.parametrize(("value", "check_id"), [
    ({**STEP, "output": {"claims": [b""] * 100_000}}, "schema.type"),
    ({**STEP, "output": {"claims": [{f"k{i}": b""} for i in range(10_000)]}}, "schema.type"),
    ({**STEP, "output": {}, "evidence_ids": [""] * 100_000}, "schema.value"),
    ({**STEP, "output": {}, "evidence_ids": list(range(100_000))}, "schema.type"),
    ({**STEP, "output": {}, "evidence_ids": ["x" * 200] * 100_000}, "schema.value"),
    ({**STEP, "output": {}, **{f"x{i:06d}": 0 for i in range(10_000)}}, "schema.extra_field"),
])
def test_an_ill_typed_step_costs_one_error(value: dict[str, Any], check_id: str,
                                           errors_reported: list[int]) -> None:
    data = encode(value)
    # Each is over the step item cap (SPEC §17.1), so the record is refused at decode;
    # the validator still fails fast on the decoded value (a step under the cap with
    # long strings, or a JSON form, reaches it).
    assert fails_fast(lambda: ReasoningStep._from_value(decode(data), None),
                      errors_reported) == check_id
    assert fails_fast(lambda: ReasoningStep.from_cbor(data), errors_reported) == (
        "codec.too_large")


def test_an_ill_typed_bundle_list_costs_one_error(errors_reported: list[int]) -> None:
    value = Bundle.from_cbor(VALID.read_bytes()).to_dict()
    value["steps"] = list(range(24)) * 10_000
    data = encode(value)
    assert fails_fast(lambda: Bundle.from_cbor(data), errors_reported) == "schema.type"
    assert first(data) == ("rejected", "schema.type")


def test_an_ill_typed_proof_costs_one_error(errors_reported: list[int]) -> None:
    from por.challenge.records import OneStepProof

    bundle = Bundle.from_cbor(VALID.read_bytes())
    proof = build_one_step_proof(bundle, 0).to_dict()
    proof["evidence"] = list(range(24)) * 10_000
    data = encode(proof)
    assert fails_fast(lambda: OneStepProof.from_cbor(data), errors_reported) == "schema.type"
    assert check_proof(data).status == "invalid"


# --- item 3: counts before records ---------------------------------------------------------

def test_step_budget_is_checked_before_steps_are_parsed() -> None:
    bundle = Bundle.from_cbor(VALID.read_bytes())
    limit = max_steps_for(len(bundle.evidence), 1)
    junk = [b"\xff"] * (limit + 1)  # not even CBOR: never decoded
    assert first(rebuild(bundle, steps=junk)) == ("rejected", "bundle.step_budget")


def test_forged_steps_are_decoded_only_where_they_differ() -> None:
    bundle = Bundle.from_cbor(VALID.read_bytes())
    forged = encode({**STEP, "output": {"claims": [{}] * 200_000}})
    data = rebuild(bundle, steps=[forged, *bundle.steps[1:]])
    status, check_id = first(data)
    assert status == "rejected"
    assert check_id == "commit.verdict_refs"  # the verdict still names the old steps


def test_the_bundle_item_cap_is_charged_at_container_heads() -> None:
    value = Bundle.from_cbor(VALID.read_bytes()).to_dict()
    value["steps"] = [b""] * (MAX_BUNDLE_ITEMS + 1)
    with pytest.raises(PorError) as info:
        decode_bundle(encode(value), max_size=1 << 30)
    assert info.value.check_id == "codec.too_large"


# --- item 4: signatures ------------------------------------------------------------------

def test_signature_layout() -> None:
    sig = Bundle.from_cbor(SIGNED.read_bytes()).signatures[0]
    check_signature_layout([sig])
    for sigs, check_id in (([sig] * (MAX_SIGNATURES + 1), "bundle.signature_count"),
                           ([sig, sig], "bundle.signature_duplicate"),
                           ([sig + b"\x00"], "codec.trailing_bytes"),
                           ([encode({"signer": 1})], "schema.type")):
        with pytest.raises(PorError) as info:
            check_signature_layout(sigs)
        assert info.value.check_id == check_id
    with pytest.raises(PorError) as info:
        add_signature([sig], sig)
    assert info.value.check_id == "bundle.signature_duplicate"


# --- item 5: regex work per evidence byte ----------------------------------------------------

def _html_item(body: bytes, fields: list[FieldSpec]) -> tuple[DataRequirement, EvidenceItem]:
    scenario = load_scenario("14-html-regex")
    requirement = DataRequirement.model_validate({
        **scenario.prompt_spec.data_requirements[0].model_dump(), "expected_fields": fields})
    item = EvidenceItem.model_validate({**scenario.evidence.items[0].model_dump(),
                                        "content": body})
    return requirement, item


def test_regex_work_budget_refuses_fields_past_it() -> None:
    # Cost 10 units per byte: seven fields fit in 72 units per byte, not eight (eight
    # fields at most, SPEC §4.2).
    fields = [FieldSpec(key=f"f{i:02d}", kind="text", regex=r"([ab]{9}c)") for i in range(8)]
    body = b"ab" * 100_000
    requirement, item = _html_item(body, fields)
    warnings = extract_item(requirement, item).warnings
    budget = REGEX_WORK_PER_BYTE * len(body) + REGEX_WORK_SLACK
    spent = [w.check_id for w in warnings]
    assert spent == ["extract.field_missing"] * 7 + ["extract.regex_budget"]
    # Every field that ran was charged its cost x scanned bytes, within the budget.
    assert 7 * measure(r"([ab]{9}c)").cost * len(body) <= budget


#: A results page of about 200 KB, shaped like a real one (issue 23 item 4).
PAGE_ROW = (b'<tr class="row"><td class="team">Team %05d</td><td class="score">%d</td>'
            b'<td class="odds">1.%02d</td></tr>\n')


def test_two_locators_resolve_on_a_200_kb_page() -> None:
    """por-auditor/1 charged RE2 instructions: the price locator below alone is 66
    instructions, over the 64 per byte it allowed, so a 200 KB page gave
    ``extract.regex_budget`` and the market went INVALID.  Its cost is now 7
    (width 6), and a second locator of cost 3 fits too."""
    rows = b"".join(PAGE_ROW % (i, i % 7, i % 100) for i in range(2000))
    body = (b"<html><body><table>" + rows + b"</table>"
            b'<span class="last-price" data-symbol="BTC-USD">$101.50</span>'
            b'<i id="at">1600</i></body></html>')
    assert len(body) >= 200_000
    price = r'<span class="last-price" data-symbol="BTC-USD">\$?([0-9,.]+)</span>'
    fields = [FieldSpec(key="price", kind="numeric", regex=price),
              FieldSpec(key="at", kind="timestamp", regex=r'<i id="at">([0-9]+)<')]
    requirement, item = _html_item(body, fields)
    found = extract_item(requirement, item)
    assert [(c.key, c.value) for c in found.claims] == [("price", "101.5"), ("at", 1600)]
    assert found.warnings == ()
    assert [measure(f.regex or "").cost for f in fields] == [7, 3]


# --- item 6: build refuses what verify refuses -------------------------------------------------

def test_build_refuses_records_over_the_caps() -> None:
    small = {"trace_header": b"\xa0", "verdict": b"\xa0", "steps": [b"\xa0"]}
    check_buildable(small, 10, max_size=10)
    with pytest.raises(PorError) as info:
        check_buildable(small, 11, max_size=10)
    assert info.value.check_id == "codec.too_large"
    deep = b"\x81" * 40 + b"\x80"
    with pytest.raises(PorError) as info:
        check_buildable({**small, "steps": [b"\xa0", deep]}, 10, max_size=10)
    assert (info.value.check_id, info.value.message.split(":")[0]) == (
        "codec.depth", "step 2 would be refused by a verifier")
    huge = b"\x5a" + (65 * MIB).to_bytes(4, "big") + bytes(65 * MIB)
    with pytest.raises(PorError) as info:
        check_buildable({**small, "steps": [huge]}, 10, max_size=1 << 30)
    assert info.value.check_id == "codec.too_large"


def test_cli_build_refuses_a_bundle_over_the_cap(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from por.cli import main

    build_module = importlib.import_module("por.bundle.build")  # not the build() function

    markets = ROOT / "fixtures" / "markets" / "01-boolean-observed"
    monkeypatch.setattr(build_module, "DEFAULT_BUNDLE_MAX_SIZE", 1000)  # a tiny verifier cap
    out = tmp_path / "b.cbor"
    code = main(["build", "--prompt-spec", str(markets / "prompt_spec.json"),
                 "--evidence", str(markets / "evidence.json"), "-o", str(out)])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""
    assert captured.err.startswith("por: codec.too_large: the bundle would be larger")
    assert captured.err.count("\n") == 1  # one line
    assert not out.exists()  # nothing written


def test_replay_stops_at_the_first_forged_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many items with forged steps of the right count: one item is audited, not all."""
    from por.auditor import agent
    from por.schemas import TraceHeader

    bundle = Bundle.from_cbor(VALID.read_bytes())
    item = EvidenceItem.from_cbor(bundle.evidence[0])
    items = [item.model_copy(update={"evidence_id": f"e{i}"}).to_cbor() for i in range(300)]
    count = 300 + 30 + 1 + 3  # extracts, 30 check chunks, the aggregate, 3 more (SPEC §12.5)
    header = TraceHeader.from_cbor(bundle.trace_header).model_copy(
        update={"step_count": count}).to_cbor()
    data = rebuild(bundle, evidence=items, steps=[b"\x00"] * count, trace_header=header,
                   fix_verdict=True)
    calls: list[str] = []
    original = agent.extract_step

    def counting(*args: Any) -> Any:
        calls.append("x")
        return original(*args)

    monkeypatch.setattr(agent, "extract_step", counting)
    report = check_bundle(data)
    assert report.first_failure is not None
    assert report.first_failure.check_id == "schema.type"  # step 1's record, not a step
    assert len(calls) == 1


def test_step_count_is_checked_before_the_audit() -> None:
    bundle = Bundle.from_cbor(VALID.read_bytes())
    data = rebuild(bundle, steps=[*bundle.steps, bundle.steps[-1]])
    # The trace header still says the old count: bundle.step_count first.
    assert first(data) == ("rejected", "bundle.step_count")
