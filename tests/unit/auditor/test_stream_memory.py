"""What the streaming audit keeps per evidence item, and why each shortcut is exact (issue 16).

Each shortcut is checked against the plain computation it replaces:

* the trace policy's distinct-earlier check without a set, for rising ids;
* contradictions kept per group online instead of as lists of claims;
* aggregate keeping one candidate per source (every selection policy reads that);
* the packed claims of extract steps (``ExtractStore``);
* ``Fragments``: a record encoded (or compared) one array item at a time.
"""

from __future__ import annotations

import tracemalloc
from decimal import Decimal
from typing import Any

import pytest
from factories import bundle, item, json_field, prompt_spec, requirement, two_source_case
from hypothesis import example, given, settings
from hypothesis import strategies as st

from por.auditor import audit_core, extract_store
from por.auditor import step_io as io
from por.auditor.claim_extraction import Claim, claim_id_from
from por.auditor.contradiction_checks import ContradictionChecker
from por.auditor.logic_sanity import ItemAdmission
from por.auditor.selection import Candidate, select_field
from por.auditor.steps import extract_step
from por.auditor.trace_policy import SeenIds, _not_distinct_earlier
from por.auditor.values import within_tolerance
from por.bundle import build_bundle
from por.encoding import encode
from por.encoding.encoder import Fragments, _ordered, matches
from por.errors import AuditError, EncodingError
from por.numbers import parse_decimal
from por.protocol.limits import step_id, step_number
from por.schemas import SelectionPolicy
from verifier.fast import fast_report
from verifier.options import VerifyOptions

# -- trace policy: prior_step_ids distinct and earlier ------------------------------------


def _reference_not_distinct(priors: list[str], earlier: set[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for prior in priors:
        if prior not in earlier or prior in seen:
            out.append(prior)
        seen.add(prior)
    return out


_IDS = st.one_of(st.integers(0, 40).map(lambda k: step_id(k) if k else "step_0000"),
                 st.sampled_from(["step_00001", "step_1", "x", "", "step_10000", "step_09999"]))


@settings(max_examples=400, derandomize=True)
@given(st.lists(_IDS, max_size=12), st.sets(_IDS, max_size=20))
def test_distinct_earlier_without_a_set_is_the_set_check(priors: list[str],
                                                         earlier: set[str]) -> None:
    assert _not_distinct_earlier(priors, earlier) == _reference_not_distinct(priors, earlier)


class _Numbered(list):  # type: ignore[type-arg]
    """A citation list that also gives its ids' numbers, as step_io.StepIds does."""

    def numbers(self) -> list[int | None]:
        return [step_number(t) if type(t) is str else None for t in self]


@settings(max_examples=400, derandomize=True)
@given(st.lists(_IDS, max_size=12), st.integers(0, 30), st.lists(_IDS, max_size=4),
       st.booleans())
@example(["step_0001"], 0, [], False)  # the edges of the counted prefix
@example(["step_0001"], 0, [], True)
@example(["step_0002", "step_0003"], 2, [], False)
@example(["step_0002", "step_0004"], 3, ["step_0004"], True)
@example(["step_0001", "step_0005"], 3, ["step_0005"], False)
def test_distinct_earlier_over_seen_ids_is_the_set_check(
        priors: list[str], prefix: int, others: list[str], numbered: bool) -> None:
    seen, plain = SeenIds(), set()
    for text in [step_id(k) for k in range(1, prefix + 1)] + others:
        seen.add(text)
        plain.add(text)
    cited = _Numbered(priors) if numbered else priors
    assert _not_distinct_earlier(cited, seen) == _reference_not_distinct(priors, plain)


def test_rising_ids_repeated_by_form_are_caught() -> None:
    # equal numbers, different texts cannot happen: step_number is one-to-one
    assert _not_distinct_earlier(["step_0001", "step_0001"], {"step_0001"}) == ["step_0001"]
    assert _not_distinct_earlier(["step_0002", "step_0001"], {"step_0001"}) == ["step_0002"]


# -- contradictions: groups kept online -------------------------------------------------

def _claim(n: int, kind: str, key: str, value: Any) -> Claim:
    eid = f"e{n}"
    return Claim(claim_id=claim_id_from(eid, "$.v", value), kind=kind,  # type: ignore[arg-type]
                 key=key, path="$.v", value=value, evidence_id=eid, confidence_bps=9000)


def _reference_conflicts(claims: list[Claim], tolerance: str) -> list[tuple[Any, ...]]:
    """The whole-list grouping the online one replaced: (check id, claim pair, count)."""
    groups: dict[tuple[str, str], list[Claim]] = {}
    for claim in claims:
        if claim.kind in ("numeric", "boolean"):
            groups.setdefault((claim.kind, claim.key), []).append(claim)
    out = []
    for (kind, _key), members in groups.items():
        if kind == "numeric":
            low = high = members[0]
            lv = hv = parse_decimal(str(low.value))
            for c in members[1:]:
                v = parse_decimal(str(c.value))
                if v < lv:
                    low, lv = c, v
                elif v > hv:
                    high, hv = c, v
            if not within_tolerance(hv, lv, parse_decimal(tolerance)):
                out.append(("contradiction.numeric", low.claim_id, high.claim_id, len(members)))
        else:
            t = next((c for c in members if c.value is True), None)
            f = next((c for c in members if c.value is False), None)
            if t is not None and f is not None:
                pair = (t, f) if members.index(t) < members.index(f) else (f, t)
                out.append(("contradiction.boolean", pair[0].claim_id, pair[1].claim_id,
                            len(members)))
    return out


_CLAIM = st.one_of(
    st.tuples(st.just("numeric"), st.sampled_from("ab"),
              st.sampled_from(["99", "100", "100.5", "101", "0.001", "-3"])),
    st.tuples(st.just("boolean"), st.sampled_from("ab"), st.booleans()),
    st.tuples(st.just("text"), st.sampled_from("ab"), st.just("x")))


@settings(max_examples=400, derandomize=True)
@given(st.lists(_CLAIM, max_size=14), st.sampled_from(["0", "0.5", "1"]))
def test_online_contradictions_equal_the_whole_list(raw: list[tuple[str, str, Any]],
                                                    tolerance: str) -> None:
    claims = [_claim(n, kind, key, value) for n, (kind, key, value) in enumerate(raw)]
    found = ContradictionChecker(tolerance).conflicts(iter(claims))  # a stream, read once
    got = [(c.check_id, *c.details["claim_ids"], c.details["claim_count"])  # type: ignore[index]
           for c in found]
    assert got == _reference_conflicts(claims, tolerance)


# -- aggregate: one candidate per source ------------------------------------------------

@settings(max_examples=300, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from(["s0", "s1", "s2", "s3"]), st.integers(0, 3),
                          st.sampled_from(["100", "100.4", "101", "99"])), max_size=12),
       st.sampled_from(["single_best", "multi_source_quorum", "fallback_chain"]),
       st.sampled_from(["highest_provenance", "source_order"]), st.integers(1, 3))
