"""Claim extraction from raw evidence bytes (seed M06 §8, §13)."""

from __future__ import annotations

import hashlib
import time

import pytest
from factories import bundle, item, json_field, price_body, prompt_spec, regex_field, requirement

from por.auditor.claim_extraction import (
    MAX_JSON_DEPTH,
    ClaimExtractor,
    claim_id_from,
    extract_item,
    parse_json_path,
)
from por.schemas import DataRequirement, EvidenceItem


def _extract(req: DataRequirement, it: EvidenceItem) -> tuple[list[tuple[str, object]],
                                                             list[tuple[str, str | None]]]:
    found = extract_item(req, it)
    return ([(c.key, c.value) for c in found.claims],
            [(w.check_id, w.key) for w in found.warnings])


FIELDS = [json_field("price", "numeric", "$.data.price"),
          json_field("up", "boolean", "data.up"),
          json_field("at", "timestamp", "$.data.at"),
          json_field("name", "text", "$.data.items[1].name")]
REQ = requirement(fields=FIELDS)
DOC = (b'{"data":{"price":101.50,"up":true,"at":1500,'
       b'"items":[{"name":"x"},{"name":"BTC"}]}}')


def test_json_extraction_kinds_values_and_order() -> None:
    claims, warnings = _extract(REQ, item("e1", DOC))
    assert claims == [("price", "101.5"), ("up", True), ("at", 1500), ("name", "BTC")]
    assert warnings == []


def test_claim_set_order_is_evidence_then_field_order() -> None:
    spec = prompt_spec(requirements=[REQ])
    evidence = bundle([item("e2", DOC), item("e1", DOC, source_id="src_b")])
    claims = ClaimExtractor().extract(spec, evidence)
    assert [(c.evidence_id, c.key) for c in claims] == [
        ("e2", "price"), ("e2", "up"), ("e2", "at"), ("e2", "name"),
        ("e1", "price"), ("e1", "up"), ("e1", "at"), ("e1", "name")]
    assert [c.confidence_bps for c in claims] == [9000] * 8
    assert len(claims.by_kind("numeric")) == 2
    assert list(claims.by_evidence_id()) == ["e2", "e1"]
    # Deterministic: a second run gives equal claims with equal ids.
    assert ClaimExtractor().extract(spec, evidence) == claims


def test_claim_id_known_answer() -> None:
    # Formula (seed M06 §8): sha256(evidence_id "|" path "|" por-cbor(value))[:12].
    # por-cbor of the text "101.5" is 0x65 (major type 3, length 5) then the bytes.
    by_hand = "cl_" + hashlib.sha256(b"e1|$.data.price|\x65101.5").hexdigest()[:12]
    assert claim_id_from("e1", "$.data.price", "101.5") == by_hand == "cl_e9f653a6d7a1"
    # true is 0xf5; 1500 is 0x19 0x05dc.
    assert claim_id_from("e1", "data.up", True) == \
        "cl_" + hashlib.sha256(b"e1|data.up|\xf5").hexdigest()[:12]
    assert claim_id_from("e1", "$.data.at", 1500) == \
        "cl_" + hashlib.sha256(b"e1|$.data.at|\x19\x05\xdc").hexdigest()[:12]
    found = extract_item(REQ, item("e1", DOC))
    assert found.claims[0].claim_id == by_hand
    # The id depends on the value's type: text "1500" differs from int 1500.
    assert claim_id_from("e1", "p", "1500") != claim_id_from("e1", "p", 1500)


@pytest.mark.parametrize(("raw", "expected"), [
    (b"101.50", "101.5"), (b"1.5e2", "150"), (b"-0", "0"), (b"-0.0", "0"), (b"7", "7"),
    (b'"101.50"', "101.5"), (b'"007"', "7"), (b"0.000001", "0.000001"),
])
def test_numeric_spellings_normalise(raw: bytes, expected: str) -> None:
    claims, _ = _extract(requirement(), item("e1", b'{"data":{"price":' + raw + b"}}"))
    assert claims == [("price", expected)]


