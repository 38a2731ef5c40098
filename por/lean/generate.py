"""Write :mod:`por.lean.records_gen` (one module per domain) from the pydantic models.

The pydantic model is the one place a record's fields, types and bounds are
written; this generator reads them (field names and aliases, ``Annotated``
length and value bounds, ``Literal`` values, nested models, list caps, which
fields are optional) and writes the lean :class:`~por.lean.base.Struct`
subclasses, their ``FIELDS`` built from the checks of :mod:`por.lean.base`.

What the models do not say is in :data:`DOMAINS`, one row per record: the lean base
class, the hook of :mod:`por.lean.hooks` that restates the model's
``model_validator`` (a model with a validator and no hook is refused), and,
per field, the helper the fast path uses for speed and memory (``shared``
values, ``interned`` records, ``leaves`` and ``spanned`` bodies kept as spans
of the bundle's bytes).  Such a helper still takes its bounds from the model.

No looser than the models: anything in a model the generator does not
understand (a pattern, a validator, an unbounded int, a serializer used
outside JSON...) stops it with :class:`GenerateError` rather than be left out.

Usage: ``python -m por.lean.generate`` rewrites the modules (and
``por.lean.writers_gen``, :mod:`por.lean.generate_writers`); ``--check`` exits 1
if one differs (issue 21).  ``tests/unit/lean/test_lean_generated.py`` runs the check.
Never imported by the verify path (it imports pydantic).
"""

from __future__ import annotations

import sys
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from por.bundle import layout
from por.lean import hooks
from por.lean.gen_text import LINE, args, import_lines, number, order, quoted, wrapped
from por.lean.generate_writers import render_writers
from por.lean.schema_reader import (
    Column,
    GenerateError,
    Lean,
    ListOf,
    Lit,
    Nested,
    Node,
    Scalar,
    columns,
    python_type,
)
from por.protocol.limits import MAX_ID_LENGTH, MAX_UINT63, FieldKind
from por.schemas import base, evidence, market, prompt

PACKAGE = Path(__file__).with_name("records_gen")
WRITERS_TARGET = Path(__file__).with_name("writers_gen.py")


#: Every generated record by domain, each a module of :mod:`por.lean.records_gen`, in
#: the order written (a nested record after what it nests).
PROMPT: tuple[Lean, ...] = (
    # SPEC §4.2, §4.3: the market and the prompt spec; read once per bundle.
    Lean(market.ResolutionWindow, invariants="resolution_window_ordered"),
    Lean(market.ResolutionRule),
    Lean(market.ResolutionRules, invariants="resolution_rules_sorted_unique"),
    Lean(market.DisputePolicy),
    Lean(market.MarketSpec, invariants="market_sources_sorted"),
    Lean(prompt.SourceTarget),
    Lean(prompt.SelectionPolicy, invariants="selection_quorum"),
    Lean(prompt.NumberFormat, invariants="number_format_marks"),
    Lean(prompt.ValueMapEntry),
    Lean(prompt.ValueMap),
    Lean(prompt.SourceLocator),
    Lean(prompt.FieldSpec, invariants="field_has_locator"),
    Lean(prompt.DataRequirement, invariants="requirement_unique"),
    Lean(prompt.Term),
    Lean(prompt.Precondition),
    Lean(prompt.PredictionSemantics, invariants="prediction_threshold"),
    Lean(prompt.ConfidencePolicy),
    Lean(prompt.ConflictPolicy, invariants="conflict_non_negative"),
    Lean(prompt.PromptSpec, base="CborRecord", invariants="prompt_unique_requirements"),
)
EVIDENCE: tuple[Lean, ...] = (
    # SPEC §4.4: one evidence item per leaf; memory per item is a product requirement
    # (ADR 0007 addendum): ids, URIs and confidences repeat across items.
    Lean(evidence.SourceRef, fields={"source_id": "shared:id", "uri": "shared",
                                     "provider": "shared"}),
    Lean(evidence.RetrievalReceipt),
    Lean(evidence.EvidenceItem, base="SpannedContent",
         fields={"requirement_id": "shared:id", "source": "interned",
                 "content": "spanned", "retrieval_receipt": "interned",
                 "confidence_bps": "shared:bps"}),
)
BUNDLE: tuple[Lean, ...] = (
    # SPEC §5.1: the bundle's top-level map; leaf arrays stay spans of its bytes.
    Lean(layout.Commitments),
    Lean(layout.Bundle, fields={"evidence": "leaves", "steps": "leaves",
                                "forms": "hash_leaves", "signatures": "leaves"}),
)
DOMAINS: tuple[tuple[str, tuple[Lean, ...]], ...] = (
    ("prompt", PROMPT), ("evidence", EVIDENCE), ("bundle", BUNDLE))

