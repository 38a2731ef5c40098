"""PromptSpec leaves and FormProofs an attacker would send to the PromptSpec's family on
chain (s44 ``attack``): valid PromptSpecs at the edges (8 requirements, long texts of
every UTF-8 width across CBOR's length headers, item-dense lists), leaves that are CBOR
but not a PromptSpec, leaves that are not por-cbor/1, and a FormProof of any form index
and forms size built over synthetic trees (no bundle: every hash but the ones the proof
checks is filler, so an index up to 2^64 - 2 is a proof whose paths all verify).
Shared by ``test_attack_prompt_family.py`` and ADR 0017's s44 measurement."""

from __future__ import annotations

import copy
import hashlib
import string
from typing import Any

from bundle_edits import honest

from por.bundle.layout import COMPONENTS, component_leaf
from por.challenge.records import FormProof, InclusionProof, challenge_id_from_body, seal
from por.encoding import decode, encode
from por.merkle import (
    inclusion_proof_from_leaf_hashes,
    inclusion_sides,
    leaf_hash,
    root_from_inclusion_proof,
    root_from_leaf_hashes,
)

_ALNUM = string.ascii_lowercase + string.digits
#: 1 296 sorted two-character ids.
IDS = sorted(a + b for a in _ALNUM for b in _ALNUM)


def base_spec() -> dict[str, Any]:
    """Scenario 08's PromptSpec, decoded (a quorum of three sources, one requirement)."""
    spec: dict[str, Any] = decode(honest("08-quorum-agree").prompt_spec)
    return spec


def requirements(spec: dict[str, Any], n: int) -> dict[str, Any]:
    """``spec`` with ``n`` copies of its first requirement (ids ``r0`` .. in order)."""
    out = copy.deepcopy(spec)
    first = out["data_requirements"][0]
    out["data_requirements"] = [{**copy.deepcopy(first), "requirement_id": f"r{k}"}
                                for k in range(n)]
    return out


