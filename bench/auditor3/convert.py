"""A /2 proof (bytes) and its bundle -> the /3 proof the design implies (ADR 0016)."""

from __future__ import annotations

from typing import Any

from auditor3.carry import CITED, DISPUTED, ID, ITEM, Bundle3, Carried, add, spec_reads
from por.encoding import decode

SCHEMAS = {"por.OneStepProof/1": "por.OneStepProof/2", "por.JudgeProof/1": "por.JudgeProof/2",
           "por.OmissionProof/2": "por.OmissionProof/3",
           "por.CitationProof/2": "por.CitationProof/3"}


def _kind(leaf: bytes) -> str:
    value = decode(leaf)
    kind = value.get("inputs", {}).get("kind") if isinstance(value, dict) else None
    return kind if isinstance(kind, str) else ""


def _spec(c: Carried, b3: Bundle3, kind: str, step_leaf: bytes | None) -> None:
    rid = decode(step_leaf).get("inputs", {}).get("requirement_id", "") if step_leaf else ""
    r = b3.requirement_index(rid) if isinstance(rid, str) else 0
    paths = spec_reads(kind, r, len(b3.spec_value["data_requirements"]))
    if paths:
        add(c, b3, 1, 0, paths, role="spec")


def _cited(c: Carried, b3: Bundle3, reader: str, part: dict[str, Any]) -> None:
    if part["kind"] == "evidence_leaf":
        add(c, b3, 2, part["leaf_index"], ITEM, role="cited")
        return
    paths = CITED.get((reader, _kind(part["leaf"])), ID)
    add(c, b3, 4, part["leaf_index"], paths, role="cited")


def carried(proof2: bytes, b3: Bundle3) -> tuple[str, str, Carried]:
    """(the disputed kind, the /3 schema, what the /3 proof carries)."""
    p = decode(proof2)
    schema = p["schema"]
    c = Carried()
    if schema == "por.OneStepProof/1":
        step = p["step"]
        kind = _kind(step["leaf"])
        add(c, b3, 4, step["leaf_index"], DISPUTED["step"], role="step")
        c.step = step["leaf_index"]
        _spec(c, b3, kind, step["leaf"])
        for part in [*p["evidence"], *p["prior_steps"]]:
            _cited(c, b3, kind, part)
    elif schema == "por.JudgeProof/1":
        kind = "judge"
        c.whole[5] = p["verdict"]["leaf"]
        _cited(c, b3, kind, p["final_step"])
        _spec(c, b3, kind, None)
        for part in p["extract_steps"]:
            _cited(c, b3, kind, part)
    elif schema == "por.OmissionProof/2":
        kind = "omission"
        add(c, b3, 4, p["step"]["leaf_index"], DISPUTED["omission"], role="step")
        c.step = p["step"]["leaf_index"]
        _cited(c, b3, kind, p["evidence"])
    else:
        kind = "citation"
        add(c, b3, 4, p["step"]["leaf_index"], DISPUTED["citation"], role="step")
        c.step = p["step"]["leaf_index"]
        for part in p["extract_steps"]:
            _cited(c, b3, kind, part)
    return kind, SCHEMAS[schema], c


def parts2(proof2: bytes) -> list[dict[str, Any]]:
    """Every InclusionProof map of a /2 proof."""
    out = []
    for value in decode(proof2).values():
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, dict) and "leaf" in v:
                out.append(v)
    return out


def count_items(value: Any) -> int:
    """CBOR data items in ``value`` (a container counts itself and its items)."""
    if isinstance(value, dict):
        return 1 + sum(count_items(k) + count_items(v) for k, v in value.items())
    if isinstance(value, list):
        return 1 + sum(count_items(v) for v in value)
    return 1


def items2(proof2: bytes) -> int:
    """Items a /2 executor walks per part: the InclusionProof map (its leaf one item)
    and its record's top level (each key and value head)."""
    total = 0
    for part in parts2(proof2):
        total += count_items({**part, "leaf": b""})
        record = decode(part["leaf"])
        total += 1 + 2 * len(record) if isinstance(record, dict) else 1
    return total


def items3(c: Carried) -> int:
    """Items a /3 executor walks: each record array (component, indices, counts) and
    each entry (its index, its leaf; the leaf's array head, path items, value head)."""
    total = 0
    for tree, chosen in c.records.values():
        total += 4
        for i in chosen:
            path, _value = tree.entries[i]
            total += 2 + 1 + count_items(list(path)) + 1
    return total + 4 * len(c.whole)
