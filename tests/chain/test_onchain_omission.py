"""The OmissionProof checked on chain (SPEC §10.2.4, §14.8) agrees with ``por check-proof``.

``PorOmissionExec.check`` (the committed build, in revm) and the Python library get the
same ``por.OmissionProof/2`` bytes and must give the same WON/LOST and check id
(``omission.uncited_item``, ``omission.extract_position``, ``one_step.invalid_record``,
``omission.cited``, ``omission.not_a_check``, ``omission.other_requirement``,
``omission.other_chunk``, or the ``proof.*``/``merkle.*`` id of an invalid proof).

Cases, per fixture market, per generated market (``test_citation_properties.markets``)
and on a market of 23 items of one requirement (three check
chunks): every (step leaf, item) pair, once with the item's extract step (step leaf j,
which stands for the item only when it is the extract step at its own position, else
``proof.citations``) and once with the item itself (the position rules 2-3); forged
bundles, each recommitted (every commitment recomputed, as a forger can): the trace of
all items but one committed with every item (the chain of chunks or the aggregate
leaves it out); a check chunk's or aggregate's ``from_leaf``/``last_leaf`` set to
every edge (absent, negative, 0, the item's leaf and its neighbours, 2^64 - 1, not an
integer) and its citations cut, grown or rewritten; an extract step's position, kind,
type, citations and output ids edited; a step past the extract steps made an
``extract_claims`` step; extract steps swapped; leaves that are not valid records;
parts of the wrong kind; and seeded byte flips of honest proofs that still pass the
§2 reader. At least 2 500 proofs are compared (``test_omission_case_count``, last).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from bundle_edits import audited_on, recommit
from exec_support import CODE_LIMIT, ExecChecker, deployed_size, generated_cases, generated_market
from proof_check_support import ProofChecker, python_answer

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.challenge.batch import ComponentTree
from por.challenge.records import OmissionProof, seal
from por.encoding import decode, encode
from por.errors import PorError
from por.scenarios import load_scenario
from por.schemas import EvidenceBundle

ROOT = Path(__file__).resolve().parents[2]
MARKETS = sorted(p for p in (ROOT / "fixtures" / "bundles" / "valid").glob("*.cbor")
                 if ".signed" not in p.name)
COUNTS: Counter[str] = Counter()
#: Forged bundles drawn per market (seeded) from all its edits.
PER_MARKET = 8
#: Forgeries every market gets (rules 2-3, records that are not valid).
ALWAYS = ("past.extract", "past.extract.kind", "swap.extracts", "invalid.item",
          "invalid.extra.0", "extract.cites.0")
#: Items of the large market (scenario 08's three sources repeated): chunks of 10, 10, 3.
LARGE = 23
Edit = Callable[[Bundle], Bundle | None]


@pytest.fixture(scope="module")
def chain() -> ExecChecker:
    return ExecChecker("PorOmissionExec", entry="check(bytes)")


class Prover:
    """OmissionProofs of one bundle, any (step, carried part) a challenger may send."""

    def __init__(self, bundle: Bundle) -> None:
        commitments = bundle.commitments
        self.bundle = bundle
        self.steps = ComponentTree("reasoning_leaf", bundle.steps, commitments)
        self.evidence = ComponentTree("evidence_leaf", bundle.evidence, commitments)
        self.por_root = commitments.por_root

    def proof(self, step: int, index: int, carried: str) -> bytes:
        """Step leaf ``step`` with, as its evidence part, step leaf ``index``
        (``carried`` reasoning_leaf: the extract step) or evidence leaf ``index``."""
        tree = self.steps if carried == "reasoning_leaf" else self.evidence
        body = {"schema": OmissionProof.SCHEMA, "kind": "reasoning_leaf",
                "por_root": self.por_root, "step": self.steps.proof(step).to_dict(),
                "evidence": tree.proof(index).to_dict()}
        return bytes(seal(OmissionProof, body).to_cbor())

    def pairs(self, steps: list[int] | None = None) -> Iterator[tuple[str, bytes]]:
        """Each step of ``steps`` (default all) with every item, in both forms."""
        count = len(self.bundle.evidence)
        for step in range(len(self.bundle.steps)) if steps is None else steps:
            for index in range(count):
                yield f"item.{step}.{index}", self.proof(step, index, "evidence_leaf")
                if index < len(self.bundle.steps):
                    yield f"extract.{step}.{index}", self.proof(step, index, "reasoning_leaf")


def large_market(count: int = LARGE, keep: int | None = None) -> Bundle:
    """Scenario 08 over ``count`` items (ids ``ev-NNNNNN``), audited on the first
    ``keep`` of them (default all) while every item is committed."""
    scenario = load_scenario("08-quorum-agree")
    base = list(scenario.evidence.items)
    items = [base[k % len(base)].model_copy(update={"evidence_id": f"ev-{k:06d}"})
             for k in range(count)]
    seen = items if keep is None else items[:keep]
    evidence = EvidenceBundle(bundle_id=scenario.evidence.bundle_id,
                              market_id=scenario.evidence.market_id, items=seen)
    bundle = bundle_from_bytes(build(scenario.prompt_spec, evidence).data)
    if keep is None:
        return bundle
    return recommit(bundle, evidence=[item.to_cbor() for item in items])


def _step(bundle: Bundle, index: int) -> dict[str, Any]:
    value: dict[str, Any] = decode(bundle.steps[index])
    return value


def _with_step(index: int, edit: Callable[[dict[str, Any]], None]) -> Edit:
    """The bundle with step leaf ``index``'s map edited (any bytes: a forger's)."""
    def make(bundle: Bundle) -> Bundle | None:
        if index >= len(bundle.steps):
            return None
        step = _step(bundle, index)
        edit(step)
        steps = list(bundle.steps)
        steps[index] = encode(step)
        return recommit(bundle, steps=steps)
    return make


def _kinds(bundle: Bundle) -> dict[str, list[int]]:
    """Step leaves by inputs.kind."""
    found: dict[str, list[int]] = {}
    for index in range(len(bundle.steps)):
        kind = _step(bundle, index).get("inputs", {}).get("kind")
        found.setdefault(str(kind), []).append(index)
    return found


#: Values a forger may put in from_leaf / last_leaf, relative to item leaf j (None: drop).
def _leaf_values(j: int) -> list[Any]:
    return [None, -1, -(2**64), 0, j - 1, j, j + 1, 2**63 - 1, 2**64 - 1, "3", True, [j]]


def _set_output(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(step: dict[str, Any]) -> None:
        if value is None:
            step["output"].pop(key, None)
        else:
            step["output"][key] = value
    return edit


def _set(path: tuple[str, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(step: dict[str, Any]) -> None:
        target = step
        for key in path[:-1]:
            target = target[key]
        if value is None:
            target.pop(path[-1], None)
        else:
            target[path[-1]] = value
    return edit


def edits(bundle: Bundle, rng: random.Random) -> dict[str, tuple[Edit, list[int]]]:
    """Forged bundles of ``bundle``: name -> (edit, the step leaves whose pairs to try)."""
    kinds = _kinds(bundle)
    n = len(bundle.evidence)
    table: dict[str, tuple[Edit, list[int]]] = {}
    spans = kinds.get("check_requirement", []) + kinds.get("aggregate", [])
    for index in spans:
        j = rng.randrange(max(n, 1))
        for key in ("from_leaf", "last_leaf"):
            for value in _leaf_values(j):
                table[f"{key}.{index}.{value!r}"] = (_with_step(index, _set_output(key, value)),
                                                     [index])
        cited = list(_step(bundle, index).get("evidence_ids", []))
        table[f"cite.none.{index}"] = (_with_step(index, _set(("evidence_ids",), [])), [index])
        table[f"cite.drop.{index}"] = (_with_step(index, _set(("evidence_ids",), cited[1:])),
                                       [index])
        padded = (cited + [f"ev-pad-{k}" for k in range(10)])[:10]
        table[f"cite.ten.{index}"] = (_with_step(index, _set(("evidence_ids",), padded)),
                                      [index])
        table[f"requirement.{index}"] = (
            _with_step(index, _set(("inputs", "requirement_id"), "other")), [index])
        table[f"requirement.int.{index}"] = (
            _with_step(index, _set(("inputs", "requirement_id"), 7)), [index])
        table[f"requirement.none.{index}"] = (
            _with_step(index, _set(("inputs", "requirement_id"), None)), [index])
    for j in range(min(n, len(bundle.steps))):
        table[f"extract.id.{j}"] = (_with_step(j, _set(("step_id",), "step_9999")), [j])
        table[f"extract.type.{j}"] = (_with_step(j, _set(("step_type",), "check")), [j])
        table[f"extract.kind.{j}"] = (_with_step(j, _set(("inputs", "kind"), "deduce")), [j])
        table[f"extract.kind.int.{j}"] = (_with_step(j, _set(("inputs", "kind"), 3)), [j])
        table[f"extract.cites.{j}"] = (_with_step(j, _set(("evidence_ids",), ["ev-other"])),
                                       [j, *spans[:1]])
        table[f"extract.cites.two.{j}"] = (
            _with_step(j, lambda s: s.update(evidence_ids=s["evidence_ids"] * 2)), [j])
        table[f"extract.eid.{j}"] = (_with_step(j, _set(("output", "evidence_id"), None)), [j])
        table[f"extract.eid.int.{j}"] = (_with_step(j, _set(("output", "evidence_id"), 5)),
                                         [j])
        table[f"extract.rid.{j}"] = (_with_step(j, _set(("output", "requirement_id"), "zz")),
                                     [j, *spans[:2]])
        table[f"extract.rid.none.{j}"] = (
            _with_step(j, _set(("output", "requirement_id"), None)), [j, *spans[:1]])
        table[f"invalid.extra.{j}"] = (_with_step(j, _set(("extra",), 1)), [j, *spans[:1]])
        table[f"invalid.bytes.{j}"] = (_with_step(j, _set(("output", "blob"), b"\x00")),
                                       [j, *spans[:1]])
    last = len(bundle.steps) - 1
    table["past.extract"] = (_with_step(last, lambda s: s.update(
        step_type="extract", inputs={"kind": "extract_claims"})), [last])
    table["past.extract.kind"] = (_with_step(last, _set(("inputs", "kind"), "extract_claims")),
                                  [last])
    if n >= 2:
        def swap(b: Bundle) -> Bundle:
            steps = list(b.steps)
            steps[0], steps[1] = steps[1], steps[0]
            return recommit(b, steps=steps)
        table["swap.extracts"] = (swap, [0, 1, *spans[:1]])
        table["invalid.item"] = (lambda b: recommit(b, evidence=[b"\xa1\x61x\x01",
                                                                 *b.evidence[1:]]),
                                 [0, *spans[:1]])
    return table


def flips(proof: bytes, rng: random.Random, count: int) -> Iterator[tuple[str, bytes]]:
    """Seeded bit flips of ``proof`` that still pass the §2 reader."""
    for k in range(count):
        data = bytearray(proof)
        for _ in range(1 + k % 3):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        try:
            decode(bytes(data))
        except PorError:
            continue
        yield f"flip.{k}", bytes(data)


def wrong_kind(prover: Prover) -> Iterator[tuple[str, bytes]]:
    """Parts of the wrong kind (``proof.kind``) and a proof of another kind."""
    steps, evidence = prover.steps.proof(0).to_dict(), prover.evidence.proof(0).to_dict()
    for name, step, part in (("kind.step", evidence, evidence), ("kind.both", steps, steps)):
        body = {"schema": OmissionProof.SCHEMA, "kind": "reasoning_leaf",
                "por_root": prover.por_root, "step": step, "evidence": part}
        try:
            yield name, bytes(seal(OmissionProof, body).to_cbor())
        except PorError:
            continue
    body = {"schema": OmissionProof.SCHEMA, "kind": "evidence_leaf",
            "por_root": prover.por_root, "step": steps, "evidence": evidence}
    yield "kind.proof", encode({**body, "challenge_id": b"\x00" * 32})


def cases(bundle: Bundle, rng: random.Random) -> Iterator[tuple[str, bytes]]:
    """Every pair of the honest bundle, a seeded sample of its forgeries, flips (none
    without an item: an OmissionProof carries one)."""
    if not bundle.evidence:
        return
    prover = Prover(bundle)
    honest = list(prover.pairs())
    yield from honest
    yield from wrong_kind(prover)
    table = edits(bundle, rng)
    drawn = [k for k in sorted(table) if k not in ALWAYS]
    for name in [k for k in ALWAYS if k in table] + rng.sample(drawn, min(PER_MARKET, len(drawn))):
        make, steps = table[name]
        forged = make(bundle)
        if forged is None:
            continue
        for case, proof in Prover(forged).pairs(steps):
            yield f"{name}.{case}", proof
    for k in range(3):
        yield from flips(honest[rng.randrange(len(honest))][1], rng, 2 + k)


def compare(chain: ExecChecker, name: str, proof: bytes) -> None:
    python = python_answer(proof)
    won, check_id, _gas = chain.execute(proof)
    assert (won, check_id) == python, f"{name} {proof.hex()[:400]}"
    COUNTS[f"{'won' if won else 'lost'}:{check_id}"] += 1


def test_deployed_size() -> None:
    """EIP-170 bounds the executor."""
    assert deployed_size("PorOmissionExec") <= CODE_LIMIT


@pytest.mark.parametrize("path", MARKETS, ids=[p.stem for p in MARKETS])
def test_omission_proofs_agree(chain: ExecChecker, path: Path) -> None:
    """Every case of the market: the chain's (won, id) is Python's."""
    rng = random.Random(path.name)  # noqa: S311 - seeded cases, not secrets
    for name, proof in cases(bundle_from_bytes(path.read_bytes()), rng):
        compare(chain, f"{path.stem} {name}", proof)


@generated_cases(12)
def test_generated_markets_agree(case: Any, seed: int) -> None:
    """Generated markets (1-3 requirements, tests/properties): the same cases."""
    chain = _generated_chain()

    def exercise(bundle: Bundle, rng: random.Random, _forged: int) -> None:
        for name, proof in cases(bundle, rng):
            compare(chain, f"generated {name}", proof)

    generated_market(exercise, case, seed, PER_MARKET)


@cache
def _generated_chain() -> ExecChecker:
    return ExecChecker("PorOmissionExec", entry="check(bytes)")


@cache
def _large() -> tuple[Bundle, Bundle]:
    return large_market(), large_market(keep=LARGE - 1)


def test_chunks_agree(chain: ExecChecker) -> None:
    """Three chunks of one requirement: the chunk and aggregate steps with every item,
    honest, with the last item left out of the trace, and with their spans forged."""
    rng = random.Random(LARGE)  # noqa: S311 - seeded cases, not secrets
    honest, omitting = _large()
    for label, bundle in (("honest", honest), ("omitting", omitting)):
        kinds = _kinds(bundle)
        spans = kinds["check_requirement"] + kinds["aggregate"]
        prover = Prover(bundle)
        for name, proof in prover.pairs([*spans, 0, LARGE, len(bundle.steps) - 1]):
            compare(chain, f"{label} {name}", proof)
        table = edits(bundle, rng)
        chosen = [k for k in sorted(table) if k.startswith(("from_leaf", "last_leaf", "cite"))]
        for name in rng.sample(chosen, 12):
            make, steps = table[name]
            forged = make(bundle)
            if forged is not None:
                for case, proof in Prover(forged).pairs(steps):
                    compare(chain, f"{label} {name} {case}", proof)


def test_dropped_items_agree(chain: ExecChecker) -> None:
    """Fixture markets audited on all items but one, every item committed; each proof
    also through the router (``PorProofCheck.checkProof``, the registry's call)."""
    router = ProofChecker()
    for name in ("01-boolean-observed", "08-quorum-agree", "09-conflict-invalid",
                 "11-fallback-chain", "50-commodities-per-source-quorum"):
        count = len(load_scenario(name).evidence.items)
        for drop in range(count):
            keep = [k for k in range(count) if k != drop]
            prover = Prover(audited_on(name, keep))
            for case, proof in prover.pairs():
                compare(chain, f"{name} drop {drop} {case}", proof)
                assert router.any_proof(proof)[:2] == python_answer(proof), (name, case)


def test_omission_case_count() -> None:
    """Runs last: enough proofs were compared, with every outcome an omission proof has."""
    total = sum(COUNTS.values())
    if total == 0:
        pytest.skip("run with the whole module")
    print(f"\n{total} OmissionProofs compared: {dict(sorted(COUNTS.items()))}")
    assert total >= 2500, COUNTS
    for wanted, minimum in (("won:omission.uncited_item", 50),
                            ("won:omission.extract_position", 50),
                            ("won:one_step.invalid_record", 20),
                            ("lost:omission.cited", 50), ("lost:omission.not_a_check", 200),
                            ("lost:omission.other_requirement", 20),
                            ("lost:omission.other_chunk", 20), ("lost:proof.citations", 50),
                            ("lost:proof.kind", 10), ("lost:proof.schema", 10)):
        assert COUNTS[wanted] >= minimum, (wanted, COUNTS)
