"""A PromptSpec that can never resolve is refused before anything is built.

Two mistakes pass the JSON Schema and make every bundle INVALID in silence
(issue 10): a resolution rule id the judge does not execute, and a
``prediction_semantics.metric`` that no FieldSpec provides with the
predicate's kind.  :func:`unresolvable` returns the first such reason as a
``SchemaError`` (exit 1, one line), or ``None``:

* the judge's schema lock on the PromptSpec (``judge.schema_lock.*``: rule
  ids outside the five canonical ones, ``strict_mode`` off, another output
  schema), with the unknown ids and the valid ones named;
* ``spec.metric_unprovided``: no requirement declares a field whose key is the
  metric and whose kind the predicate needs (``numeric`` for
  ``numeric_threshold``, ``boolean`` for ``event_observed``); a requirement
  with no declared fields provides the fallback fields (``result`` boolean,
  ``value`` and ``price`` numeric; SPEC §12.1).

Leaves out: anything that depends on evidence (a typo'd ``json_path`` is
found at build time, from the extract step's warnings).
"""

from __future__ import annotations

from por.errors import SchemaError
from por.judge.schema_lock import SchemaLock
from por.schemas import PromptSpec

#: Fallback fields of a requirement that declares none (SPEC §12.1): key -> kind.
FALLBACK_KINDS = {"result": "boolean", "value": "numeric", "price": "numeric"}
#: The field kind each predicate reads its metric as.
PREDICATE_KIND = {"numeric_threshold": "numeric", "event_observed": "boolean"}


def unresolvable(spec: PromptSpec) -> SchemaError | None:
    """The first reason ``spec`` can never resolve to YES/NO, or None."""
    for check in SchemaLock.verify_prompt_spec(spec):
        if not check.ok and check.severity == "error":
            unknown = (check.details or {}).get("unknown_rule_ids")
            names = [str(u) for u in unknown] if isinstance(unknown, list) else []
            message = (f"unknown resolution rule id(s) {', '.join(names)}; the judge "
                       f"executes {check.expected}" if names else check.message)
            return SchemaError(check.check_id, f"PromptSpec can never resolve: {message}",
                               expected=check.expected, actual=check.actual)
    semantics = spec.prediction_semantics
    want = PREDICATE_KIND.get(semantics.predicate)
    provided: dict[str, set[str]] = {}
    for requirement in spec.data_requirements:
        fields = ({f.key: f.kind for f in requirement.expected_fields}
                  if requirement.expected_fields else FALLBACK_KINDS)
        for key, kind in fields.items():
            provided.setdefault(key, set()).add(kind)
    kinds = provided.get(semantics.metric, set())
    if want is not None and want not in kinds:
        have = (f"it is provided only as {', '.join(sorted(kinds))}" if kinds else
                "no FieldSpec has that key")
        keys = ", ".join(sorted(provided)) or "(none)"
        return SchemaError("spec.metric_unprovided", f"PromptSpec can never resolve: metric "
                           f"{semantics.metric!r} must be a {want} field for "
                           f"{semantics.predicate}; {have} (fields: {keys})",
                           expected=f"{want} field {semantics.metric}",
                           actual=keys[:200])
    return None


__all__ = ["FALLBACK_KINDS", "PREDICATE_KIND", "unresolvable"]
