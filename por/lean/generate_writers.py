"""Write :mod:`por.lean.writers_gen`: the records the core writes (issue 21).

The auditor and the judge make reasoning steps, the trace header and policy,
the evaluation variables and the verdict from values they computed; the
fast path compares their bytes with a bundle's.  Each is generated from its
pydantic model: slots with the model's field names (plus the memo slots
:data:`WRITERS` names), ``NAMES`` (the fields after ``schema`` in declaration
order, the order of ``model_dump``), ``SCHEMA``, and a constructor taking the
fields with the model's defaults.  Nothing is validated (the values are the
core's own) but the bounds a row lists as ``checked``: a ``ValueError`` there
is a bug in the caller.  Behaviour is in :mod:`por.lean.writer_hooks`.

Run through ``python -m por.lean.generate``, which writes both modules.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from por.lean import writer_hooks
from por.lean.gen_text import LINE, import_lines, number, quoted
from por.lean.schema_reader import (
    GenerateError,
    ListOf,
    Nested,
    Node,
    Scalar,
    node_of,
    python_type,
)
from por.schemas import trace, verdict, verification


@dataclass(frozen=True)
class Writer:
    """How one pydantic model becomes a record the core writes.

    ``base``: its behaviour, a class of :mod:`por.lean.writer_hooks`;
    ``positional``: the constructor takes the fields positionally (a hot path);
    ``leading``: else, how many leading fields it takes positionally (the rest
    are keyword-only);
    ``memo``: extra slots set to ``None`` (typed on ``base``); ``types``: a
    field's annotation where the core passes more than the model's type;
    ``checked``: int fields whose model bounds the constructor checks;
    ``cbor_value``: write ``_cbor_value``, the record as a dict in canonical key
    order (SPEC §2, rule 2) so that the encoder need not sort a copy."""

    model: type[BaseModel]
    name: str
    base: str = "Written"
    positional: bool = False
    leading: int = 0
    memo: tuple[str, ...] = ()
    types: Mapping[str, str] = field(default_factory=dict)
    checked: tuple[str, ...] = ()
    cbor_value: bool = False


WRITERS: tuple[Writer, ...] = (
    Writer(trace.ReasoningStep, "Step", "StepRecord", positional=True,
           memo=("_cbor", "_claims"), cbor_value=True,
           types={"prior_step_ids": "list[str] | Fragments", "inputs": "dict[str, Any]",
                  "output": "dict[str, Any]"}),
    Writer(trace.TracePolicy, "Policy", "PolicyRecord", positional=True,
           checked=("max_steps",)),
    Writer(trace.TraceHeader, "Header", positional=True, types={"policy": "dict[str, Any]"}),
    Writer(trace.EvaluationVariables, "Variables", "VariablesRecord"),
    Writer(verdict.DeterministicVerdict, "Verdict", "VerdictRecord"),
    Writer(verification.ChallengeRef, "Challenge", "ChallengeRecord", leading=1),
    Writer(verification.CheckResult, "Check", "CheckRecord", leading=4,
           types={"severity": "str", "details": "dict[str, Any]", "challenge": "ChallengeRecord"}),
)

HEADER = '''"""Records the core writes, generated from the pydantic models: do not edit (issue 21).

