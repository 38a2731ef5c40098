"""What a /3 proof carries (ADR 0016's table "what each kind reads"), built from the
same bundle and the same /2 proof: the records the /2 proof carries, each cut to the
entries its reader reads, with real paths (``por.merkle``), encoded canonically
(``por.encoding``) as ``por.OneStepProof/2`` (and the /2 of the other proof schemas)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from auditor3.entries import ComponentTree, Path, RecordTree, evidence_view, multiproof
from por.bundle.layout import Bundle
from por.challenge.records import challenge_id_from_body
from por.encoding import decode, encode
from por.merkle import leaf_hash, leaf_hashes, tree_levels

ID: list[Path] = [("step_id",), ("step_type",), ("inputs",)]
CITES: list[Path] = [("evidence_ids",), ("prior_step_ids",)]


def _out(*keys: str) -> list[Path]:
    return [("output", k) for k in keys]


#: The disputed record's entries: its identity and citations (the chain recomputes the
#: rest and compares the recomputed tree's root with the committed head).
DISPUTED: dict[str, list[Path]] = {
    "step": ID + CITES,
    "omission": ID + CITES + _out("from_leaf", "last_leaf", "requirement_id"),
    "citation": ID + CITES,
}

#: (reading kind, cited step's kind) -> the cited step's entries read.
_EXTRACT_CARD = [*ID, ("evidence_ids",), *_out("card", "claims", "evidence_id", "requirement_id")]
_IDENTITY = _out("evidence_id", "requirement_id")
CITED: dict[tuple[str, str], list[Path]] = {
    ("check_requirement", "extract_claims"): _EXTRACT_CARD,
    ("check_requirement", "check_requirement"): ID + _out(
        "admitted_count", "chunk", "claim_count", "covered", "groups", "item_count",
        "last_leaf", "provenance_ok", "requirement_id", "sources"),
    ("aggregate", "extract_claims"): _EXTRACT_CARD,
    ("aggregate", "check_requirement"): ID + _out(
        "admitted_count", "covered", "item_count", "last_leaf", "provenance_ok",
        "requirement_id", "sources"),
    ("contradictions", "check_requirement"): ID + _out(
        "claim_count", "groups", "requirement_id"),
    ("deduce", "aggregate"): ID + _out("covered", "fields", "provenance_ok", "requirement_id"),
    ("deduce", "contradictions"): ID + _out("conflicts"),
    ("map", "deduce"): ID + _out(
        "conflict_detected", "event_observed", "fallback_used", "insufficient_evidence",
        "numeric_value", "provenance_ok", "source_summary", "timestamp"),
    ("judge", "map"): [*ID, ("evidence_ids",), *_out("evaluation_variables")],
    ("judge", "extract_claims"): [*ID, ("evidence_ids",), *_out("card", "evidence_id")],
    ("omission", "extract_claims"): [*ID, ("evidence_ids",), *_IDENTITY],
    ("citation", "extract_claims"): [*ID, ("evidence_ids",), *_IDENTITY],
}
#: An evidence item read by a rule-3 OmissionProof: its id and requirement.
ITEM: list[Path] = [("evidence_id",), ("requirement_id",)]

DR = "data_requirements"


def spec_reads(kind: str, r: int, n: int) -> list[Path]:
    """The PromptSpec entries a kind reads; ``r`` the disputed requirement's index, ``n``
    the number of requirements (a kind reading ids up to R reads ids 0..r)."""
    upto: list[Path] = [(DR, i, "requirement_id") for i in range(r + 1)]
    every = range(n)
    count: Path = (DR, "#")
    targets: list[Path] = [(DR, r, "source_targets", "#"),
                           (DR, r, "source_targets", "*", "source_id")]
    table: dict[str, list[Path]] = {
        "check_requirement": [("market", "allowed_sources"), ("market", "resolution_window"),
                              ("timestamp_slack_seconds",), ("prediction_semantics",), count,
                              *upto, *targets, (DR, r, "min_provenance_tier"),
                              (DR, r, "accepted_status_codes")],
        "aggregate": [count, *upto, (DR, r, "selection_policy"), *targets,
                      (DR, r, "expected_fields", "#"), (DR, r, "expected_fields", "*", "key"),
                      (DR, r, "expected_fields", "*", "kind"), ("conflict_policy",),
                      ("prediction_semantics",)],
        "contradictions": [count, *((DR, i, "requirement_id") for i in every),
                           ("conflict_policy",)],
        "deduce": [("prediction_semantics",), count,
                   *((DR, i, k) for i in every for k in ("requirement_id", "selection_policy")),
                   *((DR, i, "source_targets", "#") for i in every)],
        "judge": [("market", "market_id"), ("market", "resolution_window"),
                  ("timestamp_slack_seconds",), ("prediction_semantics",),
                  ("confidence_policy",), ("conflict_policy",), ("output_schema_ref",),
                  ("strict_mode",), count, *((DR, i, "min_provenance_tier") for i in every)],
    }
    return table.get(kind, [])


@dataclass
class Carried:
    """A /3 proof under construction: records by (component, index), entry indices."""

    records: dict[tuple[int, int], tuple[RecordTree, set[int]]] = field(default_factory=dict)
    roles: dict[tuple[int, int], str] = field(default_factory=dict)
    whole: dict[int, bytes] = field(default_factory=dict)  # single-record components
    step: int | None = None  # the disputed step's record index, when the schema has one


class Bundle3:
    """A /2 bundle's records as /3 commits them (trees, heads, components)."""

    def __init__(self, bundle: Bundle) -> None:
        self.bundle = bundle
        self.spec_value = decode(bundle.prompt_spec)
        self.spec = RecordTree("prompt_spec", self.spec_value)
        self.steps = ComponentTree([RecordTree("step", decode(s)) for s in bundle.steps])
        self.items = ComponentTree([RecordTree("evidence", evidence_view(decode(e)))
                                    for e in bundle.evidence])
        size = len(self.spec.leaves).to_bytes(8, "big")
        self.components = [
            leaf_hash(bundle.manifest) + (1).to_bytes(8, "big"), self.spec.root + size,
            self.items.root + len(bundle.evidence).to_bytes(8, "big"),
            leaf_hash(bundle.trace_header) + (1).to_bytes(8, "big"),
            self.steps.root + len(bundle.steps).to_bytes(8, "big"),
            leaf_hash(bundle.verdict) + (1).to_bytes(8, "big")]

    def requirement_index(self, rid: str) -> int:
        ids = [r["requirement_id"] for r in self.spec_value[DR]]
        return ids.index(rid) if rid in ids else 0