@pytest.mark.parametrize("raw", [
    b'"1e5"', b'"+1"', b'" 1"', b'"NaN"', b'"Infinity"', b'"1,000"', b'"1."', b"true",
    b"null", b"[1]", b"1e999999999", b"1" * 60,
])
def test_numeric_refusals_warn_field_kind(raw: bytes) -> None:
    start = time.perf_counter()
    claims, warnings = _extract(requirement(), item("e1", b'{"data":{"price":' + raw + b"}}"))
    assert claims == []
    assert warnings == [("extract.field_kind", "price")]
    assert time.perf_counter() - start < 1  # 1e999999999 must not expand


@pytest.mark.parametrize(("raw", "ok"), [(b"true", True), (b"false", True), (b'"yes"', False),
                                         (b"1", False), (b'"true"', False)])
def test_json_boolean_is_true_false_only(raw: bytes, ok: bool) -> None:
    req = requirement(fields=[json_field("up", "boolean", "$.up")])
    claims, warnings = _extract(req, item("e1", b'{"up":' + raw + b"}"))
    assert bool(claims) is ok
    assert warnings == ([] if ok else [("extract.field_kind", "up")])


@pytest.mark.parametrize(("raw", "expected"), [(b"1500", 1500), (b"1500.0", None),
                                               (b"true", None), (b"-1", None),
                                               (b'"1500"', None),
                                               (b"9223372036854775808", None)])
def test_json_timestamp_is_int_only(raw: bytes, expected: int | None) -> None:
    req = requirement(fields=[json_field("at", "timestamp", "$.at")])
    claims, _ = _extract(req, item("e1", b'{"at":' + raw + b"}"))
    assert claims == ([] if expected is None else [("at", expected)])


@pytest.mark.parametrize(("content", "code", "offset"), [
    (b'{"data":{"price":1', "extract.json_syntax", 18),          # truncated: its length
    (b'{"data":{"price":NaN}}', "extract.json_syntax", 17),      # the N
    (b'{"data":{"price":1},"data":{"price":2}}', "extract.json_duplicate_key", 20),
    (b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1), "extract.json_depth", 64),
    (b"[" * 100_000 + b"]" * 100_000, "extract.json_depth", 64),
    (b"\xef\xbb\xbf{}", "extract.json_syntax", 0),                  # no byte order mark
    (b'{"a":"\\ud800"}', "extract.json_surrogate", 6),
    (b'{"\xc3\xa9":1,"\xc3\xa9":2}', "extract.json_duplicate_key", 8),  # bytes, not characters
    (b"[1,]", "extract.json_syntax", 3),
    (b'"\\x"', "extract.json_syntax", 2),
])
def test_bad_json_gives_no_claims_and_a_warning(content: bytes, code: str, offset: int) -> None:
    """SPEC §12.1.3: a code and a byte offset, never a parser's message."""
    found = extract_item(requirement(), item("e1", content))
    assert found.claims == ()
    assert [(w.check_id, w.offset) for w in found.warnings] == [(code, offset)]
    assert found.warnings[0].to_value()["offset"] == offset


def test_depth_limit_is_inclusive() -> None:
    doc = b'{"a":' * (MAX_JSON_DEPTH - 1) + b'{"price":5}' + b"}" * (MAX_JSON_DEPTH - 1)
    path = "$." + ".".join(["a"] * (MAX_JSON_DEPTH - 1)) + ".price"
    claims, _ = _extract(requirement(fields=[json_field("price", "numeric", path)]),
                         item("e1", doc))
    assert claims == [("price", "5")]


def test_invalid_utf8_gives_warning() -> None:
    found = extract_item(requirement(), item("e1", b'{"data":{"price":"\xff"}}'))
    assert (found.claims, [(w.check_id, w.offset) for w in found.warnings]) == (
        (), [("extract.not_utf8", 18)])


def test_lone_surrogate_escape_refuses_the_body() -> None:
    req = requirement(fields=[json_field("name", "text", "$.name")])
    assert _extract(req, item("e1", b'{"name":"\\ud800"}')) == (
        [], [("extract.json_surrogate", None)])
    assert _extract(req, item("e1", b'{"name":"\\ud83d\\ude00"}')) == (
        [("name", "\U0001f600")], [])


