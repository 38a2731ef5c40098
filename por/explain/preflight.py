"""A PromptSpec that can never resolve is refused before anything is built.

Two mistakes pass the JSON Schema and make every bundle INVALID in silence
(issue 10): a resolution rule id the judge does not execute, and a
``prediction_semantics.metric`` that no FieldSpec provides with the
predicate's kind.  :func:`unresolvable` returns the first such reason as a
``SchemaError`` (exit 1, one line), or ``None``:

* the judge's schema lock on the PromptSpec (``judge.schema_lock.*``: rule
  ids outside the five canonical ones, ``strict_mode`` off, another output
  schema), with the unknown ids and the valid ones named;
* ``spec.rules_incomplete``: the resolution rules omit one of the five the
  judge always applies (a list naming only some would be silently ignored;
  issue 23);
* ``spec.metric_unprovided``: no requirement declares a field whose key is the
  metric and whose kind the predicate needs (``por.predicates.METRIC_KIND``);
  ``spec.field_unprovided``: the same for another field the predicate reads
  (``terms``, ``other_metric``, ``preconditions``: a field-vs-field comparison
  on a field no requirement extracts).  A requirement with no declared fields
  provides the fallback fields (``result`` boolean, ``value`` and ``price``
  numeric; SPEC §12.1).  Each message names the FieldSpec to add.

Leaves out: anything that depends on evidence (a typo'd ``json_path`` is
found at build time, from the extract step's warnings).
"""

from __future__ import annotations

from por.errors import SchemaError
from por.judge.schema_lock import SchemaLock
from por.predicates import METRIC_KIND, needed_fields
from por.protocol.limits import CANONICAL_RULE_IDS
from por.schemas import PromptSpec

#: Fallback fields of a requirement that declares none (SPEC §12.1): key -> kind.
FALLBACK_KINDS = {"result": "boolean", "value": "numeric", "price": "numeric"}
#: The field kind each predicate reads its metric as.
PREDICATE_KIND = METRIC_KIND
#: The fixed order the judge applies its rules in (SPEC §7.2).
ORDER = "R_VALIDITY, R_CONFLICT, R_BINARY_DECISION, R_CONFIDENCE, R_INVALID_FALLBACK"


def unresolvable(spec: PromptSpec) -> SchemaError | None:
    """The first reason ``spec`` can never resolve to YES/NO, or None."""
    for check in SchemaLock.verify_prompt_spec(spec):
        if not check.ok and check.severity == "error":
            details = check.details or {}
            unknown = details.get("unknown_rule_ids")
            names = [str(u) for u in unknown] if isinstance(unknown, list) else []
            disordered = details.get("out_of_order_rule_ids")
            message = (f"unknown resolution rule id(s) {', '.join(names)}; the judge "
                       f"executes {check.expected}" if names else
                       f"resolution rule(s) {', '.join(map(str, disordered))} listed after "
                       f"a later stage; list the rules with rising priorities in the "
                       f"order {ORDER}" if isinstance(disordered, list) else check.message)
            return SchemaError(check.check_id, f"PromptSpec can never resolve: {message}",
                               expected=check.expected, actual=check.actual)
    listed = {rule.rule_id for rule in spec.market.resolution_rules.rules}
    missing = [r for r in CANONICAL_RULE_IDS if r not in listed]
    if missing:
        return SchemaError("spec.rules_incomplete", "PromptSpec states rules it does not "
                           f"list: the judge always applies {', '.join(missing)}; list all "
                           f"five with rising priorities in the order {ORDER}",
                           expected=ORDER, actual=",".join(sorted(listed)))
    provided: dict[str, set[str]] = {}
    for requirement in spec.data_requirements:
        fields = ({f.key: f.kind for f in requirement.expected_fields}
                  if requirement.expected_fields else FALLBACK_KINDS)
        for key, kind in fields.items():
            provided.setdefault(key, set()).add(kind)
    semantics = spec.prediction_semantics
    for need in needed_fields(semantics):
        kinds = provided.get(need.key, set())
        if need.kind in kinds:
            continue
        have = (f"it is provided only as {', '.join(sorted(kinds))}" if kinds else
                "no FieldSpec has that key")
        keys = ", ".join(sorted(provided)) or "(none)"
        role = "metric" if need.role == "metric" else f"{need.role} field"
        return SchemaError(
            "spec.metric_unprovided" if need.role == "metric" else "spec.field_unprovided",
            f"PromptSpec can never resolve: {role} {need.key!r} must be a {need.kind} "
            f"field for {semantics.predicate}; {have} (fields: {keys}); add a FieldSpec "
            f"{{\"key\": \"{need.key}\", \"kind\": \"{need.kind}\", ...}} to a requirement",
            expected=f"{need.kind} field {need.key}", actual=keys[:200])
    return None


__all__ = ["FALLBACK_KINDS", "PREDICATE_KIND", "unresolvable"]