def test_first_candidate_per_source_is_all_a_policy_reads(
        raw: list[tuple[str, int, str]], strategy: str, tie: str, quorum: int) -> None:
    candidates = [Candidate(n, f"e{n}", source, tier, f"cl{n}", value)
                  for n, (source, tier, value) in enumerate(raw)]
    firsts: list[Candidate] = []
    for c in candidates:
        if all(f.source_id != c.source_id for f in firsts):
            firsts.append(c)
    policy = SelectionPolicy(strategy=strategy, min_sources=max(quorum, 1), quorum=quorum,
                             tie_breaker=tie)
    args: dict[str, Any] = {"policy": policy, "target_ids": ["s2", "s0", "s1"],
                            "tolerance": Decimal("0.5")}
    assert select_field("p", "numeric", candidates=candidates, **args) == \
        select_field("p", "numeric", candidates=firsts, **args)


# -- packed claims of extract steps -----------------------------------------------------

def test_extract_store_gives_back_each_items_claims() -> None:
    spec, evidence = two_source_case()
    items = evidence.items
    store = io.ExtractStore(items, 1)
    made = []
    for n, one in enumerate(items):
        step = extract_step(spec, step_id(n + 1), one).step
        made.append(step._claims[1])
        store.add(step)
    memos = store.memos(list(range(len(items))))
    assert [m.step_id for m in memos] == [step_id(n + 1) for n in range(len(items))]
    got = list(io.read_extracts(memos, items))
    assert [[c.to_value() for c in found] for found in got] == \
        [[c.to_value() for c in found] for found in made]
    assert [[(c.evidence_id, c.confidence_bps) for c in found] for found in got] == \
        [[(c.evidence_id, c.confidence_bps) for c in found] for found in made]
    cited = io.step_ids(memos, "step_0042")
    plain = [step_id(n + 1) for n in range(len(items))] + ["step_0042"]
    assert list(cited) == plain and len(cited) == len(plain)
    assert encode({"prior_step_ids": cited}) == encode({"prior_step_ids": plain})
    assert list(cited.numbers()) == [step_number(t) for t in plain]  # type: ignore[attr-defined]
    far = io.ExtractStore(items, 99_998).memos([0, 1, 2])  # ids past step_9999
    assert encode([io.step_ids(far)]) == encode([[step_id(n) for n in (99_998, 99_999,
                                                                         100_000)]])
    assert any(made)
    with pytest.raises(AuditError, match="is not about") as caught:
        io.read_extract(memos[0], items[1])
    assert caught.value.check_id == io.CITATION_MISMATCH
    step = extract_step(spec, step_id(9), items[0]).step
    with pytest.raises(ValueError, match="is not item"):
        io.ExtractStore(items, 1).add(step)  # the wrong id for item 0's step