def test_missing_declared_field_warns() -> None:
    assert _extract(requirement(), item("e1", b'{"data":{}}')) == (
        [], [("extract.field_missing", "price")])


def test_fallback_fields_when_none_declared() -> None:
    req = requirement(fields=[])
    doc = b'{"timestamp":1600,"price":"42.10","result":true,"other":1}'
    assert _extract(req, item("e1", doc)) == (
        [("result", True), ("price", "42.1"), ("timestamp", 1600)], [])
    # Absent fallback fields are skipped silently; a wrong kind still warns.
    assert _extract(req, item("e1", b'{"result":"YES"}')) == (
        [], [("extract.field_kind", "result")])
    # Text evidence has no fallback.
    assert _extract(req, item("e1", b"price 5", content_type="text/plain")) == ([], [])


HTML = (b'<html><body><span id="price">101.50</span>'
        b'<b class="status">Resolved: YES</b><i>1600</i></body></html>')


def test_regex_extraction_from_html() -> None:
    req = requirement(fields=[
        regex_field("price", "numeric", r'id="price">([0-9.]+)<'),
        regex_field("up", "boolean", r"Resolved: (\w+)"),
        regex_field("at", "timestamp", r"<i>([0-9]+)</i>"),
        regex_field("title", "text", r"<b class=\"(\w+)\""),  # \" is a literal "
    ], content_type="text/html")
    it = item("e1", HTML, content_type="text/html")
    assert _extract(req, it) == (
        [("price", "101.5"), ("up", True), ("at", 1600), ("title", "status")], [])
    found = extract_item(req, it)
    assert found.claims[0].path == r'id="price">([0-9.]+)<'
    assert found.claims[0].claim_id == claim_id_from("e1", r'id="price">([0-9.]+)<', "101.5")


@pytest.mark.parametrize(("word", "value"), [("yes", True), ("No", False), ("TRUE", True),
                                             ("false", False), ("maybe", None)])
def test_text_booleans(word: str, value: bool | None) -> None:
    req = requirement(fields=[regex_field("up", "boolean", r"up=(\w+)")])
    claims, _ = _extract(req, item("e1", f"up={word}", content_type="text/plain"))
    assert claims == ([] if value is None else [("up", value)])


@pytest.mark.parametrize(("regex", "check_id"), [
    (r"price (", "extract.bad_regex"),
    (r"price \d+", "extract.bad_regex"),
    (r"cost=(\d+)", "extract.field_missing"),
    (r"price (\w+)", "extract.field_kind"),
    # RE2, not Python re (SPEC §12.1): backreferences and lookaround do not compile.
    (r"(p)rice \1", "extract.bad_regex"),
    (r"price (?=abc)(\w+)", "extract.bad_regex"),
])
def test_regex_failures(regex: str, check_id: str) -> None:
    req = requirement(fields=[regex_field("price", "numeric", regex)])
    assert _extract(req, item("e1", "price abc", content_type="text/plain")) == (
        [], [(check_id, "price")])


def test_text_evidence_needs_a_regex() -> None:
    assert _extract(requirement(), item("e1", "price 5", content_type="text/plain")) == (
        [], [("extract.no_locator", "price")])


def test_json_field_with_only_a_regex_matches_the_json_text() -> None:
    req = requirement(fields=[regex_field("price", "numeric", r'"price":\s*"?([0-9.]+)')])
    assert _extract(req, item("e1", price_body("12.50"))) == ([("price", "12.5")], [])


def test_unknown_requirement() -> None:
    found = extract_item(None, item("e1", requirement_id="r9"))
    assert [w.check_id for w in found.warnings] == ["extract.unknown_requirement"]


