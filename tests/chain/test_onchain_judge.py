"""The JudgeProof checked on chain (SPEC §10.2.5, §14.8) agrees with ``por check-proof``.

``PorJudgeExec.check`` (the committed build, in revm) and the Python library get the same
``por.JudgeProof/1`` bytes and must give the same WON/LOST and check id (``judge.match``,
``judge.mismatch``, ``judge.final_step``, ``one_step.invalid_record``, or the
``proof.*``/``merkle.*`` id of an invalid proof).

Cases, per fixture market (every predicate; YES, NO and INVALID by every rule), each
bundle recommitted (every commitment recomputed, as a forger can): the honest verdict;
forged verdicts (outcome x rule, confidence off by one and at the ends, market id,
resolution time changed or dropped); the final map step's variables edited (each flag,
``event_observed``, ``numeric_value`` at and around the predicate's bounds,
``timestamp`` at and beyond the slack-widened window, ``source_summary`` reordered or
cut); the PromptSpec edited where the judge reads it (``on_conflict``, every confidence
factor, the minimum at the recomputed confidence, comparison, threshold, range ends and
inclusivity, tiers, slack, window, the rule list, strict mode, schema ref); each
map-step or PromptSpec edit both with the old verdict (usually a lie) and with the
judge's verdict on the edited bundle (a consistent rewrite: lost); PromptSpec fields the
judge reads made malformed; malformed extract cards; a last leaf that is not a map step;
and seeded byte flips of honest proofs that still pass the §2 reader.  At least 2 500
proofs are compared (``test_judge_case_count``, last).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from bundle_edits import recommit
from exec_support import ExecChecker, judge_proof, judge_proof_carrying, rejudged
from proof_check_support import python_answer

from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.encoding import decode, encode
from por.errors import PorError
from por.numbers import format_decimal
from por.schemas import DeterministicVerdict, PromptSpec, ReasoningStep

ROOT = Path(__file__).resolve().parents[2]
MARKETS = sorted(p for p in (ROOT / "fixtures" / "bundles" / "valid").glob("*.cbor")
                 if ".signed" not in p.name)
COUNTS: Counter[str] = Counter()
#: Cases drawn per market (seeded) from all its edits; the honest proof always runs.
PER_MARKET = 40
Edit = Callable[[Bundle], Bundle | None]


@pytest.fixture(scope="module")
def chain() -> ExecChecker:
    return ExecChecker("PorJudgeExec", entry="check(bytes)")


def _spec(bundle: Bundle) -> dict[str, Any]:
    spec: dict[str, Any] = decode(bundle.prompt_spec)
    return spec


def _with_spec(edit: Callable[[dict[str, Any]], None], *, valid: bool = True) -> Edit:
    """The bundle with its PromptSpec's map edited (None if ``valid`` and the edit makes
    an invalid PromptSpec: only read fields are made malformed on purpose)."""
    def make(bundle: Bundle) -> Bundle | None:
        spec = _spec(bundle)
        edit(spec)
        data = encode(spec)
        try:
            PromptSpec.from_cbor(data)
        except PorError:
            if valid:
                return None
        return recommit(bundle, prompt_spec=data)
    return make


def _with_map(edit: Callable[[dict[str, Any]], None]) -> Edit:
    """The bundle with its last step's evaluation variables edited."""
    def make(bundle: Bundle) -> Bundle | None:
        steps = list(bundle.steps)
        last = ReasoningStep.from_cbor(steps[-1])
        variables = last.output.get("evaluation_variables")
        if not isinstance(variables, dict):
            return None
        variables = dict(variables)
        edit(variables)
        output = {**last.output, "evaluation_variables": variables}
        steps[-1] = last.model_copy(update={"output": output}).to_cbor()
        return recommit(bundle, steps=steps)
    return make


def _with_verdict(**changes: Any) -> Edit:
    def make(bundle: Bundle) -> Bundle:
        verdict = DeterministicVerdict.from_cbor(bundle.verdict)
        return recommit(bundle, verdict=verdict.model_copy(update=changes).to_cbor())
    return make


