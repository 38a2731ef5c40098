"""Differential test of the replaying verifier against the builder (SPEC §5, §6.2).

Oracle: for a bundle X' made from a scenario bundle by a *semantic mutation*
with every commitment (and the verdict's references) recomputed by
``fixtures/bundles/generate.py::rebuild`` -- so that only replay (§6.2 steps
5-7) can catch it -- ``check_bundle(X').status == "verified"`` iff X' equals,
byte for byte, ``build_bundle(spec', evidence')`` where spec' and evidence' are
the records committed in X' (evidence' under an arbitrary ``bundle_id``: the
auditor must not depend on it).  These bundles are consistent and supported,
so the status is never ``error`` and ``check_bundle`` never raises.

Mutations work on the decoded por-cbor values, so they can also break a
record's schema (then nothing is built and X' must be rejected).  Two modes:
*stale* (the committed trace and verdict stay as they were) and *honest* (the
mutated inputs are rebuilt by the builder, then the outputs may be mutated
again), so both directions of the "iff" are exercised.  Also: every proof
``por verify --challenges`` would write for X' verifies (SPEC §10.1), and on an
honest build every one-step proof re-executes to ``one_step.match`` (§10.5).

Leaves out: garbage that is not a consistent bundle (test_verifier_robustness).
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import assume, event, given, note, settings
from hypothesis import strategies as st

from por.bundle import Bundle, build_bundle
from por.challenge import (
    NoProof,
    build_one_step_proof,
    bundle_from_bytes,
    check_proof,
    proof_for_ref,
    winning_proof,
)
from por.encoding import decode, encode
from por.errors import PorError
from por.scenarios import list_scenarios, load_scenario
from por.schemas import DeterministicVerdict, EvidenceBundle, EvidenceItem, PromptSpec
from verifier import check_bundle

GENERATOR_PATH = Path(__file__).resolve().parents[2] / "fixtures" / "bundles" / "generate.py"
SCENARIOS = list_scenarios()
EXAMPLES = settings().max_examples * 4  # about 10 ms per example


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location("gen_bundles_diff", GENERATOR_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


rebuild: Callable[..., bytes] = _generator().rebuild


@cache
def base_bundle(name: str) -> bytes:
    """The honest bundle of one scenario."""
    scenario = load_scenario(name)
    return build_bundle(scenario.prompt_spec, scenario.evidence)


# --- value strategies ----------------------------------------------------------------

class RawNumber(str):
    """A JSON number written verbatim (``1e3``, ``250.00``, ``-0``)."""


def dump_json(value: Any, *, compact: bool, sort: bool, indent: int) -> str:
    """JSON text with Decimal and RawNumber written exactly; layout as asked."""
    pad = "" if compact else " "
    if isinstance(value, dict):
        keys = sorted(value) if sort else list(value)
        inner = [f"{dump_json(k, compact=True, sort=sort, indent=0)}:{pad}"
                 f"{dump_json(value[k], compact=compact, sort=sort, indent=indent)}"
                 for k in keys]
        sep = "," + ("\n" + " " * indent if indent else pad)
        return "{" + sep.join(inner) + "}"
    if isinstance(value, list):
        return "[" + ("," + pad).join(
            dump_json(v, compact=compact, sort=sort, indent=indent) for v in value) + "]"
    if isinstance(value, RawNumber):
        return str(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | Decimal):
        return str(value)
    text = str(value)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


NUMBER_TEXTS = ("250", "250.0", "250.00", "249.99", "250.01", "251.4", "4.5", "4.49", "4.4",
                "0", "-0", "1e3", "2.5E2", "1e999999999", "100", "100.5", "99.9999999",
                "-1", "9" * 60, "0." + "0" * 70 + "1")
json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 2**64),
    st.sampled_from(NUMBER_TEXTS).map(RawNumber),
    st.sampled_from(["true", "yes", "no", "1788206400", "250", "4.3", "", "\u00e9", "x" * 30]),
    st.integers(0, 2**63 + 5))
json_values = st.recursive(json_scalars, lambda c: st.one_of(
    st.lists(c, max_size=3), st.dictionaries(st.sampled_from(
        ["close", "status", "shipping", "updated_at", "value", "result", "as_of", "x"]),
        c, max_size=3)), max_leaves=6)
#: Step values: int, bool, text, arrays and maps (SPEC §4.4), no bytes.
step_values = st.recursive(
    st.one_of(st.integers(-2**64, 2**64 - 1), st.booleans(), st.text(max_size=12),
              st.sampled_from(["selected", "missing", "251.4", "YES", "step_0001"])),
    lambda c: st.one_of(st.lists(c, max_size=3),
                        st.dictionaries(st.text(max_size=8), c, max_size=3)),
    max_leaves=6)
#: Any por-cbor value (SPEC §2 data model).
cbor_values = st.recursive(
    st.one_of(st.integers(-2**64, 2**64 - 1), st.booleans(), st.text(max_size=12),
              st.binary(max_size=40)),
    lambda c: st.one_of(st.lists(c, max_size=3),
                        st.dictionaries(st.text(max_size=8), c, max_size=3)),
    max_leaves=6)
decimals = st.one_of(
    st.sampled_from(["0", "250", "250.01", "249.99", "4.5", "0.05", "1", "-3", "0.001",
                     "9" * 64, "1.50", "01", "1e3", "-0"]),
    st.decimals(min_value=-1000, max_value=1000, places=2).map(
        lambda d: format(d.normalize(), "f")))
ids = st.sampled_from(["ev-1", "src-x", "req_close", "exchange-alpha", "exchange-beta",
                       "northwind-stats-web", "zz", "a" * 128, "a" * 129, ""])
bps = st.one_of(st.integers(0, 10_000), st.sampled_from([-1, 10_001, 5500, 5499, 0]))
big_times = st.one_of(st.integers(0, 2**33), st.sampled_from([0, 2**63 - 1, 2**63, -1]))


JSON_PATHS = ("$", "$.", "$.status", "$.status.shipping", "status.shipping", "$.close",
              "$.close[0]", "$[0]", "$..close", "$.status.updated_at", "$.as_of", "",
              "$.a.b.c", "$.value", "$.result")
REGEXES = ("(", "no group", r"([0-9.]+)", r"(\d+(?:\.\d+)?)\s*%", r"(?P<v>\d+)",
           r"(a)|(b)", r"\b(yes|no)\b", r"(?i)(TRUE|yes)", r"(?=a)(a)", r"(a)\1",
           r'<td id="unemployment-rate">\s*([0-9.]+)', r'"close":\s*([0-9.]+)', r"()",
           r"(\pL+)")


def _mutate_json(data: st.DataObject, text: str) -> str | None:
    """``text`` parsed, one node replaced or deleted, keys reordered, re-laid out."""
    try:
        document = json.loads(text, parse_float=Decimal)
    except ValueError:
        return None
    nodes: list[tuple[Any, Any]] = []  # (container, key)
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict | list):
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            nodes.extend((node, k) for k in keys)
            stack.extend(node.values() if isinstance(node, dict) else node)
    if data.draw(st.booleans()) and nodes:
        container, key = nodes[data.draw(st.integers(0, len(nodes) - 1))]
        if isinstance(container, dict) and data.draw(st.booleans()):
            del container[key]
        else:
            container[key] = data.draw(json_values)
    if isinstance(document, dict) and data.draw(st.booleans()):
        document = dict(reversed(list(document.items())))
    return dump_json(document, compact=data.draw(st.booleans()),
                     sort=data.draw(st.booleans()), indent=data.draw(st.sampled_from([0, 2])))


# --- mutations (on decoded values, in place) -------------------------------------------

Parts = dict[str, Any]
Mutation = Callable[[st.DataObject, Parts], str]
#: Path tokens: "*" a random element of a list (or value of a map), "?" a random
#: existing key; DROP as the value deletes the addressed entry.
_GONE = object()
DROP = st.just(_GONE)
REQ = ("spec", "data_requirements", "*")
FIELD = (*REQ, "expected_fields", "*")
ITEM = ("evidence", "*")
#: name -> (path from the parts, values).  Invalid values are deliberate: the
#: record then fails its schema and nothing can be built.
INPUT_EDITS: dict[str, tuple[tuple[str, ...], st.SearchStrategy[Any]]] = {
    "threshold": (("spec", "prediction_semantics", "threshold"), decimals),
    "comparison": (("spec", "prediction_semantics", "comparison"),
                   st.sampled_from([">", ">=", "<", "<=", "==", "!="])),
    "predicate": (("spec", "prediction_semantics", "predicate"),
                  st.sampled_from(["event_observed", "numeric_threshold"])),
    "metric": (("spec", "prediction_semantics", "metric"), st.sampled_from(
        ["close", "shipping", "as_of", "unemployment_rate", "value", "result", "x"])),
    "semantics_drop": (("spec", "prediction_semantics", "?"), DROP),
    "slack": (("spec", "timestamp_slack_seconds"),
              st.one_of(st.integers(0, 10**6), st.sampled_from([2**63 - 1, 86_400 * 400, -1]))),
    "confidence_policy": (("spec", "confidence_policy", "?"), bps),
    "on_conflict": (("spec", "conflict_policy", "on_conflict"),
                    st.sampled_from(["invalid", "continue", "ignore"])),
    "tolerance": (("spec", "conflict_policy", "numeric_tolerance"), decimals),
    "strict_mode": (("spec", "strict_mode"), st.booleans()),
    "schema_ref": (("spec", "output_schema_ref"),
                   st.sampled_from(["por.DeterministicVerdict/2", "por.DeterministicVerdict/1"])),
    "window": (("spec", "market", "resolution_window", "?"), big_times),
    "market_id": (("spec", "market", "market_id"), st.sampled_from(["other-market", "m" * 129])),
    "allowed_drop": (("spec", "market", "allowed_sources", "*"), DROP),
    "target_source": ((*REQ, "source_targets", "*", "source_id"), ids),
    "strategy": ((*REQ, "selection_policy", "strategy"), st.sampled_from(
        ["single_best", "multi_source_quorum", "fallback_chain"])),
    "quorum": ((*REQ, "selection_policy", "?"), st.one_of(st.integers(0, 5), st.sampled_from(
        ["highest_provenance", "source_order"]))),
    "min_tier": ((*REQ, "min_provenance_tier"), st.integers(-1, 4)),
    "fields_clear": ((*REQ, "expected_fields"), st.just([])),
    "json_path": ((*FIELD, "json_path"), st.sampled_from(JSON_PATHS)),
    "regex": ((*FIELD, "regex"), st.sampled_from(REGEXES)),
    "field_kind": ((*FIELD, "kind"), st.sampled_from(["boolean", "numeric", "timestamp",
                                                      "text", "date"])),
    "field_key": ((*FIELD, "key"), st.sampled_from(["close", "shipping", "as_of", "x"])),
    "field_drop": ((*FIELD, "?"), DROP),
    "spec_any": (("spec", "?"), cbor_values),
    "item_confidence": ((*ITEM, "confidence_bps"), bps),
    "item_tier": ((*ITEM, "provenance_tier"), st.integers(-1, 4)),
    "retrieved_at": ((*ITEM, "retrieval_receipt", "retrieved_at"), big_times),
    "status_code": ((*ITEM, "retrieval_receipt", "status_code"), st.integers(99, 600)),
    "source": ((*ITEM, "source", "?"), st.one_of(ids, st.text(max_size=6))),
    "content_type": ((*ITEM, "content_type"), st.sampled_from(
        ["application/json", "text/html", "text/plain", "application/xml"])),
    "requirement_id": ((*ITEM, "requirement_id"), st.sampled_from(["req_close", "req_x", ""])),
    "item_drop": (ITEM, DROP),
    "item_any": ((*ITEM, "?"), cbor_values),
}
VERDICT_RULES = ["R_VALIDITY", "R_CONFLICT", "R_BINARY_DECISION", "R_CONFIDENCE",
                 "R_INVALID_FALLBACK"]
OUTPUT_EDITS: dict[str, tuple[tuple[str, ...], st.SearchStrategy[Any]]] = {
    "step_output": (("steps", "*", "output", "?"), step_values),
    "step_output_deep": (("steps", "*", "output", "*", "*", "?"), step_values),
    "step_description": (("steps", "*", "description"), st.sampled_from(["forged", ""])),
    "step_citations": (("steps", "*", "?"), st.lists(ids, max_size=2)),
    "step_inputs": (("steps", "*", "inputs"), st.dictionaries(
        st.sampled_from(["kind", "requirement_id", "fact"]), step_values)),
    "step_type": (("steps", "*", "step_type"), st.sampled_from(
        ["extract", "check", "aggregate", "deduce", "map"])),
    "step_drop": (("steps", "*"), DROP),
    "outcome": (("verdict", "outcome"), st.sampled_from(["YES", "NO", "INVALID"])),
    "verdict_confidence": (("verdict", "confidence_bps"), bps),
    "rule": (("verdict", "resolution_rule_id"), st.sampled_from(VERDICT_RULES)),
    "resolution_time": (("verdict", "resolution_time"), st.one_of(big_times, DROP)),
    "verdict_any": (("verdict", "?"), cbor_values),
    "trace_id": (("header", "trace_id"), st.sampled_from(["trace_forged", "trace_" + "0" * 16])),
    "policy": (("header", "policy", "?"), st.one_of(st.integers(1, 4_000_001), st.booleans())),
    "step_count": (("header", "step_count"), st.integers(0, 40)),
}


def edit(data: st.DataObject, root: Any, path: tuple[str, ...],
         values: st.SearchStrategy[Any]) -> None:
    """Set (or delete) the entry ``path`` addresses; a path that does not fit is a no-op."""
    node = root
    for depth, token in enumerate(path):
        if not isinstance(node, dict | list) or not node:
            return
        keys = sorted(node) if isinstance(node, dict) else list(range(len(node)))
        key: Any = data.draw(st.sampled_from(keys)) if token in ("*", "?") else token
        if key not in keys:
            return
        if depth < len(path) - 1:
            node = node[key]
            continue
        value = data.draw(values)
        if value is _GONE:
            del node[key]
        else:
            node[key] = value


def _content(data: st.DataObject, parts: Parts) -> None:
    items = parts["evidence"]
    item = items[data.draw(st.integers(0, len(items) - 1))] if items else {}
    content = item.get("content")
    if not isinstance(content, bytes):
        return
    edited = _mutate_json(data, content.decode("utf-8", "replace"))
    at = data.draw(st.integers(0, len(content)))
    item["content"] = data.draw(st.sampled_from([
        content[:at], content[:at] + b"\xff" + content[at:], content[:at] + b"\xed\xa0\x80",
        b"\xef\xbb\xbf" + content, content[:at] + b" \n\t" + content[at:],
        content[:at] + b"%.-0123456789e<>yesno"[at % 16:at % 16 + 3] + content[at + 1:],
        content if edited is None else edited.encode("utf-8", "surrogatepass")]))


def _items(data: st.DataObject, parts: Parts) -> None:
    items = parts["evidence"]
    if items:
        copy = dict(items[data.draw(st.integers(0, len(items) - 1))])
        if data.draw(st.booleans()):  # else: a duplicate evidence id
            copy["evidence_id"] = data.draw(st.sampled_from(["ev-new", "ev-zz", "a" * 128]))
        items.insert(data.draw(st.integers(0, len(items))), copy)
    items[:] = data.draw(st.permutations(items)) if data.draw(st.booleans()) else items


def _lists(data: st.DataObject, parts: Parts) -> None:
    spec = parts["spec"]
    market = spec.get("market")
    if isinstance(market, dict) and isinstance(market.get("allowed_sources"), list):
        market["allowed_sources"] = sorted({*market["allowed_sources"], data.draw(ids)})
    reqs = spec.get("data_requirements")
    for req in reqs if isinstance(reqs, list) and data.draw(st.booleans()) else []:
        if isinstance(req, dict) and isinstance(req.get("source_targets"), list):
            req["source_targets"].reverse()


def _steps(data: st.DataObject, parts: Parts) -> None:
    steps = parts["steps"]
    if steps:
        at = data.draw(st.integers(0, len(steps) - 1))
        steps.insert(at, dict(steps[at]) if data.draw(st.booleans()) else steps.pop())
    if data.draw(st.booleans()):
        parts["header"]["step_count"] = len(steps)


SPECIAL_INPUT: dict[str, Callable[[st.DataObject, Parts], None]] = {
    "content": _content, "items": _items, "lists": _lists}


def mutate(data: st.DataObject, parts: Parts, *, inputs: bool, count: tuple[int, int]) -> str:
    """Apply a few edits (input or output ones); return their names."""
    edits = INPUT_EDITS if inputs else OUTPUT_EDITS
    special = SPECIAL_INPUT if inputs else {"steps": _steps}
    names = data.draw(st.lists(st.sampled_from(sorted({*edits, *special})),
                               min_size=count[0], max_size=count[1]))
    for name in names:
        if name in special:
            special[name](data, parts)
        else:
            edit(data, parts, *edits[name])
    return " ".join(names)


# --- building X' and the oracle -----------------------------------------------------------

def decode_parts(bundle: Bundle) -> Parts:
    """Every record of ``bundle`` as a decoded por-cbor value."""
    return {"spec": decode(bundle.prompt_spec), "evidence": [decode(e) for e in bundle.evidence],
            "steps": [decode(s) for s in bundle.steps], "header": decode(bundle.trace_header),
            "verdict": decode(bundle.verdict)}


def rebuild_from(bundle: Bundle, parts: Parts) -> bytes:
    """``rebuild`` with every record re-encoded (unchanged records keep their bytes)."""
    records: dict[str, Any] = {
        "prompt_spec": encode(parts["spec"]), "evidence": [encode(e) for e in parts["evidence"]],
        "steps": [encode(s) for s in parts["steps"]], "trace_header": encode(parts["header"]),
        "verdict": encode(parts["verdict"])}
    try:
        DeterministicVerdict.from_cbor(records["verdict"])
    except PorError:  # an invalid verdict cannot have its references fixed
        return rebuild(bundle, fix_verdict=False, **records)
    return rebuild(bundle, **records)


def honest_inputs(data: bytes, bundle_id: str) -> tuple[PromptSpec, EvidenceBundle] | None:
    """The committed spec and evidence of ``data``, or None if they are not valid records."""
    bundle = Bundle.from_cbor(data)
    try:
        spec = PromptSpec.from_cbor(bundle.prompt_spec)
        items = [EvidenceItem.from_cbor(e) for e in bundle.evidence]
        return spec, EvidenceBundle(bundle_id=bundle_id, market_id=spec.market.market_id,
                                    items=items)
    except (PorError, ValueError):  # schema.* or duplicate evidence ids
        return None


def expected_bundle(data: bytes, bundle_id: str) -> bytes | None:
    """``build_bundle(spec', evidence')`` for the records committed in ``data``."""
    inputs = honest_inputs(data, bundle_id)
    return None if inputs is None else build_bundle(*inputs)


@st.composite
def mutated_bundles(draw: st.DrawFn) -> bytes:
    data = draw(st.data())
    name = draw(st.sampled_from(SCENARIOS))
    bundle = Bundle.from_cbor(base_bundle(name))
    parts = decode_parts(bundle)
    labels = [name]
    honest = draw(st.booleans())
    labels.append(mutate(data, parts, inputs=True, count=(0, 3)))
    if honest:
        inputs = honest_inputs(rebuild_from(bundle, parts), "mutated")
        if inputs is not None:
            bundle = Bundle.from_cbor(build_bundle(*inputs))
            parts = decode_parts(bundle)
            labels.append("honest")
    labels.append(mutate(data, parts, inputs=False, count=(0, 2)))
    note(" ".join(labels))
    return rebuild_from(bundle, parts)


def assert_oracle(data: bytes, bundle_id: str) -> str:
    """Check the oracle (module docstring) for ``data``; return the status."""
    report = check_bundle(data)  # must not raise
    failure = report.first_failure
    shown = failure and (failure.check_id, failure.message)
    assert report.status != "error", shown
    expected = expected_bundle(data, bundle_id)
    assert (report.status == "verified") == (expected == data), (report.status, shown)
    if report.status != "verified":
        assert_challenges_verify(report.checks, data)
    return report.status


def assert_challenges_verify(checks: list[Any], data: bytes) -> None:
    """Every proof ``por verify --challenges`` would write is valid against the
    bundle's por_root and won by the challenger (SPEC §10.1); the fallback
    proof of ``proof_for_ref`` is at least valid."""
    bundle = bundle_from_bytes(data)
    for ref in [c.challenge for c in checks if not c.ok and c.challenge is not None]:
        found = winning_proof(bundle, ref)
        if not isinstance(found, NoProof):
            report = check_proof(found[0].to_cbor(), por_root=bundle.commitments.por_root)
            assert (report.status, report.won, report.exit_code) == ("valid", True, 0), (
                ref, report.message)
        try:
            proof = proof_for_ref(bundle, ref)
        except PorError:
            continue
        report = check_proof(proof.to_cbor(), por_root=bundle.commitments.por_root)
        assert (report.status, report.check_id) == ("valid", "proof.ok"), (
            ref, report.message)


@settings(max_examples=EXAMPLES)
@given(mutated_bundles(), st.sampled_from(["b", "committed", "bundle-x" * 16]))
def test_verified_iff_equal_to_the_honest_build(data: bytes, bundle_id: str) -> None:
    status = assert_oracle(data, bundle_id)
    event(status)


@settings(max_examples=EXAMPLES)
@given(st.data())
def test_honest_builds_of_mutated_inputs_verify(data: st.DataObject) -> None:
    # The "if" direction on its own: every buildable input set verifies, and the
    # builder's bytes do not depend on the EvidenceBundle's bundle_id.
    name = data.draw(st.sampled_from(SCENARIOS))
    bundle = Bundle.from_cbor(base_bundle(name))
    parts = decode_parts(bundle)
    note(mutate(data, parts, inputs=True, count=(1, 3)))
    mutated = rebuild_from(bundle, parts)
    first = honest_inputs(mutated, "one")
    second = honest_inputs(mutated, "another-bundle-id")
    if first is None or second is None:
        assert check_bundle(mutated).status == "rejected"
        return
    built = build_bundle(*first)
    assert build_bundle(*second) == built
    report = check_bundle(built)
    assert report.status == "verified", report.first_failure
    assert report.outcome == DeterministicVerdict.from_cbor(
        Bundle.from_cbor(built).verdict).outcome


def test_every_scenario_verifies_and_is_its_own_honest_build() -> None:
    for name in SCENARIOS:
        assert assert_oracle(base_bundle(name), "any") == "verified", name


@settings(max_examples=EXAMPLES // 2)
@given(st.data())
def test_one_step_replay_agrees_with_the_auditor(data: st.DataObject) -> None:
    # For an honest build of mutated inputs, re-executing any single step from
    # its one-step proof (SPEC §10.5) gives back the committed step: an honest
    # bundle can never lose a challenge.
    name = data.draw(st.sampled_from(SCENARIOS))
    bundle = Bundle.from_cbor(base_bundle(name))
    parts = decode_parts(bundle)
    note(mutate(data, parts, inputs=True, count=(0, 3)))
    inputs = honest_inputs(rebuild_from(bundle, parts), "any")
    assume(inputs is not None)
    assert inputs is not None
    built = Bundle.from_cbor(build_bundle(*inputs))
    for index in range(len(built.steps)):
        report = check_proof(build_one_step_proof(built, index).to_cbor(),
                             por_root=built.commitments.por_root)
        assert (report.status, report.check_id) == ("valid", "proof.ok"), report.message
        assert report.outcome is not None
        assert (report.outcome.outcome, report.outcome.reason) == (
            "lost", "one_step.match"), (index, report.outcome.message)