Written by ``python -m por.lean.generate`` (``por.lean.generate_writers``) from
the models its table ``WRITERS`` names (``por.schemas``): slots with the
model's field names, ``NAMES`` (the fields after ``schema``, in declaration
order), ``SCHEMA`` and a constructor with the model's defaults.  The auditor and
the judge make them from values they computed, so nothing is validated but
the bounds a row checks.  Their behaviour is in :mod:`por.lean.writer_hooks`.
``tests/unit/lean/test_lean_generated.py`` fails while this file differs from
what the generator writes.
"""
'''


def _type(node: Node) -> str:
    if isinstance(node, Nested):
        raise GenerateError(f"{node.model.__name__}: a nested record needs a type in WRITERS")
    if isinstance(node, ListOf):
        return f"list[{_type(node.item)}]"
    return python_type(node)


def _default(value: Any) -> str:
    if isinstance(value, str):
        return quoted(value)
    if value is None or type(value) in (bool, int):
        return repr(value)
    raise GenerateError(f"no literal for the default {value!r}")


def _signature(head: str, params: list[str], tail: str, first_room: int) -> list[str]:
    """``def __init__(...)`` wrapped under its parenthesis; the first line keeps
    ``first_room`` characters free (for a ``noqa``)."""
    indent = " " * len("    def __init__(")
    lines: list[str] = []
    line = head
    for index, param in enumerate(params):
        piece = param + (", " if index < len(params) - 1 else tail)
        limit = LINE - (first_room if not lines else 0)
        if len(line) + len(piece.rstrip()) > limit and line.strip() not in ("", head.strip()):
            lines.append(line.rstrip())
            line = indent
        line += piece
    return [*lines, line]


def _class(spec: Writer) -> tuple[list[str], set[str]]:
    """The lines of one class and the names it needs from ``typing``-like imports."""
    model, name = spec.model, spec.name
    if not hasattr(writer_hooks, spec.base):
        raise GenerateError(f"por.lean.writer_hooks has no {spec.base}")
    hints = typing.get_type_hints(model, include_extras=True)
    schema = model.model_fields.get("record_schema")
    names = [n for n in model.model_fields if n != "record_schema"]
    params: list[str] = []
    body: list[str] = []
    needs: set[str] = set()
    for attr in names:
        info = model.model_fields[attr]
        hint = hints[attr]
        optional = typing.get_origin(hint) in (typing.Union, types.UnionType)
        if optional:
            hint = next(a for a in typing.get_args(hint) if a is not type(None))
        node = node_of(hint, f"{model.__name__}.{attr}") if attr not in spec.types else None
        text = spec.types.get(attr) or _type(node)  # type: ignore[arg-type]
        needs.update(word for word in ("Any", "Fragments") if word in text)
        text = f"{text} | None" if optional else text
        default = "" if info.is_required() else f" = {_default(info.default)}"
        params.append(f"{attr}: {text}{default}")
        if attr in spec.checked:
            if not isinstance(node, Scalar) or node.kind != "integer" or node.lo is None \
                    or node.hi is None:
                raise GenerateError(f"{model.__name__}.{attr}: only bounded ints are checked")
            bounds = f"{node.lo}..{node.hi}"
            body += [f"        if type({attr}) is not int or not "
                     f"{number(node.lo)} <= {attr} <= {number(node.hi)}:",
                     f'            raise ValueError(f"{attr} {{{attr}!r}} outside {bounds}")']
    defaulted = [" = " in p for p in params]
    if (spec.positional and defaulted != sorted(defaulted)) or any(defaulted[:spec.leading]):
        raise GenerateError(f"{name}: a required field after a defaulted one")
    if spec.leading:
        params.insert(spec.leading, "*")
    head = "    def __init__(self, " if spec.positional or spec.leading \
        else "    def __init__(self, *, "
    noqa = "  # noqa: PLR0917" if spec.positional and len(params) > 5 else ""
    signature = _signature(head, params, ") -> None:", len(noqa))
    signature[0] += noqa
    slots = sorted([*(["record_schema"] if schema else []), *names, *spec.memo])
    lines = [f"class {name}({spec.base}):",
             f'    """``{model.__module__}.{model.__name__}``."""', "",
             "    __slots__ = ("]
    lines += [f"        {quoted(s)}," for s in slots]
    lines += ["    )"]
    if schema:
        lines.append(f"    SCHEMA = {quoted(schema.default)}")
    lines += ["    NAMES = (", *(f"        {quoted(n)}," for n in names), "    )", ""]
    if spec.positional and len(params) > 5:
        lines.append("    # Positional on the hot path: one call per record (issue 16).")
    lines += signature + body
    if schema:
        lines.append(f"        self.record_schema = {quoted(schema.default)}")
    lines += [f"        self.{attr} = {attr}" for attr in names]
    lines += [f"        self.{slot} = None" for slot in spec.memo]
    if spec.cbor_value:
        keys = [(schema.alias or "schema", "record_schema")] if schema else []
        keys += [(model.model_fields[n].alias or n, n) for n in names]
        keys.sort(key=lambda k: (len(k[0].encode()), k[0].encode()))  # SPEC §2, rule 2
        lines += ["", "    def _cbor_value(self) -> dict[str, Any]:",
                  "        # The record's dict in canonical key order (by length, then",
                  "        # bytewise, SPEC §2 rule 2): the encoder need not copy it.",
                  "        return {"]
        lines += [f"            {quoted(key)}: self.{attr}," for key, attr in keys]
        lines += ["        }"]
        needs.add("Any")
    return lines, needs


def render_writers() -> str:
    """The text of :mod:`por.lean.writers_gen`."""
    body: list[str] = []
    needs: set[str] = set()
    bases: set[str] = set()
    for spec in WRITERS:
        lines, wanted = _class(spec)
        body += ["", "", *lines]
        needs |= wanted
        bases.add(spec.base)
    imports = ["from __future__ import annotations", ""]
    if "Any" in needs:
        imports += ["from typing import Any", ""]
    if "Fragments" in needs:
        imports.append("from por.encoding.encoder import Fragments")
    imports += import_lines("por.lean.writer_hooks", bases)
    exported = sorted(spec.name for spec in WRITERS)
    return "\n".join([HEADER, *imports, *body, "", "",
                      "__all__ = [" + ", ".join(quoted(n) for n in exported) + "]", ""])


__all__ = ["WRITERS", "Writer", "render_writers"]