#: ``Literal`` sets written once as named tuples (equal ``Literal``s share the name).
LITERALS: tuple[tuple[str, Any], ...] = (
    ("COMPARISONS", prompt.Comparison),
    ("PREDICATES", prompt.Predicate),
    ("FIELD_KINDS", FieldKind),
    ("CONTENT_TYPES", prompt.ContentType),
)

#: The named checks of :mod:`por.lean.base`, by (kind, min, max).
NAMED: dict[tuple[str, int, int | None], str] = {
    ("text", 0, None): "any_text",
    ("text", 1, MAX_ID_LENGTH): "identifier",
    ("integer", 0, 10_000): "bps",
    ("integer", 0, MAX_UINT63): "count",
    ("blob", 32, 32): "hash32",
    ("blob", 0, None): "any_blob",
}


class _Writer:
    """The text of the generated module, built record by record."""

    def __init__(self, written: dict[str, str], module: str) -> None:
        self.written = written              # every lean class written so far -> its module
        self.module = module                # the module being written
        self.names: set[str] = set()        # lean record classes of this module
        self.imported: dict[str, set[str]] = {}  # other generated modules -> names
        self.base_names: set[str] = set()   # names used from por.lean.base
        self.hook_names: set[str] = set()   # names used from por.lean.hooks
        self.literals: dict[str, tuple[str, ...]] = {}
        self.shared: dict[str, str] = {}    # shared_<name> -> its check
        self.uses_spans = False

    def base(self, name: str) -> str:
        self.base_names.add(name)
        return name

    def hook(self, name: str) -> str:
        if not hasattr(hooks, name):  # never write a module that cannot be imported
            raise GenerateError(f"por.lean.hooks has no {name}")
        self.hook_names.add(name)
        return name

    def scalar(self, node: Scalar, where: str) -> str:
        if node.kind == "boolean":
            return self.base("boolean")
        if node.kind == "decimal":
            return self.base("decimal_text")
        if node.kind == "integer" and (node.lo is None or node.hi is None):
            raise GenerateError(f"{where}: an int without both bounds")
        lo = node.lo or 0
        named = NAMED.get((node.kind, lo, node.hi))
        if named == "count" and node.hint is base.UnixTime:
            named = "unix_time"
        if named is not None:
            return self.base(named)
        return f"{self.base(node.kind)}({args(lo, node.hi)})"

    def literal(self, node: Lit) -> str:
        for name, alias in LITERALS:
            if set(typing.get_args(alias)) == set(node.values):
                self.literals[name] = typing.get_args(alias)
                return f"{self.base('literal')}(*{name})"
        return f"{self.base('literal')}({', '.join(quoted(v) for v in node.values)})"

    def nested(self, model: type[BaseModel], where: str) -> str:
        name = model.__name__
        module = self.written.get(name)
        if module is None:
            raise GenerateError(f"{where}: {name} is not generated before it")
        if module != self.module:
            self.imported.setdefault(module, set()).add(name)
        return name

    def check(self, node: Node, where: str) -> str:
        if isinstance(node, Scalar):
            return self.scalar(node, where)
        if isinstance(node, Lit):
            return self.literal(node)
        if isinstance(node, Nested):
            return f"{self.base('nested')}({self.nested(node.model, where)})"
        item = self.check(node.item, where)
        return f"{self.base('list_of')}({item}{', ' if node.lo or node.hi else ''}" \
               f"{args(node.lo, node.hi)})"

    def flavoured(self, column: Column, where: str) -> tuple[str, str]:
        """The check and the attribute of a field the DOMAINS table tunes."""
        node, flavour = column.node, column.flavour or ""
        kind = flavour.split(":")[0]
        if kind == "shared" and isinstance(node, Scalar) and node.kind in ("text", "integer"):
            helper = "shared_text" if node.kind == "text" else "shared_integer"
            if node.kind == "integer" and (node.lo is None or node.hi is None):
                raise GenerateError(f"{where}: an int without both bounds")
            call = f"{self.base(helper)}({args(node.lo or 0, node.hi)})"
            if ":" not in flavour:
                return call, column.attr
            name = "shared_" + flavour.split(":")[1]
            if self.shared.setdefault(name, call) != call:
                raise GenerateError(f"{where}: {name} is shared by fields of other bounds")
            return name, column.attr
        if kind == "interned" and isinstance(node, Nested):
            inner = next(s for _, rows in DOMAINS for s in rows if s.model is node.model)
            if not all(isinstance(c.node, Scalar | Lit) for c in columns(inner)):
                raise GenerateError(f"{where}: only records of scalar fields are interned")
            return f"{self.base('interned')}({self.nested(node.model, where)})", column.attr
        if kind == "leaves" and isinstance(node, ListOf) and isinstance(node.item, Scalar) \
                and node.item.kind == "blob" and not node.item.lo and node.item.hi is None \
                and not node.lo:
            self.uses_spans = True
            hi = "" if node.hi is None else number(node.hi)
            return f"{self.hook('leaves')}({hi})", column.attr
        if kind == "hash_leaves" and isinstance(node, ListOf) and isinstance(node.item, Scalar) \
                and node.item.kind == "blob" and node.item.lo == node.item.hi == 32 \
                and not node.lo and node.hi is None:
            self.uses_spans = True
            return f"{self.hook('hash_leaves')}()", column.attr
        if kind == "spanned" and isinstance(node, Scalar) and node.kind == "blob" \
                and node.hi is not None:
            return f"{self.hook('spanned_blob')}({args(node.lo or 0, node.hi)})", \
                "_" + column.attr
        raise GenerateError(f"{where}: flavour {flavour!r} does not fit its type")

    def annotation(self, column: Column) -> str:
        kind = (column.flavour or "").split(":")[0]
        text = "bytes | int" if kind == "spanned" else \
            "Spans" if kind in ("leaves", "hash_leaves") else python_type(column.node)
        return f"{text} | None" if column.optional else text

    def record(self, spec: Lean) -> list[str]:
        model = spec.model
        name = model.__name__
        rows, slots, annotations = [], [], []
        for column in columns(spec):
            where = f"{name}.{column.attr}"
            lit = column.node
            if column.key == "schema" and isinstance(lit, Lit) and len(lit.values) == 1 \
                    and column.attr == "record_schema" and not column.optional:
                rows.append(f"{self.base('schema_tag')}({quoted(lit.values[0])}),")
                attr = column.attr
            else:
                if column.flavour:
                    check, attr = self.flavoured(column, where)
                else:
                    check, attr = self.check(column.node, where), column.attr
                head = f"({quoted(column.key)}, {quoted(attr)},"
                row = f"{head} {check}, {column.optional}),"
                if len(row) + 8 > LINE:
                    row = f"{head}\n         {check}, {column.optional}),"
                rows.append(row)
            slots.append(attr)
            annotations.append(f"    {attr}: {self.annotation(column)}")
        base_class = spec.base
        if base_class in ("Struct", "CborRecord"):
            self.base(base_class)
        else:
            self.hook(base_class)
        doc = f'    """``{model.__module__}.{name}``.'
        if base_class != "Struct":  # a CborRecord
            doc += "\n\n    :meth:`to_cbor` gives back the bytes it was read from.\n    "
        lines = [f"class {name}({base_class}):", doc + '"""', "",
                 *wrapped("    __slots__ = (", [quoted(s) for s in sorted(slots)], ")"),
                 *annotations,
                 *wrapped("    FIELDS = (", [r.rstrip(",") for r in rows], ")", force=True)]
        if spec.invariants is not None:
            lines.append(f"    _invariants = {self.hook(spec.invariants)}")
        self.names.add(name)
        self.written[name] = self.module
        return lines