@pytest.mark.parametrize(("path", "tokens"), [
    ("$.data.price", ("data", "price")), ("data.items[0].value", ("data", "items", 0, "value")),
    ("$", ()), ("$[2]", (2,)), ("a", ("a",)), ("a[0][1]", ("a", 0, 1)),
    ("a..b", None), ("$.a[01]", None), ("$a", None), (".a", None), ("a[x]", None), ("", None),
    # SPEC §12.1.1 examples
    ("$.a[0]", ("a", 0)), ("a.b", ("a", "b")), ("$.é.x y", ("é", "x y")),
    ("a[01]", None), ("a[-1]", None), ("[0]", None), ("$.a[999999999]", ("a", 999999999)),
    ("$.a[1000000000]", None),
])
def test_json_path_grammar(path: str, tokens: tuple[object, ...] | None) -> None:
    assert parse_json_path(path) == tokens


def test_bad_path_warns() -> None:
    req = requirement(fields=[json_field("price", "numeric", "a..b")])
    assert _extract(req, item("e1")) == ([], [("extract.bad_path", "price")])


def test_index_out_of_range_is_missing() -> None:
    req = requirement(fields=[json_field("v", "numeric", "$.xs[5]")])
    assert _extract(req, item("e1", b'{"xs":[1,2]}')) == ([], [("extract.field_missing", "v")])


def test_deep_json_is_refused_even_with_a_raised_recursion_limit() -> None:
    """py_ecc (via eth-account) raises the recursion limit to 100 000 on import;
    json's C scanner would then overflow the C stack on deep input."""
    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(100_000)
    try:
        found = extract_item(requirement(), item("e1", b"[" * 200_000 + b"]" * 200_000))
    finally:
        sys.setrecursionlimit(old)
    assert found.claims == ()
    assert [(w.check_id, w.offset) for w in found.warnings] == [("extract.json_depth", 64)]


def test_regex_classes_are_ascii_as_in_re2() -> None:
    """Python's re would match the Arabic-Indic digits with \\d; RE2 does not."""
    req = requirement(fields=[regex_field("price", "numeric", r"price ([0-9\d]+)")])
    body = "price \u0661\u0662 then price 12"
    assert _extract(req, item("e1", body, content_type="text/plain")) == ([("price", "12")], [])


def test_catastrophic_regex_is_linear_in_re2() -> None:
    """(a+)+$ against a^40 b: about 2^40 steps for a backtracking engine; RE2 is linear."""
    req = requirement(fields=[regex_field("price", "numeric", r"((?:a+)+)$")])
    body = "a" * 40 + "b"
    assert _extract(req, item("e1", body, content_type="text/plain")) == (
        [], [("extract.field_missing", "price")])


@pytest.mark.parametrize(("regex", "reason"), [
    ("(" + "[ab]{0,999}" * 16 + "c)", "counted repetitions add up to more than 64"),
    ("(" + "(?:[ab]{1,9}){9}" * 4 + ")", "counted repetitions add up to more than 64"),
    # Sum 30, but the nested product is 1000 positions.
    ("(?:(?:(?:[ab]{1,10}){10}){10})(x)", "regex has more than 512 positions"),
    (r"(\pL)", "regex outside the SPEC 12.1.2 syntax"),
    ("(a)" + "b" * 300, "regex longer than 256 characters"),
])
def test_regex_limits_are_checked_before_running(regex: str, reason: str) -> None:
    """SPEC §12.1: deterministic caps on PromptSpec regexes (no clock involved)."""
    from por.auditor.claim_extraction import regex_plan

    assert regex_plan((regex,)) == (reason,)


def test_regex_program_budget_is_per_requirement_in_field_order() -> None:
    from por.auditor.regex_plan import MAX_REGEX_POSITIONS_PER_REQUIREMENT, regex_plan

    pattern = "(" + "[ab]{0,9}" * 7 + ")"  # repeat sum 63, 63 positions
    plan = regex_plan((pattern,) * 20)
    sizes = [entry.measure.positions for entry in plan if not isinstance(entry, str)]
    assert sum(sizes) <= MAX_REGEX_POSITIONS_PER_REQUIREMENT
    refused = [entry for entry in plan if isinstance(entry, str)]
    assert refused and all("exceed 1024" in entry for entry in refused)
    # The accepted fields are the first ones: order decides, deterministically.
    assert all(not isinstance(entry, str) for entry in plan[: len(sizes)])
