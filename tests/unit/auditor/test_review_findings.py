"""Findings of the adversarial review of the value forms, predicates and
por-auditor/2 extraction (one test per finding, named after it)."""

from __future__ import annotations

import pytest

from por.auditor.csv_body import CsvError, parse_csv

MIB = 1 << 20


@pytest.mark.parametrize("body", [
    '"x"\n' + "a" * MIB + "\r",  # a lone CR after a long unquoted cell
    '"' + "a" * MIB + '"x',  # text after a closing quote, after a long quoted cell
    'a,b\n"c",' + "d" * MIB + '"',  # a quote at the end of a long unquoted cell
])
def test_csv_misplaced_quote_or_cr_is_refused_in_one_pass(body: str) -> None:
    """Finding: the quoted-CSV scan (``findall``) restarted at every character of a
    run that no cell + terminator pair tiles, so a body whose fault sits after a long
    cell cost time quadratic in the cell (40 KB: ~40 s, against ~6 ms for an honest
    body of that size; SPEC §12.1.6 says one pass, §17 at most ~3x an honest body).
    At 1 MiB this test did not finish before the fix; it is a work bound, not a timing."""
    with pytest.raises(CsvError, match="quote inside a field"):
        parse_csv(body)


def test_k_of_n_with_k_above_n_is_not_no() -> None:
    """Finding: with ``sources_required`` k above the n source targets, "NO iff more
    than n - k fail" held for any votes (n - k < 0), so three sources all reading 79
    under a ``< 80`` market resolved NO.  k > n cannot be decided: insufficient."""
    from test_predicates import _bodies, _run, _spec

    spec = _spec("67-two-of-three-below", sources_required=4)
    evidence = _bodies("67-two-of-three-below", {"close": 79}, {"close": 79}, {"close": 79})
    outcome, deduce = _run(spec, evidence)
    assert (outcome, deduce["metric_status"]) == ("INVALID", "votes_undecided")


def _spec_section(title: str) -> str:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "SPEC.md").read_text(encoding="utf-8")
    start = text.index(title)
    return text[start:text.index("\n#### ", start + 1)]


@pytest.mark.parametrize(("body", "rule"), [
    ("a,b\n" + "1,2\n" * (MIB // 2), 1),  # more than 2^20 cells
    ('a,b\r\n1,x"y\r\n', 2),  # a quote inside an unquoted field
    ('a,b\r\n"1",2\r\n"3"x,4\r\n', 2),  # text after a closing quote
    ('a,b\r\n"1,2\r\n', 2),  # an unterminated quote
    ("a,b\r\n1\r2,3\r\n", 2),  # a CR alone outside quotes
    ("a,b\r\n1,2,3\r\n", 3),  # a record of another width
    ("a,a\r\n1,2\r\n", 4),  # a repeated header name
    ("", 4),  # an empty body: one empty header name
    ('a,a\r\n1,2,3\r\n"x', 2),  # several faults: the first rule of SPEC's order
    ("a,a\r\n1,2,3\r\n", 3),
])
def test_bad_csv_commits_a_message_spec_states(body: str, rule: int) -> None:
    """Finding: ``extract.bad_csv`` committed the parser's message (``str(exc)``), one
    of four texts SPEC §12.1.6 did not state, chosen by an order it did not state,
    so a second implementer could not write the step's bytes.  SPEC now lists the
    texts in the order they are checked; the committed one is the first that applies."""
    import re

    from factories import item, requirement

    from por.auditor.claim_extraction import extract_item
    from por.schemas import FieldSpec

    field = FieldSpec(key="f", kind="text", json_path="$[0].a")
    found = extract_item(requirement(fields=[field]),
                         item("e1", body.encode("utf-8"), content_type="text/csv"))
    (warning,) = found.warnings
    assert (warning.check_id, warning.key, found.claims) == ("extract.bad_csv", None, ())
    section = _spec_section("#### 12.1.6")
    rows = re.findall(r"^\| (\d) \| .* \| `([^`]+)` \|$", section, re.MULTILINE)
    assert [int(n) for n, _ in rows] == [1, 2, 3, 4]
    assert warning.message == dict(rows)[str(rule)]


def test_value_map_work_does_not_grow_with_a_long_located_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding: ``trim_casefold`` lowered the located text one Python step per
    character, for every field, before comparing it with entries of at most 256
    characters; 64 mapped fields on one 1 MB JSON string cost ~15 s, ~120x an honest
    1 MB body (SPEC §17: at most ~3x).  A text longer than every entry matches none,
    and the ASCII lowering runs in C.  Measured deterministically: the per-character
    ``ord`` calls the mapping makes are bounded by the entries, not the text."""
    import json

    from factories import item, requirement

    from por.auditor import value_forms
    from por.auditor.claim_extraction import extract_item
    from por.schemas import FieldSpec
    from por.schemas.prompt import ValueMap, ValueMapEntry

    calls = [0]

    def counting_ord(c: str) -> int:
        calls[0] += 1
        return ord(c)

    monkeypatch.setattr(value_forms, "ord", counting_ord, raising=False)
    value_map = ValueMap(normalise="trim_casefold", others="refuse",
                         entries=[ValueMapEntry(printed="YES", value="true"),
                                  ValueMapEntry(printed="NO", value="false")])
    fields = [FieldSpec(key=f"f{i}", kind="boolean", json_path="$.a", value_map=value_map)
              for i in range(8)]  # the field cap (SPEC §4.2)
    for text, claims in (("B" * MIB, 0), (" Yes\t", 8)):
        calls[0] = 0
        body = json.dumps({"a": text}).encode("utf-8")
        found = extract_item(requirement(fields=fields), item("e1", body))
        assert len(found.claims) == claims
        assert all(c.value is True for c in found.claims)
        assert calls[0] <= 8 * (3 + 2 + len(text)) if claims else calls[0] <= 8 * 5


def test_text_claims_do_not_multiply_the_item() -> None:
    """Finding (fixed by SPEC §12.1.4's cap of 256 bytes per text claim,
    ``extract.value_too_long``): 64 ``text`` fields that locate one long string
    committed it 64 times, so a 1 MB item yielded ~64 MB of claims in its extract
    step (SPEC §17: hostile input at most ~3x an honest one)."""
    import json

    from factories import item, requirement

    from por.auditor.claim_extraction import extract_item
    from por.schemas import FieldSpec

    body = json.dumps({"a": "B" * (MIB // 16)}).encode("utf-8")
    fields = [FieldSpec(key=f"f{i}", kind="text", json_path="$.a") for i in range(8)]
    found = extract_item(requirement(fields=fields), item("e1", body))
    committed = sum(len(str(c.value)) for c in found.claims)
    assert committed <= 3 * len(body)


def test_reports_and_warnings_never_hold_a_repr() -> None:
    """Final review: `teach` showed `repr(raw)` (for a CSV table, a memory address) and
    `extract.bad_csv` committed `str(exc)`; now JSON spellings or kinds, and every CSV
    refusal's committed text is one of SPEC §12.1.6's messages."""
    from por.auditor.csv_body import CSV_MESSAGES, CsvError, parse_csv
    from por.auditor.value_forms import _shown

    assert _shown(parse_csv("a,b\n1,2\n")) == "a CSV table"
    assert (_shown(None), _shown(True), _shown(3), _shown([1]), _shown({})) == (
        "null", "true", "3", "a JSON array", "a JSON object")
    for body in ('a,b\n"1"x,2\n', "a,b\n1\n", "a,a\n1,2\n"):
        with pytest.raises(CsvError) as refused:
            parse_csv(body)
        assert refused.value.message in CSV_MESSAGES
