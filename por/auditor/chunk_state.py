"""The running state of a requirement's chain of check chunks, and the merge of
the chains' contradiction groups (SPEC §12.5.3, §12.5.5; ADR 0011 decision 3).

A ``check_requirement`` step reads at most :data:`CHECK_CHUNK_ITEMS` items of
one requirement and cites the chunk before it; its output carries a bounded
*state* (counts, coverage, the first admitted item of each source, the
requirement's contradiction groups, the last leaf read), so the aggregate and
the contradictions step read one chunk each instead of every item.

Groups keep what the one-pass checker of :mod:`por.auditor.contradiction_checks`
keeps: per ``(kind, key)`` the first minimal and first maximal numeric claim, or
the first boolean claim and the first of the other value, and a count.  A claim
is kept as a reference ``{"claim_id", "evidence_id", "value"}``.

Reading a cited chunk's state is strict: anything malformed raises
``step.bad_prior_output`` and a chunk of another requirement
``step.citation_mismatch``.  Leaves out: admission (``logic_sanity``) and the
step records (``steps``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any, cast

from por.auditor import step_io as io
from por.auditor.contradiction_checks import CHECK_BOOLEAN, CHECK_NUMERIC, conflict_check
from por.auditor.values import within_tolerance
from por.errors import AuditError
from por.numbers import is_canonical_decimal, parse_decimal
from por.protocol.limits import CHECK_CHUNK_ITEMS, MAX_UINT63, step_number

if TYPE_CHECKING:
    from por.auditor.claim_extraction import Claim
    from por.auditor.step_io import StepLike
    from por.lean.writers_gen import Check

#: The state keys a chunk's output carries (``last_leaf``/``from_leaf`` may be absent).
STATE_KEYS = ("item_count", "admitted_count", "covered", "provenance_ok", "claim_count",
              "sources", "groups")
_REF_KEYS = ["claim_id", "evidence_id", "value"]
_SOURCE_KEYS = ["evidence_id", "source_id", "step_id"]


def initial_state() -> dict[str, Any]:
    """The state before chunk 0 (SPEC §12.5.3)."""
    return {"chunk": -1, "item_count": 0, "admitted_count": 0, "covered": False,
            "provenance_ok": True, "claim_count": 0, "sources": [], "groups": []}


def leaf_of(step_id: str) -> int:
    """The evidence leaf an extract step ``step_{j+1}`` reads: j."""
    number = step_number(step_id)
    if number is None:
        raise AuditError(io.CITATION_MISMATCH, f"{step_id!r} is not a step id")
    return number - 1


def _bad(step: StepLike, what: str) -> AuditError:
    return AuditError(io.BAD_PRIOR_OUTPUT, f"step {step.step_id}: {what}")


def _count(step: StepLike, data: dict[str, Any], key: str) -> int:
    value = io.field(step, data, key, int)
    if not 0 <= value <= MAX_UINT63:
        raise _bad(step, f"{key!r} is out of range")
    return value


def _ref(step: StepLike, raw: Any, kind: str) -> dict[str, Any]:
    if not isinstance(raw, dict) or sorted(raw) != _REF_KEYS:
        raise _bad(step, "a claim reference is malformed")
    io.field(step, raw, "claim_id", str)
    io.field(step, raw, "evidence_id", str)
    value = raw["value"]
    ok = (type(value) is str and is_canonical_decimal(value)) if kind == "numeric" \
        else type(value) is bool
    if not ok:
        raise _bad(step, "a claim reference's value is not of its group's kind")
    return cast("dict[str, Any]", raw)


def _group(step: StepLike, raw: Any) -> dict[str, Any]:
    kind = io.field(step, raw, "kind", str)
    io.field(step, raw, "key", str)
    if _count(step, raw, "claim_count") < 1:
        raise _bad(step, "a group counts no claim")
    if kind == "numeric":
        keys = ["claim_count", "key", "kind", "max", "min"]
        if sorted(raw) != keys:
            raise _bad(step, "a numeric group is malformed")
        _ref(step, raw["min"], kind)
        _ref(step, raw["max"], kind)
    elif kind == "boolean":
        if sorted(raw) not in (["claim_count", "first", "key", "kind"],
                               ["claim_count", "first", "key", "kind", "other"]):
            raise _bad(step, "a boolean group is malformed")
        first = _ref(step, raw["first"], kind)
        if "other" in raw and _ref(step, raw["other"], kind)["value"] is first["value"]:
            raise _bad(step, "a boolean group's other claim has its first value")
    else:
        raise _bad(step, f"a group of kind {kind!r}")
    return cast("dict[str, Any]", raw)


def read_state(step: StepLike, requirement_id: str) -> dict[str, Any]:
    """The running state of a cited check chunk of ``requirement_id``, validated."""
    io.expect_kind(step, io.KIND_CHECK, requirement_id)
    out = step.output
    if io.field(step, out, "requirement_id", str) != requirement_id:
        raise AuditError(io.CITATION_MISMATCH, f"step {step.step_id} checks another "
                         "requirement", expected=requirement_id)
    state: dict[str, Any] = {"chunk": _count(step, out, "chunk")}
    for key in ("item_count", "admitted_count", "claim_count"):
        state[key] = _count(step, out, key)
    for key in ("covered", "provenance_ok"):
        state[key] = io.field(step, out, key, bool)
    if state["covered"] != (state["admitted_count"] > 0) or (
            state["covered"] and not state["provenance_ok"]):
        raise _bad(step, "coverage disagrees with the counts")
    sources = io.field(step, out, "sources", list)
    for raw in sources:
        if not isinstance(raw, dict) or sorted(raw) != _SOURCE_KEYS or not all(
                type(raw[k]) is str for k in _SOURCE_KEYS):
            raise _bad(step, "a source entry is malformed")
    if len({s["source_id"] for s in sources}) != len(sources):
        raise _bad(step, "a source is named twice")
    state["sources"] = sources
    groups = [_group(step, g) for g in io.field(step, out, "groups", list)]
    if len({(g["kind"], g["key"]) for g in groups}) != len(groups):
        raise _bad(step, "a group is named twice")
    state["groups"] = groups
    if "last_leaf" in out:
        state["last_leaf"] = _count(step, out, "last_leaf")
    return state


def add_claims(groups: list[dict[str, Any]], claims: Iterable[Claim]) -> None:
    """Update ``groups`` (copies of the prior chunk's, in place) with ``claims``."""
    index = {(g["kind"], g["key"]): n for n, g in enumerate(groups)}
    for claim in claims:
        if claim.kind not in ("numeric", "boolean"):
            continue
        ref = {"claim_id": claim.claim_id, "evidence_id": claim.evidence_id,
               "value": claim.value}
        found = index.get((claim.kind, claim.key))
        if found is None:
            index[(claim.kind, claim.key)] = len(groups)
            group: dict[str, Any] = {"kind": claim.kind, "key": claim.key, "claim_count": 1}
            if claim.kind == "numeric":
                group["min"] = group["max"] = ref
            else:
                group["first"] = ref
            groups.append(group)
        else:
            _fold(groups, found, claim.kind, count=1, low=ref, high=ref)


def _fold(groups: list[dict[str, Any]], n: int, kind: str, *, count: int,
          low: dict[str, Any], high: dict[str, Any]) -> None:
    """Fold claims into group ``n``: numeric ``low``/``high`` their min and max,
    boolean ``low`` their first claim and ``high`` their first of the other value
    (or ``low`` again)."""
    group = groups[n] = dict(groups[n])
    group["claim_count"] += count
    if kind == "numeric":
        if parse_decimal(low["value"]) < parse_decimal(group["min"]["value"]):
            group["min"] = low
        if parse_decimal(high["value"]) > parse_decimal(group["max"]["value"]):
            group["max"] = high
    elif "other" not in group:
        first = group["first"]["value"]
        for ref in (low, high):
            if ref["value"] is not first:
                group["other"] = ref
                break


def merge_groups(chains: Sequence[Sequence[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The requirements' groups merged by ``(kind, key)``, in requirement order
    (SPEC §12.5.5): the same pass as :func:`add_claims` over the claims of the
    requirements one after another."""
    merged: list[dict[str, Any]] = []
    index: dict[tuple[str, str], int] = {}
    for groups in chains:
        for group in groups:
            key = (group["kind"], group["key"])
            found = index.get(key)
            if found is None:
                index[key] = len(merged)
                merged.append(group)
            elif group["kind"] == "numeric":
                _fold(merged, found, "numeric", count=group["claim_count"], low=group["min"],
                      high=group["max"])
            else:
                _fold(merged, found, "boolean", count=group["claim_count"], low=group["first"],
                      high=group.get("other", group["first"]))
    return merged


def conflicts_of(groups: Sequence[dict[str, Any]], tolerance: Decimal) -> list[Check]:
    """The conflicting merged groups, in order (SPEC §12.5.5)."""
    out: list[Check] = []
    for group in groups:
        if group["kind"] == "numeric":
            low, high = group["min"], group["max"]
            if within_tolerance(parse_decimal(high["value"]), parse_decimal(low["value"]),
                                tolerance):
                continue
            out.append(conflict_check(CHECK_NUMERIC, "numeric", group["key"], first=low,
                                      second=high, count=group["claim_count"]))
        elif "other" in group:
            out.append(conflict_check(CHECK_BOOLEAN, "boolean", group["key"],
                                      first=group["first"], second=group["other"],
                                      count=group["claim_count"]))
    return out


def full_prior(state: dict[str, Any]) -> bool:
    """Whether a chunk with this state may be followed by another: it holds 10."""
    return bool(state["item_count"] == CHECK_CHUNK_ITEMS * (state["chunk"] + 1))


__all__ = ["STATE_KEYS", "add_claims", "conflicts_of", "full_prior", "initial_state",
           "leaf_of", "merge_groups", "read_state"]
