"""Chain forms of what the aggregate reads and writes (ADR 0017 stage 1, spike s38).

Scratch, not protocol: ``F`` here covers only the records ADR 0016 §1's aggregate row
names, in the word layout of ADR 0017 §1. Every form is a sequence of 32-byte words:

* ``W(n)``: an integer, boolean or enum, one big-endian word;
* ``H(t)``: a text compared only for equality, ``SHA-256(utf-8)``;
* ``T(t)``: a text the aggregate's output copies, ``W(len)`` then its bytes, zero-padded
  to a word;
* ``D(d)``: a canonical decimal (§3.2), ``W(sign << 255 | scale << 232 | len)`` then its
  digits (ASCII, leading zeros dropped, ``"0"`` for zero), zero-padded to a word;
* ``V(kind, v)``: a claim value: ``D`` (numeric), ``W`` (timestamp, boolean), ``T`` (text).

Layouts (the first word is the form's tag):

* ``COMMON`` (the PromptSpec's parts every requirement shares): ``W(1) H(metric)
  W(sources_required or 0) D(numeric_tolerance)``;
* ``REQUIREMENT`` R: ``W(2) H(requirement_id) W(strategy) W(tie_breaker) W(min_sources)
  W(quorum) W(nT) H(source_id)*nT W(nF) (W(kind) H(key) T(key))*nF``, the fields being
  §12.1's effective ones (the fallback fields when none are declared);
* ``EXTRACT`` step: ``W(3) H(step_id) H(card.source_id) W(card.provenance_tier)
  H(evidence_id) T(evidence_id) W(nC) (H(key) W(kind) T(claim_id) V(value))*nC``;
* ``CHUNK`` (check_requirement step): ``W(4) H(step_id) H(requirement_id) W(covered)
  W(provenance_ok) W(item_count) W(has last_leaf) W(last_leaf or 0) W(nS)
  (H(step_id) H(evidence_id) H(source_id))*nS``;
* ``AGGREGATE`` step: ``W(5) H(step_id) T(inputs.requirement_id) W(nP) H(prior)*nP
  W(nE) T(evidence_id)*nE``, then its output: ``T(requirement_id)
  W(strategy) W(covered) W(provenance_ok) W(item_count) W(has last_leaf) W(last_leaf or 0)
  W(fallback_used) W(nF) field*nF W(nU) T(sources_used)*nU R``, then ``T(description)``
  (last: the executor builds it from counts it knows only after the fields); a field:
  ``T(key) W(kind) W(status) W(candidates) W(fallback_used) W(has value) [V(value)] W(has quorum)
  [W(required) W(agreeing) W(met) R] W(nC) T(claim_id)*nC W(nE) T(evidence_id)*nE
  W(has votes) [W(nV) (V(value) H(source_id) T(evidence_id) R)*nV] R``, where ``R`` (the
  rest) is ``W(0)``, or SHA-256 of the canonical CBOR of the map's entries the layout does
  not name (an extra key); the output's ``R`` follows ``sources_used``. ``F`` has no
  form for a value of the wrong CBOR type (a boolean as 1, a count as a text): a
  FormProof's case, like an invalid record;
* ``OTHER``: ``W(6) H(step_id)`` (a stand-in leaf for records the spike gives no form,
  so that the tree has a bundle's size).

The forms tree's leaves are ``LH(F)`` (RFC 9162's leaf hash of the form itself, one
SHA-256 over ``0x00 || F``, not ``LH(SHA-256(F))``), in the order COMMON, one REQUIREMENT
per ``data_requirements`` entry, every step in trace order, the verdict (OTHER).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from por.encoding import encode
from por.merkle.hashing import leaf_hash
from por.merkle.tree import inclusion_proof_from_leaf_hashes, root_from_leaf_hashes

KINDS = {"boolean": 0, "numeric": 1, "timestamp": 2, "text": 3}
STRATEGIES = {"single_best": 0, "multi_source_quorum": 1, "fallback_chain": 2}
TIES = {"source_order": 0, "highest_provenance": 1}
STATUSES = {"selected": 0, "missing": 1, "insufficient": 2, "no_quorum": 3}
COMMON, REQUIREMENT, EXTRACT, CHUNK, AGGREGATE, OTHER = 1, 2, 3, 4, 5, 6
#: §12.1's fallback fields (no ``expected_fields`` declared), in their order.
FALLBACK_FIELDS = (("result", "boolean"), ("value", "numeric"), ("price", "numeric"),
                   ("timestamp", "timestamp"))


class FormError(ValueError):
    """The record has no form (it is not a valid record of the part the spike covers)."""


def w(n: int) -> bytes:
    if not 0 <= n < 1 << 256:
        raise FormError(f"word out of range: {n}")
    return n.to_bytes(32, "big")


def h(text: str) -> bytes:
    return hashlib.sha256(text.encode()).digest()


def _pad(data: bytes) -> bytes:
    return data + bytes(-len(data) % 32)


def t(text: str) -> bytes:
    data = text.encode()
    return w(len(data)) + _pad(data)


def d(text: str) -> bytes:
    negative = text.startswith("-")
    body = text[1:] if negative else text
    whole, _, frac = body.partition(".")
    digits = (whole + frac).lstrip("0") or "0"
    return w(int(negative) << 255 | len(frac) << 232 | len(digits)) + _pad(digits.encode())


def value(kind: str, v: Any) -> bytes:
    if kind == "numeric" and isinstance(v, str):
        return d(v)
    if kind == "text" and isinstance(v, str):
        return t(v)
    if kind == "boolean" and isinstance(v, bool):
        return w(int(v))
    if kind == "timestamp" and isinstance(v, int) and not isinstance(v, bool):
        return w(v)
    raise FormError(f"a {kind} claim value of the wrong type: {v!r}")


def _kind(step: Mapping[str, Any], kind: str, step_type: str) -> None:
    if step.get("inputs", {}).get("kind") != kind or step.get("step_type") != step_type:
        raise FormError(f"not a {kind} step")


def common_form(spec: Mapping[str, Any]) -> bytes:
    semantics = spec["prediction_semantics"]
    return (w(COMMON) + h(semantics["metric"]) + w(semantics.get("sources_required") or 0)
            + d(spec["conflict_policy"]["numeric_tolerance"]))


def requirement_form(requirement: Mapping[str, Any]) -> bytes:
    policy = requirement["selection_policy"]
    targets = [x["source_id"] for x in requirement["source_targets"]]
    fields = [(f["key"], f["kind"]) for f in requirement.get("expected_fields") or []]
    fields = fields or list(FALLBACK_FIELDS)
    return (w(REQUIREMENT) + h(requirement["requirement_id"]) + w(STRATEGIES[policy["strategy"]])
            + w(TIES[policy.get("tie_breaker", "source_order")])
            + w(policy.get("min_sources") or 0) + w(policy.get("quorum") or 0)
            + w(len(targets)) + b"".join(h(x) for x in targets)
            + w(len(fields)) + b"".join(w(KINDS[kind]) + h(key) + t(key) for key, kind in fields))


def extract_form(step: Mapping[str, Any]) -> bytes:
    _kind(step, "extract_claims", "extract")
    out = step["output"]
    card = out.get("card")
    if not isinstance(card, Mapping):
        raise FormError("an extract step without a card")
    claims = out["claims"]
    return (w(EXTRACT) + h(step["step_id"]) + h(card["source_id"]) + w(card["provenance_tier"])
            + h(out["evidence_id"]) + t(out["evidence_id"]) + w(len(claims))
            + b"".join(h(c["key"]) + w(KINDS[c["kind"]]) + t(c["claim_id"])
                       + value(c["kind"], c["value"]) for c in claims))


def _last_leaf(out: Mapping[str, Any]) -> bytes:
    return w(1) + w(out["last_leaf"]) if "last_leaf" in out else w(0) + w(0)


def chunk_form(step: Mapping[str, Any]) -> bytes:
    _kind(step, "check_requirement", "check")
    out = step["output"]
    sources = out["sources"]
    return (w(CHUNK) + h(step["step_id"]) + h(out["requirement_id"]) + w(int(out["covered"]))
            + w(int(out["provenance_ok"])) + w(out["item_count"]) + _last_leaf(out)
            + w(len(sources))
            + b"".join(h(s["step_id"]) + h(s["evidence_id"]) + h(s["source_id"])
                       for s in sources))


def _texts(texts: Any) -> bytes:
    if not isinstance(texts, list):
        raise FormError("not a list")
    return w(len(texts)) + b"".join(t(_str(x)) for x in texts)


def _str(v: Any) -> str:
    if not isinstance(v, str):
        raise FormError(f"not a text: {v!r}")
    return v


def _int(v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise FormError(f"not an integer: {v!r}")
    return v


def _bool(v: Any) -> int:
    if not isinstance(v, bool):
        raise FormError(f"not a boolean: {v!r}")
    return int(v)


def rest(m: Any, known: tuple[str, ...]) -> bytes:
    """``W(0)``, or ``SHA-256`` of the canonical CBOR of ``m``'s entries the layout does
    not name: a committed output with an extra key has a form the recomputation (which
    writes 0) never gives, so ``F`` stays injective on the outputs the kind writes."""
    if not isinstance(m, Mapping):
        raise FormError("not a map")
    extra = {k: v for k, v in m.items() if k not in known}
    return hashlib.sha256(encode(extra)).digest() if extra else w(0)


FIELD_KEYS = ("key", "kind", "status", "candidates", "fallback_used", "value", "quorum",
              "claim_ids", "evidence_ids", "votes")
OUTPUT_KEYS = ("requirement_id", "strategy", "covered", "provenance_ok", "item_count",
               "last_leaf", "fallback_used", "fields", "sources_used")


def _field(f: Mapping[str, Any]) -> bytes:
    kind = f["kind"]
    out = (t(_str(f["key"])) + w(KINDS[kind]) + w(STATUSES[f["status"]])
           + w(_int(f["candidates"])) + w(_bool(f["fallback_used"])))
    out += w(1) + value(kind, f["value"]) if "value" in f else w(0)
    quorum = f.get("quorum")
    out += (w(1) + w(_int(quorum["required"])) + w(_int(quorum["agreeing"]))
            + w(_bool(quorum["met"])) + rest(quorum, ("required", "agreeing", "met"))
            if quorum is not None else w(0))
    out += _texts(f["claim_ids"]) + _texts(f["evidence_ids"])
    votes = f.get("votes")
    if votes is None:
        return out + w(0) + rest(f, FIELD_KEYS)
    if not isinstance(votes, list):
        raise FormError("votes")
    return out + w(1) + w(len(votes)) + b"".join(
        value(kind, v["value"]) + h(_str(v["source_id"])) + t(_str(v["evidence_id"]))
        + rest(v, ("value", "source_id", "evidence_id")) for v in votes) + rest(f, FIELD_KEYS)


def aggregate_form(step: Mapping[str, Any]) -> bytes:
    _kind(step, "aggregate", "aggregate")
    out = step["output"]
    last = (w(1) + w(_int(out["last_leaf"]))) if "last_leaf" in out else w(0) + w(0)
    fields = out["fields"]
    if not isinstance(fields, list):
        raise FormError("fields")
    return (w(AGGREGATE) + h(step["step_id"]) + t(step["inputs"]["requirement_id"])
            + w(len(step["prior_step_ids"])) + b"".join(h(p) for p in step["prior_step_ids"])
            + _texts(step["evidence_ids"]) + t(_str(out["requirement_id"]))
            + w(STRATEGIES[out["strategy"]]) + w(_bool(out["covered"]))
            + w(_bool(out["provenance_ok"])) + w(_int(out["item_count"])) + last
            + w(_bool(out["fallback_used"])) + w(len(fields))
            + b"".join(_field(f) for f in fields) + _texts(out["sources_used"])
            + rest(out, OUTPUT_KEYS) + t(_str(step["description"])))


def other_form(step_id: str) -> bytes:
    return w(OTHER) + h(step_id)


def step_form(step: Mapping[str, Any]) -> bytes:
    kind = step.get("inputs", {}).get("kind")
    if kind == "extract_claims":
        return extract_form(step)
    if kind == "check_requirement":
        return chunk_form(step)
    if kind == "aggregate":
        return aggregate_form(step)
    return other_form(step["step_id"])


@dataclass(frozen=True)
class FormsTree:
    """A bundle's forms (leaf order of the module docstring) and their tree."""

    forms: tuple[bytes, ...]
    requirements: tuple[str, ...]
    steps: int  # leaf of the first step

    @property
    def hashes(self) -> list[bytes]:
        return [leaf_hash(f) for f in self.forms]

    @property
    def root(self) -> bytes:
        return root_from_leaf_hashes(self.hashes)

    def path(self, leaf: int) -> list[bytes]:
        return inclusion_proof_from_leaf_hashes(self.hashes, leaf)


def forms_tree(spec: Mapping[str, Any], steps: Sequence[Mapping[str, Any]]) -> FormsTree:
    requirements = spec["data_requirements"]
    forms = [common_form(spec), *(requirement_form(r) for r in requirements),
             *(step_form(s) for s in steps), other_form("verdict")]
    return FormsTree(tuple(forms), tuple(r["requirement_id"] for r in requirements),
                     1 + len(requirements))


#: The order the executor takes its forms in.
ORDER = ("common", "requirement", "chunk", "aggregate")


def aggregate_leaves(tree: FormsTree, steps: Sequence[Mapping[str, Any]], index: int
                     ) -> list[int]:
    """Leaves of the forms an aggregate at step ``index`` is checked on: COMMON, its
    REQUIREMENT, its check chunk, itself, then its extract steps in citation order."""
    step = steps[index]
    by_id = {s["step_id"]: i for i, s in enumerate(steps)}
    priors = [by_id[p] for p in step["prior_step_ids"]]
    requirement = tree.requirements.index(step["inputs"]["requirement_id"])
    return [0, 1 + requirement, tree.steps + priors[-1], tree.steps + index,
            *(tree.steps + p for p in priors[:-1])]
