"""The per-item regex budget fits a market's 8 wide locators on a 200 KB page (SPEC §17.5).

Issue 23 item 4: at 10 units per byte, market 52's two cost-6 HTML locators on its
83 KB full page gave ``extract.regex_budget``.  At 72 per byte, eight locators of
cost 9 (width 8, the widest honest locators of real pages) read one 200 KB page,
and a ninth is refused; fields past width 10 cost 8x (RE2's NFA).
"""

from __future__ import annotations

from por.auditor.claim_extraction import REGEX_WORK_PER_BYTE, REGEX_WORK_SLACK, extract_item
from por.auditor.regex_syntax import measure
from por.scenarios import load_scenario
from por.schemas import DataRequirement, EvidenceItem, FieldSpec

ROW = (b'<tr class="row"><td class="team">Team %05d</td><td class="score">%d</td>'
       b'<td class="odds">1.%02d</td></tr>\n')
#: Width 8: `"` is matched by 8 positions of each locator (cost 9).
LOCATOR = r'<td class="k%d" data-a="x" data-b="y">"?([0-9]+)"?</td>'


def _page(n_fields: int) -> bytes:
    rows = b"".join(ROW % (i, i % 7, i % 100) for i in range(2000))
    cells = b"".join(b'<td class="k%d" data-a="x" data-b="y">%d</td>' % (i, 100 + i)
                     for i in range(n_fields))
    return b"<html><body><table>" + rows + b"</table><table><tr>" + cells + b"</tr></table>"


def _item(body: bytes, fields: list[FieldSpec]) -> tuple[DataRequirement, EvidenceItem]:
    scenario = load_scenario("14-html-regex")
    requirement = DataRequirement.model_validate({
        **scenario.prompt_spec.data_requirements[0].model_dump(), "expected_fields": fields})
    item = EvidenceItem.model_validate({**scenario.evidence.items[0].model_dump(),
                                        "content": body})
    return requirement, item


def test_eight_wide_locators_resolve_on_a_200_kb_page() -> None:
    body = _page(9)
    assert len(body) >= 200_000
    fields = [FieldSpec(key=f"k{i}", kind="text", regex=LOCATOR % i) for i in range(9)]
    assert {measure(f.regex or "").cost for f in fields} == {9}
    assert 8 * 9 * len(body) <= REGEX_WORK_PER_BYTE * len(body) + REGEX_WORK_SLACK
    requirement, item = _item(body, fields[:8])
    found = extract_item(requirement, item)
    assert found.warnings == ()
    assert [(c.key, c.value) for c in found.claims] == [(f"k{i}", str(100 + i)) for i in range(8)]
    # A ninth is past the field cap (SPEC §4.2); an eighth of cost 96 (width 11,
    # §12.1.2) after seven of cost 9 is past the budget, charged before it runs.
    wide = FieldSpec(key="k7", kind="text", regex="([ab]{10}a)")
    assert 7 * 9 * len(body) + 96 * len(body) > REGEX_WORK_PER_BYTE * len(body) + REGEX_WORK_SLACK
    requirement, item = _item(body, [*fields[:7], wide])
    assert [w.check_id for w in extract_item(requirement, item).warnings] == [
        "extract.regex_budget"]


def test_fields_past_width_10_cost_eight_times() -> None:
    assert measure("(abcdefghij)").cost == 2
    assert measure("([ab]{9}a)").cost == 11  # width 10
    assert measure("([ab]{10}a)").cost == 8 * 12  # width 11: RE2's DFA overflows
