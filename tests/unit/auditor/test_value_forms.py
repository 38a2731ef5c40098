"""Known answers of fixtures/vectors/value_forms.json (SPEC §12.1.5-§12.1.8), through
the real extraction path, plus property tests of the value forms.

Numbers, timestamps and maps go through :func:`por.auditor.value_forms.convert`
(the hook extraction calls); CSV bodies and json_path filters through
:func:`por.auditor.claim_extraction.extract_item`, so the committed check id is
what is pinned.  Timestamps are cross-checked with :mod:`datetime` (an
independent computation of the same instants).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from factories import item, requirement
from hypothesis import given
from hypothesis import strategies as st

from por.auditor.claim_extraction import extract_item
from por.auditor.number_forms import format_number, parse_number
from por.auditor.value_forms import Refused, convert
from por.numbers import format_decimal
from por.schemas import FieldSpec
from por.schemas.prompt import NumberFormat, ValueMap, ValueMapEntry

DATA: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[3] / "fixtures" / "vectors" / "value_forms.json")
    .read_text(encoding="utf-8"))


def _expected(case: dict[str, Any]) -> object:
    return case["value"] if "value" in case else Refused(case["code"])


@pytest.mark.parametrize("case", DATA["numbers"], ids=lambda c: repr(c["text"]))
def test_number_vectors(case: dict[str, Any]) -> None:
    field = FieldSpec(key="x", kind="numeric", regex="(.*)",
                      number_format=NumberFormat(**case["format"]))
    assert convert(field, case["text"], from_text=True) == _expected(case)


@pytest.mark.parametrize("case", DATA["times"], ids=lambda c: repr(c.get("text", c.get("json"))))
def test_time_vectors(case: dict[str, Any]) -> None:
    field = FieldSpec(key="t", kind="timestamp", json_path="$.t", time_format=case["format"])
    raw = case["text"] if "text" in case else case["json"]
    assert convert(field, raw, from_text="text" in case) == _expected(case)
    if "value" in case and case["format"].startswith("rfc3339"):
        text = case["text"].replace("t", "T").replace("z", "Z").replace(" ", "T")
        parsed = datetime.fromisoformat(text if "T" in text else text + "T00:00:00+00:00")
        assert int(parsed.timestamp()) == case["value"]


@pytest.mark.parametrize("case", DATA["maps"], ids=lambda c: repr(c["text"]))
def test_value_map_vectors(case: dict[str, Any]) -> None:
    value_map = ValueMap(normalise=case["normalise"], others=case["others"],
                         entries=[ValueMapEntry(printed=p, value=v) for p, v in case["entries"]])
    if case.get("code") == "map.bad_value":  # refused by the schema (SPEC §4.2)...
        with pytest.raises(ValueError, match="spelt as the field's kind"):
            FieldSpec(key="m", kind=case["kind"], regex="(.*)", value_map=value_map)
    # ...and by extraction too, should an unvalidated record reach it.
    field = FieldSpec.model_construct(key="m", kind=case["kind"], regex="(.*)",
                                      value_map=value_map)
    assert convert(field, case["text"], from_text=True) == _expected(case)


def _extract(content: str, path: str, content_type: str) -> tuple[object, str | None]:
    field = FieldSpec(key="f", kind="text", json_path=path)
    found = extract_item(requirement(fields=[field]), item("e1", content.encode("utf-8"),
                                                          content_type=content_type))
    claim = found.claims[0].value if found.claims else None
    return claim, found.warnings[0].check_id if found.warnings else None


@pytest.mark.parametrize("case", DATA["csv"], ids=lambda c: repr(c["body"][:20]))
def test_csv_vectors(case: dict[str, Any]) -> None:
    value, warning = _extract(case["body"], case["path"], "text/csv")
    assert (value, warning) == (case.get("raw"), case.get("error"))


@pytest.mark.parametrize("case", DATA["paths"], ids=lambda c: c["path"])
def test_filter_vectors(case: dict[str, Any]) -> None:
    field = FieldSpec(key="f", kind="numeric" if isinstance(case.get("raw"), int) and not
                      isinstance(case.get("raw"), bool) else "boolean", json_path=case["path"])
    # A document with a fraction is committed as its JSON text (no float in the file).
    text = case["document_text"] if "document_text" in case else json.dumps(case["document"])
    found = extract_item(requirement(fields=[field]), item("e1", text.encode("utf-8")))
    got = (found.claims[0].value if found.claims else None,
           found.warnings[0].check_id if found.warnings else None)
    raw = case.get("raw")
    assert got == (str(raw) if isinstance(raw, int) and not isinstance(raw, bool) else raw,
                   case.get("error"))


def test_per_source_locators_pick_by_source() -> None:
    field = FieldSpec.model_validate({
        "key": "close", "kind": "numeric", "json_path": "$.close",
        "per_source": [{"source_id": "src_b", "json_path": "$.data[0].c"}]})
    req = requirement(fields=[field])
    a = extract_item(req, item("e1", b'{"close": 5}', source_id="src_a"))
    b = extract_item(req, item("e2", b'{"data": [{"c": 6}]}', source_id="src_b"))
    assert [(c.value, c.path) for c in a.claims + b.claims] == [
        ("5", "$.close"), ("6", "$.data[0].c")]
    only = FieldSpec.model_validate({"key": "close", "kind": "numeric", "per_source": [
        {"source_id": "src_b", "json_path": "$.c"}]})
    missing = extract_item(requirement(fields=[only]), item("e1", b'{"c": 1}'))
    assert [w.check_id for w in missing.warnings] == ["extract.no_locator"]


@pytest.mark.parametrize("bad", [
    {"key": "x", "kind": "boolean", "regex": "(.)", "number_format": {}},
    {"key": "x", "kind": "numeric", "regex": "(.)", "time_format": "rfc3339"},
    {"key": "x", "kind": "numeric", "regex": "(.)",
     "number_format": {"group_separator": ".", "decimal_mark": "."}},
    {"key": "x", "kind": "numeric", "regex": "(.)", "number_format": {"group_separator": "."}},
    {"key": "x", "kind": "numeric", "per_source": [{"source_id": "a"}]},
    {"key": "x", "kind": "numeric", "per_source": [{"source_id": "a", "regex": "(.)"},
                                                   {"source_id": "a", "regex": "(.)"}]},
])
def test_inconsistent_field_specs_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        FieldSpec.model_validate(bad)


def test_existing_field_specs_keep_their_bytes() -> None:
    field = FieldSpec(key="p", kind="numeric", json_path="$.p")
    assert field.model_dump(by_alias=True, exclude_none=True) == {
        "key": "p", "kind": "numeric", "json_path": "$.p"}


SEPARATORS = st.sampled_from([None, ",", " ", "\u2009", "\u202f", "'", "_"])


@given(value=st.decimals(allow_nan=False, allow_infinity=False, places=4,
                         min_value=-10**12, max_value=10**12),
       sep=SEPARATORS, mark=st.sampled_from([None, ","]))
def test_formatting_then_parsing_gives_the_value_back(value: Decimal, sep: str | None,
                                                      mark: str | None) -> None:
    if sep == mark == ",":
        mark = None
    fmt = NumberFormat(group_separator=sep, decimal_mark=mark)
    canonical = format_decimal(value)
    assert parse_number(format_number(canonical, fmt), fmt) == canonical


@given(moment=st.datetimes(min_value=datetime(1971, 1, 1), max_value=datetime(9998, 1, 1)),
       minutes=st.integers(min_value=-23 * 60 - 59, max_value=23 * 60 + 59),
       micros=st.integers(min_value=0, max_value=999_999))
def test_rfc3339_agrees_with_datetime(moment: datetime, minutes: int, micros: int) -> None:
    aware = moment.replace(microsecond=micros, tzinfo=timezone(timedelta(minutes=minutes)))
    field = FieldSpec(key="t", kind="timestamp", json_path="$.t", time_format="rfc3339")
    want = (aware - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(seconds=1)
    assert convert(field, aware.isoformat(), from_text=False) == want


def test_a_refused_value_teaches_in_the_report() -> None:
    # Issue 23 item 5: the report shows the captured text, the reason and the
    # accepted forms; the committed warning keeps its stable code and message.
    from por.auditor import AuditorAgent
    from por.explain.findings import findings
    from por.scenarios import load_scenario

    scenario = load_scenario("47-entertainment-critics-percent")
    requirement = scenario.prompt_spec.data_requirements[0]
    field = requirement.expected_fields[0].model_copy(
        update={"number_format": NumberFormat(group_separator=",")})
    spec = scenario.prompt_spec.model_copy(update={"data_requirements": [
        requirement.model_copy(update={"expected_fields": [field]})]})
    trace, _ = AuditorAgent().audit(spec, scenario.evidence)
    extract = trace.steps[0].to_json_obj()["output"]
    assert extract["warnings"] == [{"check_id": "extract.field_kind", "key": "critics",
                                    "message": "value is not a valid numeric"}]
    lines = [f.line() for f in findings(spec, list(trace.steps), scenario.evidence.items)]
    assert any('captured "92%"' in line and "(number.percent_undeclared)" in line
               and "grouped by ','" in line for line in lines), lines
    bare = [f.line() for f in findings(spec, list(trace.steps))]
    assert not any("captured" in line for line in bare)


CELL = st.text(alphabet="ab1,\" \r\n\u00e9", max_size=4)


@given(rows=st.lists(st.lists(st.text(alphabet="ab1 .\u00e9", max_size=4), min_size=2,
                              max_size=2), min_size=1, max_size=6),
       crlf=st.booleans(), final=st.booleans())
def test_quoted_and_plain_csv_read_the_same(rows: list[list[str]], crlf: bool,
                                            final: bool) -> None:
    # Two code paths (no quote: split in C; quotes: a cell scan) give the same table.
    from por.auditor.csv_body import parse_csv

    end = "\r\n" if crlf else "\n"
    plain = end.join(",".join(r) for r in [["h1", "h2"], *rows]) + (end if final else "")
    quoted = end.join(",".join(f'"{c}"' for c in r) for r in [["h1", "h2"], *rows])
    one, two = parse_csv(plain), parse_csv(quoted + (end if final else ""))
    assert [one.record(i) for i in range(len(one))] == [two.record(i) for i in range(len(two))]
    assert len(one) == len(rows)


@given(cells=st.lists(st.lists(CELL, min_size=2, max_size=2), min_size=1, max_size=5))
def test_quoted_cells_round_trip(cells: list[list[str]]) -> None:
    from por.auditor.csv_body import parse_csv

    quote = lambda c: '"' + c.replace('"', '""') + '"'  # noqa: E731
    body = "\r\n".join(",".join(map(quote, r)) for r in [["h1", "h2"], *cells]) + "\r\n"
    table = parse_csv(body)
    assert [table.row(i) for i in range(len(table))] == cells


def test_many_filtered_fields_spend_the_filter_budget() -> None:
    # Eight fields at most (SPEC §4.2): the budget binds on many tiny elements.
    n = 100_000
    content = ('{"a":[' + ",".join(["{}"] * n) + "]}").encode()
    fields = [FieldSpec(key=f"f{i}", kind="numeric", json_path=f'$.a[?(@.k=="x{i}")].v')
              for i in range(8)]
    found = extract_item(requirement(fields=fields), item("e1", content))
    ran = (len(content) // 2 + 65536) // n
    assert found.claims == ()
    assert [w.check_id for w in found.warnings] == (
        ["extract.field_missing"] * ran + ["extract.filter_budget"] * (8 - ran))


FORMATS = st.builds(
    NumberFormat, group_separator=st.sampled_from([None, ",", " ", "'"]),
    decimal_mark=st.sampled_from([None, "."]), percent=st.sampled_from([None, "points",
                                                                        "fraction"]),
    scale_suffixes=st.sampled_from([None, True]), currency=st.sampled_from([None, "$", "USD"]),
    accounting_negative=st.sampled_from([None, True]), fractions=st.sampled_from([None, True]))
NUMBERISH = st.text(alphabet="0123456789,. -+\u2212()$%KMB/'USD", max_size=40)


@given(fmt=FORMATS, text=NUMBERISH)
def test_any_text_is_a_canonical_decimal_or_a_reason(fmt: NumberFormat, text: str) -> None:
    from por.numbers import is_canonical_decimal

    field = FieldSpec(key="x", kind="numeric", regex="(.*)", number_format=fmt)
    value = convert(field, text, from_text=True)
    assert isinstance(value, Refused) or is_canonical_decimal(str(value))


@given(body=st.text(alphabet='ab,"\r\n\ufeff', max_size=30))
def test_any_body_is_a_table_or_bad_csv(body: str) -> None:
    from por.auditor.csv_body import CsvError, parse_csv

    try:
        table = parse_csv(body)
    except CsvError:
        return
    assert all(len(table.row(i)) == table.width for i in range(len(table)))


@given(text=st.text(alphabet="0123456789-:TZz+. t", max_size=40),
       time_format=st.sampled_from(["unix_seconds", "unix_millis", "rfc3339",
                                    "rfc3339_or_date"]))
def test_any_time_text_is_seconds_or_a_reason(text: str, time_format: str) -> None:
    field = FieldSpec(key="t", kind="timestamp", json_path="$.t",
                      time_format=time_format)  # type: ignore[arg-type]
    value = convert(field, text, from_text=True)
    assert isinstance(value, Refused) or (type(value) is int and 0 <= value < 2**63)