def text_of(width: int, size: int) -> str:
    """A text of ``size`` UTF-8 bytes, code points of ``width`` bytes, the last ones
    ASCII to reach ``size`` exactly (mixed widths: the reader's worst per code point)."""
    char = {1: "a", 2: "é", 3: "€", 4: "😀"}[width]
    return char * (size // width) + "b" * (size % width)


def long_texts(width: int, size: int, n: int = 1) -> dict[str, Any]:
    """Scenario 08's PromptSpec with ``n`` requirements and every text F reads or hashes
    (market id, metric, requirement ids, source ids, rule ids) ``size`` bytes of
    ``width``-byte code points; ids at most 128 characters."""
    spec = requirements(base_spec(), n)
    ident = text_of(width, min(size, 128 * width))[:128]
    spec["market"]["market_id"] = ident
    spec["prediction_semantics"]["metric"] = ident
    field = spec["data_requirements"][0]["expected_fields"][0]["key"]
    for k, req in enumerate(spec["data_requirements"]):
        req["requirement_id"] = ident[:-1] + str(k)
        req["description"] = text_of(width, size)
        for field_spec in req["expected_fields"]:
            if field_spec["key"] == field:
                field_spec["key"] = ident
    spec["market"]["question"] = text_of(width, size)
    rules = spec["market"]["resolution_rules"]["rules"]
    rules[0]["description"] = text_of(width, size)
    return spec


def longest(width: int, n: int = 1) -> dict[str, Any]:
    """:func:`long_texts` with the longest texts (a multiple of 64 bytes) under the 8 192
    bytes of MAX_PROMPT_SPEC_BYTES."""
    size = 4096
    while len(encode(long_texts(width, size, n))) > 8192:
        size -= 64
    return long_texts(width, size, n)


def dense(sources: int, entries: int, rules: int, n: int) -> dict[str, Any]:
    """A valid PromptSpec as item-dense as §4's caps let it be: ``sources`` two-character
    allowed sources, ``n`` requirements with one source target and two text fields whose
    value maps have ``entries`` entries, ``rules`` resolution rules; every text short."""
    spec = base_spec()
    spec["market"]["allowed_sources"] = IDS[:sources]
    first = spec["data_requirements"][0]
    rows = []
    for k in range(n):
        req = copy.deepcopy(first)
        req["requirement_id"], req["description"] = f"r{k}", ""
        req["source_targets"] = [{**req["source_targets"][0], "source_id": IDS[0], "uri": "h",
                                  "expected_content_type": "text/plain"}]
        req["selection_policy"] = {**req["selection_policy"], "min_sources": 1, "quorum": 1}
        field = {**req["expected_fields"][0], "kind": "text"}
        if entries:
            field["value_map"] = {"normalise": "none", "others": "convert", "entries": [
                {"printed": IDS[i], "value": ""} for i in range(entries)]}
        req["expected_fields"] = [field, {**field, "key": field["key"] + "2"}]
        rows.append(req)
    spec["data_requirements"] = rows
    spec["prediction_semantics"]["sources_required"] = 1
    if rules > 1:
        rule = spec["market"]["resolution_rules"]["rules"][0]
        spec["market"]["resolution_rules"]["rules"] = [
            {**rule, "rule_id": f"R_{IDS[i]}", "description": "", "priority": 0}
            for i in range(rules)]
    return spec


#: The most expensive valid PromptSpecs s44's search found (``dense`` arguments), for
#: COMMON (8 124 bytes) and a REQUIREMENT (8 050 bytes).
DENSE_COMMON = (100, 4, 64, 8)
DENSE_REQUIREMENT = (256, 8, 1, 8)


def map_bytes(entries: list[tuple[bytes, bytes]]) -> bytes:
    """A CBOR map of encoded (key, value) pairs in the order given (canonical or not);
    fewer than 24 pairs (a one-byte head)."""
    assert len(entries) < 24
    return bytes([0xA0 | len(entries)]) + b"".join(k + v for k, v in entries)


def reordered(spec: dict[str, Any], swap: tuple[int, int]) -> bytes:
    """``spec`` encoded with two top-level entries swapped: keys out of §2's order."""
    pairs = [(encode(k), encode(v)) for k, v in spec.items()]
    pairs.sort(key=lambda kv: (len(kv[0]), kv[0]))
    i, j = swap
    pairs[i], pairs[j] = pairs[j], pairs[i]
    return map_bytes(pairs)


def duplicated(spec: dict[str, Any], key: str) -> bytes:
    """``spec`` with ``key`` a second time, right after itself."""
    pairs = sorted(((encode(k), encode(v)) for k, v in spec.items()),
                   key=lambda kv: (len(kv[0]), kv[0]))
    at = next(i for i, kv in enumerate(pairs) if kv[0] == encode(key))
    pairs.insert(at + 1, pairs[at])
    return map_bytes(pairs)


def _filler(seed: bytes, n: int) -> list[bytes]:
    return [hashlib.sha256(seed + i.to_bytes(4, "big")).digest() for i in range(n)]


def synthetic_body(leaf: bytes, index: int, size: int, form_leaf: bytes) -> dict[str, Any]:
    """The body (no ``challenge_id``) of a FormProof of the PromptSpec ``leaf`` at form
    ``index`` of a forms tree of ``size`` leaves holding ``form_leaf`` there: the form
    path is filler, the forms root what it gives, and por_root the seven component
    leaves' root with the PromptSpec at 1 and those forms at 6; every path verifies, for
    any ``index < size < 2^64`` (the schema's 2^63 bound is not applied here)."""
    seed = b"%d/%d" % (index, size)
    form_path = _filler(seed, len(inclusion_sides(index, size)))
    forms_root = root_from_inclusion_proof(form_leaf, index, size, form_path)
    pairs = {name: (h, 1) for name, h in zip(COMPONENTS, _filler(seed + b"c", 7), strict=True)}
    pairs["prompt_spec"] = (leaf_hash(leaf), 1)
    pairs["forms"] = (forms_root, size)
    hashes = [leaf_hash(component_leaf(*pairs[name])) for name in COMPONENTS]
    por_root = root_from_leaf_hashes(hashes)
    record = seal(InclusionProof, {
        "schema": InclusionProof.SCHEMA, "kind": "prompt_spec", "component": "prompt_spec",
        "leaf": leaf, "leaf_index": 0, "tree_size": 1, "leaf_path": [],
        "component_root": leaf_hash(leaf),
        "component_path": inclusion_proof_from_leaf_hashes(hashes, 1), "por_root": por_root})
    return {
        "schema": FormProof.SCHEMA, "kind": "prompt_spec", "por_root": por_root,
        "record": record.to_dict(), "form_index": index, "forms_size": size,
        "form_leaf": form_leaf, "form_path": form_path, "forms_root": forms_root,
        "forms_path": inclusion_proof_from_leaf_hashes(hashes, 6)}


def synthetic_proof(leaf: bytes, index: int, size: int, form_leaf: bytes) -> FormProof:
    """:func:`synthetic_body` sealed (``size`` below 2^63)."""
    proof: FormProof = seal(FormProof, synthetic_body(leaf, index, size, form_leaf))
    return proof


def synthetic_file(leaf: bytes, index: int, size: int, form_leaf: bytes) -> bytes:
    """:func:`synthetic_body` with its id, encoded: a file for any 64-bit index/size."""
    body = synthetic_body(leaf, index, size, form_leaf)
    return encode({**body, "challenge_id": challenge_id_from_body(body)})