HEADER = '''"""Lean records of the {module} domain, generated from the pydantic models: do not edit.

Written by ``python -m por.lean.generate`` (issue 21) from the models its table
``DOMAINS`` names (``por.schemas``, ``por.bundle.layout``): the model is the one
place a record's fields, types and bounds are declared; the table chooses the
fast path's helpers for speed and memory, and :mod:`por.lean.hooks` holds the
hand-written cross-field rules and span handling.  To change a record, change
its model (or the table) and run the generator again;
``tests/unit/lean/test_lean_generated.py`` fails while this file differs from
what the generator writes.
"""
'''

PACKAGE_HEADER = '''"""The lean records, generated from the pydantic models: do not edit (issue 21).

One module per domain, written by ``python -m por.lean.generate``; this one
names every generated record and literal set from its module.
"""
'''


def render(module: str, rows: tuple[Lean, ...],
           written: dict[str, str]) -> tuple[str, list[str]]:
    """The text of ``por.lean.records_gen.<module>`` and the names it exports;
    ``written`` maps each lean class of the modules written before to its module
    (and gains this one's)."""
    writer = _Writer(written, module)
    body: list[str] = []
    for spec in rows:
        body += ["", "", *writer.record(spec)]
    lines = [HEADER.format(module=module), "from __future__ import annotations", ""]
    if writer.uses_spans:
        lines.append("from por.encoding.spans import Spans")
    lines += import_lines("por.lean.base", writer.base_names)
    lines += import_lines("por.lean.hooks", writer.hook_names)
    for other, names in sorted(writer.imported.items()):
        lines += import_lines(f"por.lean.records_gen.{other}", names)
    if writer.literals:
        lines.append("")
    for name, _ in LITERALS:
        if name in writer.literals:
            values = [quoted(v) for v in writer.literals[name]]
            one = f"{name} = ({', '.join(values)})"
            lines += [one] if len(one) <= LINE else [
                f"{name} = (", *(f"    {v}," for v in values), ")"]
    if writer.shared:
        lines += ["", "#: One object per distinct value, one cache for every field that names it."]
    for name, call in sorted(writer.shared.items()):
        lines.append(f"{name} = {call}")
    exported = sorted([*writer.names, *writer.literals], key=order)
    lines += [*body, "", "", "__all__ = [", *(f"    {quoted(n)}," for n in exported), "]", ""]
    return "\n".join(lines), exported


