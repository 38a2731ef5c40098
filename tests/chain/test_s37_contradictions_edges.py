"""Contradictions' s36 fast paths at their edges (ADR 0013 "s36, contra5"), on chain
against Python.

Each cut reads a shape in place and falls back to the walk otherwise: the PromptSpec's
two keys among the §2 pass's kept top-level offsets (``topKept``; more than
``PorCbor.TOP_ITEMS`` items: walked), a cited state's ``items`` list
(``PorContradictionsItems.end``), its ``window`` (``windowEnd``), ``conflict_policy``
(``toleranceAt``) and each data requirement's ``requirement_id`` right after its
``description`` (``requirementIdAt``). Here each sits at an edge:
``test_onchain_contradictions_items.py`` edits items with 40-byte texts; here the last
(or first) item's texts are 23/24, 255/256 and 65535/65536 bytes of ``fgroups``
repeated (the ``groups`` key's encoding at every phase: a wrong end inside the last item
would find it; ``PorContradictionsItems.end`` is held to ``PorCbor.skip`` directly in
``test_s37_skip_edges.py``), its reasons 23/24
texts, ``observed_at`` every integer width, the list 23/24 items; the window's bounds
every width; descriptions of 23/24/255/256 bytes before a requirement id of 23..128
bytes, two requirements apart in one byte at a word edge (rebuilt by por, so honest,
then the cited chunks swapped: a lie); tolerances of 1..40 characters; the PromptSpec
with 15 to 17 top-level entries (the kept offsets' cap is 32 items: 16 entries).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from bundle_edits import honest, recommit
from exec_support import ExecChecker, assert_case_count
from proof_check_support import python_answer
from test_s37_check_targets import rebuilt
from test_s37_deduce_word_edges import sibling

from por.bundle import build
from por.bundle.layout import Bundle
from por.challenge import bundle_from_bytes
from por.challenge.one_step import build_one_step_proof
from por.encoding import decode, encode
from por.scenarios import load_scenario

COUNTS: Counter[str] = Counter()
_CHAIN = ExecChecker("PorContradictionsExec")
MARKETS = ("08-quorum-agree", "01-boolean-observed")
EDGE_TEXTS = (23, 24, 255, 256, 65535, 65536)


def _index(bundle: Bundle) -> int:
    return [decode(s)["inputs"].get("kind") for s in bundle.steps].index("contradictions")


def _last(**values: Any) -> Callable[[list[Any]], None]:
    return lambda items: items[-1].update(values)


def _first(**values: Any) -> Callable[[list[Any]], None]:
    return lambda items: items[0].update(values)


def _count(n: int) -> Callable[[list[Any]], None]:
    return lambda items: items.extend(copy.deepcopy(items[0]) for _ in range(n - len(items)))


def _mimic(n: int, phase: int) -> str:
    """``n`` bytes of ``fgroups`` repeated from ``phase``: ``\x66groups`` is the ``groups``
    key's encoding, so an end computed wrongly inside the text finds the key there for
    one of the seven phases (and the chain would read the next bytes as the groups)."""
    return ("fgroups" * (n // 7 + 2))[phase:phase + n]


ITEM_EDITS: dict[str, Callable[[list[Any]], None]] = {
    **{f"{f}{n}p{ph}": _last(**{f: _mimic(n, ph)})
       for f in ("source_id", "evidence_id", "observed_from") for n in EDGE_TEXTS
       for ph in range(7)},
    **{f"first_observed_from{n}p{ph}": _first(observed_from=_mimic(n, ph))
       for n in EDGE_TEXTS for ph in range(7)},
    **{f"gate_reason{n}p{ph}": _last(gate_reason=_mimic(n, ph))
       for n in (0, 23, 24, 256, 65536) for ph in range(7)},
    **{f"reasons{n}": _last(reasons=["r"] * n, admitted=False) for n in (22, 23, 24)},
    **{f"reason_text{n}p{ph}": _last(reasons=[_mimic(n, ph)], admitted=False)
       for n in EDGE_TEXTS for ph in range(7)},
    **{f"observed_at{u}": _last(observed_at=u)
       for u in (0, 23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63 - 1)},
    **{f"count{n}": _count(n) for n in (23, 24)},
}


def _state_edit(bundle: Bundle, edit: Callable[[dict[str, Any]], None]) -> Bundle:
    steps = list(bundle.steps)
    index = _index(bundle)
    chunk = int(decode(steps[index])["prior_step_ids"][0][5:]) - 1
    body = decode(steps[chunk])
    edit(body["output"])
    steps[chunk] = encode(body)
    return recommit(bundle, steps=steps)


@pytest.mark.parametrize("market", MARKETS)
def test_items_at_edges(market: str) -> None:
    """The items are not read (SPEC §12.5.3): every edit is lost ``one_step.match``."""
    bundle = honest(market)
    for name, edit in ITEM_EDITS.items():
        edited = _state_edit(bundle, lambda out, edit=edit: edit(out["items"]))
        answer = _CHAIN.compare(edited, _index(edited), "items", COUNTS)
        assert answer is not None and answer[:2] == (False, "one_step.match"), name


@pytest.mark.parametrize("market", MARKETS)
def test_window_bounds_at_every_width(market: str) -> None:
    bundle = honest(market)
    bounds = (0, 23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63 - 1)
    for end in bounds:
        for start in (0, 24, 2**32, end):
            edited = _state_edit(bundle, lambda out, e=end, s=start: out.update(
                window={"end": e, "start": s}))
            _CHAIN.compare(edited, _index(edited), "window", COUNTS)
    shapes: list[Any] = [{"end": 5}, {"end": 5, "start": 1, "z": 0}, {"end": -1, "start": 0},
                         {"end": "5", "start": 0}, [5, 0], {"start": 0, "endx": 5}]
    for window in shapes:
        edited = _state_edit(bundle, lambda out, w=window: out.update(window=w))
        _CHAIN.compare(edited, _index(edited), "window", COUNTS)


def _with_description(bundle: Bundle, n: int) -> Bundle:
    spec = decode(bundle.prompt_spec)
    for r in spec["data_requirements"]:
        r["description"] = "d" * n
    return recommit(bundle, prompt_spec=encode(spec))


@pytest.mark.parametrize("length", [23, 24, 31, 32, 33, 64, 128])
def test_requirement_ids_apart_in_one_byte(length: int) -> None:
    """Two requirements apart in byte ``k``; descriptions of every head width before
    them. Honest: lost; the cited chunks swapped: Python's answer."""
    for k in sorted({0, 23, 31, 32, length - 1} & set(range(length))):
        def names(i: int, k: int = k) -> str:
            return sibling(length, k, i)
        bundle = rebuilt("08-quorum-agree", names, sibling(length, k, 10), sibling(length, k, 11))
        index = _index(bundle)
        cited = decode(bundle.steps[index])["prior_step_ids"]
        assert len(cited) == 2, cited
        answer = _CHAIN.compare(bundle, index, "rid.honest", COUNTS)
        assert answer is not None and answer[:2] == (False, "one_step.match"), (length, k)
        steps = list(bundle.steps)
        steps[index] = encode({**decode(steps[index]), "prior_step_ids": cited[::-1]})
        _CHAIN.compare(recommit(bundle, steps=steps), index, "rid.swapped", COUNTS)
        for n in (0, 23, 24, 255, 256):
            _CHAIN.compare(_with_description(bundle, n), index, "rid.description", COUNTS)
        # a cited state's sources: a source_id repeated, or its sibling (apart in byte k)
        for j, other in ((1, 0), (2, 1), (2, 9)):
            def edit(out: dict[str, Any], j: int = j, other: int = other) -> None:
                srcs = out["sources"]
                srcs[j]["source_id"] = srcs[other]["source_id"] if other < j else names(other)
            _CHAIN.compare(_state_edit(bundle, edit), index, "rid.sources", COUNTS)


