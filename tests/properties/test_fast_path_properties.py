"""The fast path never accepts what the full verifier refuses (SPEC §6.2, ADR 0007).

Bundles here are made by the *lean* cores (``audit_core``, ``judge_core`` over
``por.lean`` records) from a scenario's PromptSpec and evidence with one change
each, every commitment recomputed: so the fast path would replay them to the
byte, and only a lean check looser than a pydantic model could make it accept
a bundle the full path (``verifier.full``) rejects.  Property 1: whenever
``fast_report`` accepts, ``check_full`` verifies with the same report.
Property 2: whatever the fast path hands over changes no report.
"""

from __future__ import annotations

from typing import Any

from bundle_edits import honest, paths_agree
from hypothesis import event, given, note, settings
from hypothesis import strategies as st

from por.auditor.agent import audit_core
from por.bundle.layout import honest_forms
from por.encoding import decode, encode
from por.errors import PorError
from por.judge import judge_core
from por.lean.base import Reject
from por.lean.bundle import por_root_of
from por.lean.evidence import Evidence, EvidenceItem
from por.lean.prompt import PromptSpec
from por.merkle import leaf_hash, root_from_leaf_hashes, root_hash
from por.protocol.manifest import manifest_bytes
from por.scenarios import list_scenarios

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2, 2**64),
                    st.sampled_from(["", "x", "0", "-0", "1.50", "GET", "anyone", "numeric",
                                     "multi_source_quorum", "x" * 129, "step_0001"]),
                    st.binary(max_size=4), st.just([]), st.just({}))


class _Fields:
    """Commitments as attributes, for ``por_root_of``."""

    def __init__(self, fields: dict[str, Any]) -> None:
        self.__dict__.update(fields)


def lean_built(spec: bytes, evidence: list[bytes]) -> bytes:
    """The bundle the lean cores make for these records (``Reject``/``PorError`` if
    a lean check or the auditor refuses them)."""
    lean_spec = PromptSpec.from_value(decode(spec), spec)
    items = [EvidenceItem.from_value(decode(blob), blob) for blob in evidence]
    run = audit_core(lean_spec, items)
    steps = [step.to_cbor() for step in run.steps]
    header = run.header_cbor()
    verdict = judge_core(lean_spec, Evidence(lean_spec.market.market_id, items),
                         run)[0].to_cbor()
    fields = {"manifest_hash": leaf_hash(manifest_bytes()), "prompt_spec_hash": leaf_hash(spec),
              "evidence_root": root_hash(evidence), "evidence_count": len(evidence),
              "trace_header_hash": leaf_hash(header), "reasoning_root": root_hash(steps),
              "reasoning_count": len(steps), "verdict_hash": leaf_hash(verdict)}
    forms = honest_forms(spec, steps, verdict)
    fields["forms_root"] = root_from_leaf_hashes(forms)
    fields["forms_count"] = len(forms)
    fields["por_root"] = por_root_of(_Fields(fields))
    return encode({"schema": "por.Bundle/2", "manifest": manifest_bytes(), "prompt_spec": spec,
                   "evidence": evidence, "trace_header": header, "steps": steps,
                   "verdict": verdict, "forms": forms, "commitments": fields,
                   "signatures": []})


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):
            out += _paths(item, (*at, index))
    return out


def _variants(old: Any) -> st.SearchStrategy[Any]:
    """Values near ``old`` (same type, bounds, orders): most keep the record valid,
    so the lean cores build a bundle and the two paths are really compared."""
    if isinstance(old, bool):
        near: st.SearchStrategy[Any] = st.just(not old)
    elif isinstance(old, int):
        near = st.integers(max(old - 2, -1), old + 2) | st.sampled_from(
            [0, 3, 64, 65, 10_000, 10_001, 2**63 - 1, 2**63])
    elif isinstance(old, str):
        near = st.sampled_from([old + "x", old[:-1], old.upper(), " " + old, old + "\u00e9",
                                "x" * 128, "x" * 129, old + "0"]) | st.text(max_size=4)
    elif isinstance(old, bytes):
        near = st.sampled_from([old + b" ", old[:-1], b"", b"\xff" + old])
    elif isinstance(old, list):
        near = st.sampled_from([[], old[:1], old + old[:1], list(reversed(old))])
    elif isinstance(old, dict):
        near = st.sampled_from([{k: v for k, v in old.items() if k != key} for key in old]
                               or [{}]) | st.just({**old, "extra": 1})
    else:
        near = SCALARS
    return near | SCALARS


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    return [*value[:head], _replace(value[head], rest, new), *value[head + 1:]]


@settings(max_examples=600)  # most changes make a record the lean checks refuse
@given(name=st.sampled_from(list_scenarios()), target=st.integers(-1, 3), data=st.data())
def test_fast_path_accepts_only_what_the_full_path_verifies(name: str, target: int,
                                                             data: st.DataObject) -> None:
    bundle = honest(name)
    records = [bundle.prompt_spec, *bundle.evidence]
    index = min(target + 1, len(records) - 1)  # -1: the PromptSpec, else an item
    value = decode(records[index])
    path = data.draw(st.sampled_from(_paths(value)), label="path")
    old: Any = value
    for step in path:
        old = old[step]
    new = data.draw(_variants(old), label="new")
    try:
        records[index] = encode(_replace(value, path, new))
        built = lean_built(records[0], records[1:])
    except (Reject, PorError):
        event("not a record the lean cores take: the full path decides alone")
        return
    event("built by the lean cores")
    note(f"{name}: record {index}, {path} -> {new!r}")
    paths_agree(built)