def _package(exports: dict[str, list[str]]) -> str:
    """``records_gen/__init__.py``: every generated name, from its module."""
    lines = [PACKAGE_HEADER, "from __future__ import annotations", ""]
    for module, names in sorted(exports.items()):
        lines += import_lines(f"por.lean.records_gen.{module}", set(names))
    everything = sorted((n for names in exports.values() for n in names), key=order)
    lines += ["", "__all__ = [", *(f"    {quoted(n)}," for n in everything), "]", ""]
    return "\n".join(lines)


def targets() -> dict[Path, str]:
    """Every generated module and its text."""
    written: dict[str, str] = {}
    texts: dict[Path, str] = {}
    exports: dict[str, list[str]] = {}
    for module, rows in DOMAINS:
        texts[PACKAGE / f"{module}.py"], names = render(module, rows, written)
        seen = {n for earlier in exports.values() for n in earlier}
        exports[module] = [n for n in names if n not in seen]  # a literal set: its first
    texts[PACKAGE / "__init__.py"] = _package(exports)
    texts[WRITERS_TARGET] = render_writers()
    return texts


def main(argv: list[str] | None = None) -> int:
    """Write the modules (``--check``: only say whether they are up to date)."""
    args = sys.argv[1:] if argv is None else argv
    texts = targets()
    if args == ["--check"]:
        stale = [path.name for path, text in texts.items()
                 if not path.exists() or path.read_text(encoding="utf-8") != text]
        return 1 if stale else 0
    if args:
        raise SystemExit("usage: python -m por.lean.generate [--check]")
    PACKAGE.mkdir(exist_ok=True)
    for path, text in texts.items():
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