def _with_card(key: str, value: Any) -> Edit:
    """The first cited extract step's card (or output field) changed (None: dropped)."""
    def make(bundle: Bundle) -> Bundle | None:
        steps = list(bundle.steps)
        step = ReasoningStep.from_cbor(steps[0])
        output = dict(step.output)
        card = dict(output.get("card", {}))
        target = card if key in card or key == "extra" else output
        if value is None:
            target.pop(key, None)
        else:
            target[key] = value
        output["card"] = card
        steps[0] = step.model_copy(update={"output": output}).to_cbor()
        return recommit(bundle, steps=steps)
    return make


def _last_not_map(kind: str) -> Edit:
    def make(bundle: Bundle) -> Bundle:
        steps = list(bundle.steps)
        last = ReasoningStep.from_cbor(steps[-1])
        if kind == "retyped":
            steps[-1] = last.model_copy(update={"step_type": "deduce"}).to_cbor()
        else:
            steps.append(last.model_copy(update={
                "step_id": f"step_{len(steps) + 1:04d}", "step_type": "aggregate"}).to_cbor())
        return recommit(bundle, steps=steps)
    return make


def _set(path: tuple[str, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    """Set (None: drop) the entry at ``path`` ("*" for every element of a list)."""
    def edit(node: Any, rest: tuple[str, ...] = path) -> None:
        head, tail = rest[0], rest[1:]
        if head == "*":
            for item in node:
                edit(item, tail)
        elif tail:
            edit(node.setdefault(head, {}), tail)
        elif value is None:
            node.pop(head, None)
        else:
            node[head] = value
    return edit


def _near(text: str) -> list[str]:
    """Canonical decimals at and around ``text`` (a hair and a unit either side)."""
    v = Decimal(text)
    steps = (Decimal("1"), Decimal("0.01"), Decimal("1e-30"))
    return [text, *(format_decimal(v + s) for s in steps), *(format_decimal(v - s) for s in steps)]


def edits(bundle: Bundle) -> dict[str, Edit]:
    """Every edit of ``bundle`` this test knows (some return None: not applicable)."""
    spec = _spec(bundle)
    sem = spec["prediction_semantics"]
    window = spec["market"]["resolution_window"]
    slack = spec.get("timestamp_slack_seconds", 0)
    verdict = DeterministicVerdict.from_cbor(bundle.verdict)
    out: dict[str, Edit] = {}
    for outcome in ("YES", "NO", "INVALID"):
        for rule in ("R_VALIDITY", "R_CONFLICT", "R_BINARY_DECISION", "R_CONFIDENCE",
                     "R_INVALID_FALLBACK"):
            out[f"verdict.{outcome}.{rule}"] = _with_verdict(outcome=outcome,
                                                             resolution_rule_id=rule)
    c = verdict.confidence_bps
    for value in {c - 1, c + 1, 0, 10_000} - {-1, 10_001}:
        out[f"verdict.confidence.{value}"] = _with_verdict(confidence_bps=value)
    out["verdict.market"] = _with_verdict(market_id="another-market")
    out["verdict.time+1"] = _with_verdict(resolution_time=window["end"] + 1)
    out["verdict.time.none"] = _with_verdict(resolution_time=None)

    variable_edits: dict[str, Callable[[dict[str, Any]], None]] = {}
    for flag in ("conflict_detected", "insufficient_evidence", "fallback_used", "provenance_ok"):
        variable_edits[f"{flag}.flip"] = lambda v, f=flag: v.__setitem__(f, not v[f])
    for value in (True, False, None):
        variable_edits[f"event_observed.{value}"] = _set(("event_observed",), value)
    bounds = [sem[k] for k in ("threshold", "lower", "upper") if k in sem] or ["0"]
    for bound in bounds:
        for near in _near(bound):
            variable_edits[f"numeric_value.{near}"] = _set(("numeric_value",), near)
    variable_edits["numeric_value.none"] = _set(("numeric_value",), None)
    for long in ("9" * 64, "-" + "9" * 63, "0." + "0" * 61 + "1", "-0." + "0" * 60 + "1"):
        variable_edits[f"numeric_value.{len(long)}chars.{long[0]}"] = _set(("numeric_value",),
                                                                         long)
    start, end = window["start"], window["end"]
    for stamp in (max(0, start - slack) - 1, max(0, start - slack), end + slack,
                  end + slack + 1, 0, None):
        if stamp is None or stamp >= 0:
            variable_edits[f"timestamp.{stamp}"] = _set(("timestamp",), stamp)
    variable_edits["source_summary.reversed"] = lambda v: v.__setitem__(
        "source_summary", list(reversed(v["source_summary"])))
    variable_edits["source_summary.cut"] = lambda v: v.__setitem__(
        "source_summary", v["source_summary"][:-1])
    variable_edits["conflict.and.fallback"] = lambda v: v.update(
        conflict_detected=True, fallback_used=True)
    for name, edit in variable_edits.items():
        out[f"map.{name}"] = _with_map(edit)

    policy = ("confidence_policy",)
    spec_edits: dict[str, Callable[[dict[str, Any]], None]] = {
        "on_conflict.continue": _set(("conflict_policy", "on_conflict"), "continue"),
        "on_conflict.invalid": _set(("conflict_policy", "on_conflict"), "invalid"),
        "policy.none": _set(policy, None),
        "strict_mode.false": _set(("strict_mode",), False),
        "schema_ref.other": _set(("output_schema_ref",), "por.Other/1"),
        "slack.0": _set(("timestamp_slack_seconds",), 0),
        "slack.big": _set(("timestamp_slack_seconds",), 10**9),
        "window.shift": _set(("market", "resolution_window", "start"), window["end"]),
        "rules.reversed": lambda s: s["market"]["resolution_rules"].__setitem__(
            "rules", list(reversed(s["market"]["resolution_rules"]["rules"]))),
        "rules.unknown": _set(("market", "resolution_rules", "rules", "*", "rule_id"),
                              "R_SOMETHING"),
        "rules.first": lambda s: s["market"]["resolution_rules"].__setitem__(
            "rules", s["market"]["resolution_rules"]["rules"][:1]),
    }
    for factor in ("default_confidence_bps", "min_confidence_for_yesno_bps",
                   "conflict_factor_bps", "fallback_factor_bps", "invalid_confidence_bps"):
        for value in (0, 5000, 10_000, c, c + 1):
            if value <= 10_000:
                spec_edits[f"{factor}.{value}"] = _set((*policy, factor), value)
    for tier in range(4):
        spec_edits[f"tier.{tier}"] = _set(("data_requirements", "*", "min_provenance_tier"),
                                          tier)
    if "comparison" in sem:
        for comparison in (">", ">=", "<", "<=", "=="):
            spec_edits[f"comparison.{comparison}"] = _set(
                ("prediction_semantics", "comparison"), comparison)
    value = _map_value(bundle, "numeric_value")
    for key in ("threshold", "lower", "upper"):
        if key in sem and isinstance(value, str):
            for near in _near(value):
                spec_edits[f"{key}.{near}"] = _set(("prediction_semantics", key), near)
    if sem["predicate"] == "numeric_range":
        for key in ("lower_inclusive", "upper_inclusive"):
            for flag in (True, False, None):
                spec_edits[f"{key}.{flag}"] = _set(("prediction_semantics", key), flag)
    if sem["predicate"] in ("event_observed", "text_equals", "timestamp_threshold"):
        spec_edits["absent_means_no"] = _set(("prediction_semantics", "absent_means_no"), True)
    for name, edit in spec_edits.items():
        out[f"spec.{name}"] = _with_spec(edit)

    malformed: dict[str, Callable[[dict[str, Any]], None]] = {
        "threshold.1.50": _set(("prediction_semantics", "threshold"), "1.50"),
        "threshold.int": _set(("prediction_semantics", "threshold"), 5),
        "strict_mode.int": _set(("strict_mode",), 1),
        "schema_ref.int": _set(("output_schema_ref",), 7),
        "on_conflict.maybe": _set(("conflict_policy", "on_conflict"), "maybe"),
        "default.10001": _set((*policy, "default_confidence_bps"), 10_001),
        "min.text": _set((*policy, "min_confidence_for_yesno_bps"), "5500"),
        "tier.4": _set(("data_requirements", "*", "min_provenance_tier"), 4),
        "slack.negative": _set(("timestamp_slack_seconds",), -1),
        "start.text": _set(("market", "resolution_window", "start"), "0"),
        "end.before.start": _set(("market", "resolution_window", "end"), 0),
        "predicate.unknown": _set(("prediction_semantics", "predicate"), "numeric_guess"),
        "comparison.ne": _set(("prediction_semantics", "comparison"), "!="),
        "market_id.empty": _set(("market", "market_id"), ""),
        "rule_id.int": _set(("market", "resolution_rules", "rules", "*", "rule_id"), 3),
        "rules.empty": _set(("market", "resolution_rules", "rules"), []),
        "requirement_id.int": _set(("data_requirements", "*", "requirement_id"), 9),
    }
    for name, edit in malformed.items():
        out[f"malformed.{name}"] = _with_spec(edit, valid=False)

    for key, value in (("confidence_bps", 10_001), ("provenance_tier", 4),
                       ("status_code", 99), ("source_id", None), ("source_id", 5),
                       ("extra", 1), ("retrieved_at", -1), ("requirement_id", 5),
                       ("requirement_id", None)):
        out[f"card.{key}.{value}"] = _with_card(key, value)
    out["last.retyped"] = _last_not_map("retyped")
    out["last.appended"] = _last_not_map("appended")
    return out


def _map_value(bundle: Bundle, key: str) -> Any:
    last = ReasoningStep.from_cbor(bundle.steps[-1])
    variables = last.output.get("evaluation_variables")
    return variables.get(key) if isinstance(variables, dict) else None


#: Edits that get a second case with the judge's verdict on the edited bundle.
CONSISTENT = ("map.", "spec.")


def cases(path: Path) -> Iterator[tuple[str, bytes]]:
    """(name, JudgeProof bytes) for market ``path``: the honest proof, then a seeded
    sample of its edits (each map/spec edit also rejudged), then byte flips."""
    bundle = bundle_from_bytes(path.read_bytes())
    honest = judge_proof(bundle)
    yield "honest", honest
    rng = random.Random(path.name)  # noqa: S311 - seeded cases, not secrets
    table = edits(bundle)
    names = sorted(table)
    for name in rng.sample(names, min(PER_MARKET, len(names))):
        edited = table[name](bundle)
        if edited is None:
            continue
        try:
            yield name, judge_proof(edited)
        except PorError:
            continue  # the builder refuses (a source_summary id no leaf carries)
        if name.startswith(CONSISTENT):
            again = rejudged(edited)
            if again is not None:
                yield f"{name}.rejudged", judge_proof(again)
    yield from carrying(bundle)
    for k in range(6):
        data = bytearray(honest)
        for _ in range(1 + k % 3):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        try:
            decode(bytes(data))
        except PorError:
            continue  # the §2 reader refuses it before any proof check
        yield f"flip.{k}", bytes(data)


def carrying(bundle: Bundle) -> Iterator[tuple[str, bytes]]:
    """Extract parts a challenger chose: none, the wrong leaves, a step that is not an
    extract step (standing for the id "", which a forged source_summary may name)."""
    n = len(bundle.steps)
    evidence = DeterministicVerdict.from_cbor(bundle.verdict).evidence_count
    yield "carry.none", judge_proof_carrying(bundle, [])
    yield "carry.first.twice", judge_proof_carrying(bundle, [0, 0])
    yield "carry.check", judge_proof_carrying(bundle, [evidence])
    stand_in = _with_map(_set(("source_summary",), [""]))(bundle)
    if stand_in is not None:
        yield "carry.stand_in", judge_proof_carrying(stand_in, [evidence])
        yield "carry.stand_in.extract", judge_proof_carrying(stand_in, [0])
        yield "carry.stand_in.last", judge_proof_carrying(stand_in, [n - 1])


@pytest.mark.parametrize("path", MARKETS, ids=[p.stem for p in MARKETS])
def test_judge_proofs_agree(chain: ExecChecker, path: Path) -> None:
    """Every case of the market: the chain's (won, id) is Python's."""
    for name, proof in cases(path):
        python = python_answer(proof)
        won, check_id, _gas = chain.execute(proof)
        assert (won, check_id) == python, f"{path.stem} {name}"
        COUNTS[f"{'won' if won else 'lost'}:{check_id}"] += 1


def test_judge_case_count() -> None:
    """Runs last: enough proofs were compared, with every outcome the judge can give."""
    total = sum(COUNTS.values())
    if total == 0:
        pytest.skip("run with the whole module")
    print(f"\n{total} JudgeProofs compared: {dict(sorted(COUNTS.items()))}")
    assert total >= 2500, COUNTS
    for wanted in ("lost:judge.match", "won:judge.mismatch", "won:judge.final_step",
                   "won:one_step.invalid_record"):
        assert COUNTS[wanted] > 0, COUNTS
