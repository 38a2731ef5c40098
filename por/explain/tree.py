"""``por explain --tree``: the bundle as a tree, for people who would rather look.

``por_root`` -> the seven component leaves (name, root, size; SPEC §5.4) ->
their record leaves (index, id, leaf hash; for ``forms`` the carried ``LH(F)``
itself, its id the record the form is of).  Hashes are shown short (the
first 12 hex digits) in text and in full in the ``por/tree/1`` JSON document.
A component with more than ``limit`` leaves shows the first ``limit`` and a
count of the rest.  Ids are read with the strict decoder; a leaf that is not a
record shows ``(not a record: <check id>)``.  Leaves out: verification (the
tree shows what is committed; ``por verify`` checks it).
"""

from __future__ import annotations

from typing import Any, Final

from por.bundle.layout import COMPONENTS
from por.challenge import bundle_from_bytes
from por.encoding import decode
from por.errors import PorError
from por.merkle import leaf_hash

#: The versioned ``schema`` field of the document.
TREE_SCHEMA: Final = "por/tree/1"
#: Leaves listed per component by default.
DEFAULT_LIMIT: Final = 20

_ID_KEYS = {"evidence": "evidence_id", "reasoning": "step_id"}


def bundle_tree(data: bytes, *, max_size: int | None = None,
                limit: int = DEFAULT_LIMIT) -> dict[str, Any]:
    """The ``por/tree/1`` document of bundle bytes; ``PorError`` if the bundle map
    does not decode."""
    bundle = bundle_from_bytes(data, max_size=max_size)
    commitments = bundle.commitments
    records: dict[str, list[bytes]] = {
        "manifest": [bundle.manifest], "prompt_spec": [bundle.prompt_spec],
        "evidence": list(bundle.evidence), "trace_header": [bundle.trace_header],
        "reasoning": list(bundle.steps), "verdict": [bundle.verdict],
        "forms": list(bundle.forms)}
    r = len(bundle.forms) - len(bundle.steps) - 2
    components = []
    for position, name in enumerate(COMPONENTS):
        root, size = commitments.component(name)
        leaves = records[name]
        shown = [{"index": i, "id": _form_id(i, r, len(bundle.forms)) if name == "forms"
                  else _record_id(name, leaf),
                  "leaf_hash": (leaf if name == "forms" else leaf_hash(leaf)).hex(),
                  "size": len(leaf)} for i, leaf in enumerate(leaves[:limit])]
        components.append({"position": position, "name": name, "root": root.hex(),
                           "size": size, "leaves": shown,
                           "more": max(0, len(leaves) - limit)})
    return {"schema": TREE_SCHEMA, "por_root": commitments.por_root.hex(),
            "components": components, "signatures": len(bundle.signatures)}


def _form_id(index: int, r: int, size: int) -> str:
    """Which record the carried form hash ``index`` is of (SPEC §5.4)."""
    if index == 0:
        return "COMMON (prompt_spec)"
    if index <= r:
        return f"REQUIREMENT {index - 1} (prompt_spec)"
    if index == size - 1:
        return "VERDICT (verdict)"
    return f"step form (reasoning {index - 1 - r})"


def _record_id(component: str, leaf: bytes) -> str:
    try:
        value = decode(leaf)
    except PorError as exc:
        return f"(not a record: {exc.check_id})"
    if not isinstance(value, dict):
        return "(not a record: schema.type)"
    key = _ID_KEYS.get(component)
    if key is not None:
        return str(value.get(key, "(no id)"))
    return str(value.get("schema", "(no schema)"))


def tree_lines(doc: dict[str, Any]) -> list[str]:
    """The text tree (short hashes)."""
    lines = [f"por_root {doc['por_root'][:12]}  ({doc['signatures']} signature(s), not "
             "committed)"]
    components = doc["components"]
    for n, component in enumerate(components):
        last = n == len(components) - 1
        lines.append(f"{'`--' if last else '|--'} [{component['position']}] "
                     f"{component['name']:<12} root {component['root'][:12]}  size "
                     f"{component['size']}")
        stem = "    " if last else "|   "
        leaves = component["leaves"]
        for k, leaf in enumerate(leaves):
            end = k == len(leaves) - 1 and not component["more"]
            lines.append(f"{stem}{'`--' if end else '|--'} {leaf['index']:>4} "
                         f"{leaf['leaf_hash'][:12]}  {leaf['id']}  ({leaf['size']} bytes)")
        if component["more"]:
            lines.append(f"{stem}`-- ... {component['more']} more")
    return lines


__all__ = ["DEFAULT_LIMIT", "TREE_SCHEMA", "bundle_tree", "tree_lines"]