def test_streaming_and_retained_audits_make_the_same_bytes() -> None:
    spec, evidence = two_source_case()
    seen: list[list[bytes]] = [[], []]
    for k, retain in enumerate((True, False)):
        audit_core(spec, evidence.items, retain=retain,
                   on_step=lambda i, s, k=k: seen[k].append(s.to_cbor()))
    assert seen[0] == seen[1] and len(seen[0]) > 5


# -- Fragments ---------------------------------------------------------------------------

def _record(items: Any) -> dict[str, Any]:
    return {"z": 1, "output": {"items": items, "n": "two"}, "a": [b"x"]}


@settings(max_examples=200, derandomize=True)
@given(st.lists(st.dictionaries(st.sampled_from(["bb", "a", "ccc"]),
                                st.one_of(st.integers(-5, 300), st.text(max_size=3)),
                                max_size=3), max_size=30))
def test_fragments_encode_and_compare_as_the_plain_list(values: list[dict[str, Any]]) -> None:
    plain = encode(_record(values))
    lazy = _record(Fragments(lambda: iter(values), len(values), depth=3))
    assert encode(lazy) == plain
    assert encode(lazy) == plain  # re-iterable: encoded again for a report
    assert matches(lazy, plain) and matches(_record(values), plain)
    framed = b"ab" + plain + b"cd"
    assert matches(lazy, framed, 2, 2 + len(plain))
    assert matches(_record(values), framed, 2, 2 + len(plain))
    for wrong in (plain + b"\x00", plain[:-1], plain[:-1] + bytes([plain[-1] ^ 1])):
        assert not matches(lazy, wrong) and not matches(_record(values), wrong)
        assert not matches(lazy, b"ab" + wrong + b"cd", 2, 2 + len(wrong))
    assert not matches(lazy, framed, 2, 1 + len(plain))  # one byte short of the leaf


def test_fragments_that_miscount_are_refused() -> None:
    with pytest.raises(EncodingError) as caught:
        encode(_record(Fragments(lambda: iter([1, 2]), 3, depth=3)))
    assert caught.value.check_id == "codec.fragments"


@pytest.mark.parametrize("claim_id", ["cl_00000000001a", "cl_ffffffffffff", "cl_0000000001A",
                                      "cl_ 000000001a", "cl_0000_000001a", "cl_+00000000001",
                                      "cl_00000000001", "xx_00000000001a", "cl_00000000001g",
                                      "cl_00000000001A", "cl_0000000000\u0663\u0663",
                                      "cl_0000000000zz", "cl_-0000000001a", "cl_0x000000001a"])
def test_packed_claim_ids_give_back_the_same_text(claim_id: str) -> None:
    packed = extract_store._packed_id(claim_id)
    assert extract_store._claim_id(packed) == claim_id
    assert (type(packed) is int) is (claim_id in {"cl_00000000001a", "cl_ffffffffffff"})


# -- the whole fast path: under 1 KB per evidence item (issue 16) ------------------------

def test_fast_path_holds_under_1_kb_per_item() -> None:
    """Peak traced memory of verifying an honest bundle, above its bytes, per item:
    distinct receipts, confidences and values (nothing shared by luck), several
    sources and two claims per item.  tracemalloc counts allocations, not time:
    the figure is the same on every run of one Python."""
    n, sources = 3000, [f"src_{k:02d}" for k in range(10)]  # the source cap (SPEC §4.2)
    fields = [json_field("price", "numeric", "$.data.price"),
              json_field("seen", "timestamp", "$.data.seen")]
    spec = prompt_spec(requirements=[requirement(sources=sources, fields=fields,
                                                 strategy="multi_source_quorum")])
    items = [item(f"ev-{k:05d}", {"data": {"price": f"101.{k % 97}", "seen": 1000 + k % 900}},
                  source_id=sources[k % 10], retrieved_at=1000 + k, confidence=5000 + k)
             for k in range(n)]
    data = build_bundle(spec, bundle(items))
    assert fast_report(data, VerifyOptions(max_size=1 << 28)) is not None  # warm: imports, caches
    tracemalloc.start()
    try:
        report = fast_report(data, VerifyOptions(max_size=1 << 28))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report is not None
    assert peak / n <= 1000, f"{peak / n:.0f} B per item"


def test_per_item_maps_are_built_in_canonical_key_order() -> None:
    """The maps made once per evidence item are built in canonical key order, so the
    encoder walks them without copying (issue 16): ``_ordered`` returns them as they are."""
    spec, evidence = two_source_case()
    step = extract_step(spec, "step_0001", evidence.items[0]).step
    assert step.output["claims"]
    value = step._cbor_value()
    assert _ordered(value, 0) is value
    for gate in (None, "rejected"):
        admission = ItemAdmission("e1", "src_a", 1, "claim", ("x",), gate).to_value()
        assert _ordered(admission, 0) is admission