def add(c: Carried, b3: Bundle3, component: int, index: int, paths: list[Path], *,
        role: str) -> None:
    tree = b3.spec if component == 1 else (b3.items if component == 2 else b3.steps
                                           ).records[index]
    _t, chosen = c.records.setdefault((component, index), (tree, set()))
    chosen.update(tree.select(paths))
    c.roles.setdefault((component, index), role)


def proof_bytes(c: Carried, b3: Bundle3, schema: str) -> tuple[bytes, dict[str, int], int]:
    """The /3 proof, its bytes by role (spec, step, cited, paths, framing), and the
    SHA-256 calls the chain makes to verify it: each carried leaf, each record head,
    the multiproofs' nodes, the six components to por_root (6 leaves, 5 nodes).

    ``records``: one array per component, ``[component, [record index...],
    multiproof over the component's record heads, [[entry count, [entry index...],
    [leaf...], multiproof over the record's entries], ...]]``; the PromptSpec
    component (its entry tree is the component) is ``[1, [0], [], [[n, ...]]]``."""
    sizes = {"spec": 0, "step": 0, "cited": 0, "paths": 0}
    sha = 11
    parts: list[Any] = []
    for comp in sorted({k for k, _i in c.records}):
        indices = sorted(i for k, i in c.records if k == comp)
        opened = []
        for index in indices:
            tree, chosen = c.records[(comp, index)]
            picked = sorted(chosen)
            siblings, nodes = multiproof(leaf_hashes(tree.leaves), picked)
            sha += len(picked) + nodes
            leaves = [tree.leaves[i] for i in picked]
            sizes[c.roles[(comp, index)]] += sum(len(x) for x in leaves)
            sizes["paths"] += 32 * len(siblings)
            opened.append([len(tree.leaves), picked, leaves, siblings])
        upper: list[bytes] = []
        if comp != 1:
            owner = b3.items if comp == 2 else b3.steps
            upper, nodes = multiproof(leaf_hashes([r.head for r in owner.records]), indices)
            sha += len(indices) + nodes
            sizes["paths"] += 32 * len(upper)
        parts.append([comp, indices, upper, opened])
    for component, record in sorted(c.whole.items()):
        parts.append([component, [0], [], [[1, [0], [record], []]]])
        sizes["step"] += len(record)
        sha += 1
    body: dict[str, Any] = {"schema": schema, "components": b3.components, "records": parts}
    if c.step is not None:
        body["step"] = c.step
    cid = challenge_id_from_body(body)  # SPEC §10.3, as /2 proofs
    data = bytes(encode({**body, "challenge_id": cid}))
    sizes["framing"] = len(data) - sum(sizes.values())
    return data, sizes, sha


def recompute_hashes(tree: RecordTree) -> int:
    """SHA-256 calls to rebuild a recomputed record's root (its leaves and nodes)."""
    return 2 * len(tree.leaves) - 1


__all__ = ["Bundle3", "Carried", "add", "proof_bytes", "recompute_hashes", "spec_reads",
           "tree_levels"]