def test_tolerance_texts() -> None:
    """numeric_tolerance texts of 1 to 40 characters (a one-byte head, then two bytes):
    the market rebuilt by por under each, then compared."""
    scenario = load_scenario("08-quorum-agree")
    for tolerance in ("0", "0.05", "1" * 22 + ".5", "1" * 23 + ".5", "0." + "0" * 37 + "1"):
        policy = scenario.prompt_spec.conflict_policy.model_copy(
            update={"numeric_tolerance": tolerance})
        spec = scenario.prompt_spec.model_copy(update={"conflict_policy": policy})
        bundle = bundle_from_bytes(build(spec, scenario.evidence).data)
        answer = _CHAIN.compare(bundle, _index(bundle), "tolerance", COUNTS)
        assert answer is not None and answer[:2] == (False, "one_step.match"), tolerance


def _deep(depth: int) -> Any:
    v: Any = "leaf"
    for i in range(depth):
        v = [v] if i % 2 else {"k": v}
    return v


#: Values of the extra keys, each skipped by the walk: every head edge, 23/24 entries,
#: nested to the depth limit (the PromptSpec's map is depth 1).
SKIPPED: list[Any] = [7, 2**32, -2**63, True, "t" * 24, "t" * 256, b"\x60" * 24,
                      {f"k{j:02d}": j for j in range(24)}, list(range(23)), list(range(24)),
                      [{"a": [1] * 24}] * 23, _deep(31), "x" * 65536]


@pytest.mark.parametrize("market", MARKETS)
def test_prompt_spec_past_the_kept_offsets(market: str) -> None:
    """Extra top-level keys (a §4.2 rule the chain does not read, SPEC §14.8), their
    values at skip edges: 15, 16 (32 items, the last kept) and 17 entries (walked).
    Off chain one_step.invalid_record; on chain the honest answer either way, so the
    kept and the walked reads agree."""
    bundle = honest(market)
    spec = decode(bundle.prompt_spec)
    for extra in range(15 - len(spec), 18 - len(spec)):
        for stem in ("a", "zz_after_every_key_"):
            edited = {**spec, **{f"{stem}{i:02d}": SKIPPED[i % len(SKIPPED)]
                                 for i in range(extra)}}
            b = recommit(bundle, prompt_spec=encode(edited))
            proof = build_one_step_proof(b, _index(b)).to_cbor()
            assert _CHAIN.execute(proof)[:2] == (False, "one_step.match"), (extra, stem)
            assert python_answer(proof) == (True, "one_step.invalid_record")
            COUNTS["top.unread"] += 1


def test_contradictions_edges_case_count() -> None:
    assert_case_count(COUNTS, "", ("one_step.match",), minimum=300)
