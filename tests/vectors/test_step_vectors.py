"""`extract` step vectors from fixtures/vectors/steps.json (SPEC §12.1.4).

The committed file equals the generator's output; each vector's bytes are what
the auditor commits for its inputs; and each record is re-derived here from
SPEC's rules alone (the record's keys, the description text, the claim ids, the
fixed warning texts), with only the `por-cbor/1` encoder (§2) borrowed.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from vector_generators import load_generator

from por.encoding import encode

VECTORS = Path(__file__).resolve().parents[2] / "fixtures" / "vectors"
DATA: dict[str, Any] = json.loads((VECTORS / "steps.json").read_text(encoding="utf-8"))

#: SPEC §12.1.4's table of fixed warning texts.
MESSAGES = {
    "extract.unknown_requirement": {"requirement_id is not in the prompt spec"},
    "extract.not_utf8": {"content is not valid UTF-8"},
    "extract.json_syntax": {"content is not RFC 8259 JSON"},
    "extract.json_depth": {"JSON nested deeper than 64"},
    "extract.json_duplicate_key": {"JSON object repeats a member name"},
    "extract.json_surrogate": {"JSON string escapes a lone surrogate"},
    "extract.bad_path": {"json_path is not well formed"},
    "extract.field_missing": {"json_path not present", "regex did not match"},
    "extract.field_kind": {f"value is not a valid {k}"
                           for k in ("numeric", "boolean", "timestamp", "text")},
    "extract.no_locator": {"text evidence needs a regex"},
    "extract.regex_budget": {"regex work budget of the item is spent"},
    "extract.bad_regex": {"regex longer than 256 characters",
                          "regex outside the SPEC 12.1.2 syntax",
                          "counted repetitions add up to more than 64",
                          "regex has no capture group", "regex has more than 512 positions",
                          "regex fields of the requirement exceed 1024 positions"},
    "extract.too_large": {"content exceeds the size cap"},
    "extract.value_too_long": {"text value is longer than 256 bytes"},
}


def _generator() -> ModuleType:
    return load_generator("gen_steps")


def test_committed_file_is_the_generators_output() -> None:
    assert (VECTORS / "steps.json").read_text(encoding="utf-8") == _generator().render()


def test_every_warning_code_has_a_vector() -> None:
    seen = {w["check_id"] for v in DATA["vectors"] for w in v["step"]["output"]["warnings"]}
    assert seen == set(MESSAGES) - {"extract.too_large"}  # the schema caps the body first
    texts = {w["message"] for v in DATA["vectors"] for w in v["step"]["output"]["warnings"]
             if w["check_id"] == "extract.bad_regex"}
    assert texts == MESSAGES["extract.bad_regex"]


@pytest.mark.parametrize("vector", DATA["vectors"], ids=lambda v: v["name"])
def test_auditor_commits_the_vector_bytes(vector: dict[str, Any]) -> None:
    gen = _generator()
    data = gen.step_bytes(vector["fields"], vector["requirement_id"], vector["content_type"],
                          gen.body_from(vector["body"]), vector["step_id"])
    assert data.hex() == vector["cbor_hex"]


def _claim_id(evidence_id: str, path: str, value: object) -> str:
    data = evidence_id.encode() + b"|" + path.encode() + b"|" + encode(value)
    return "cl_" + hashlib.sha256(data).hexdigest()[:12]


def _card(item: dict[str, Any]) -> dict[str, Any]:
    """SPEC §12.5.2: the card copies five of the item's values."""
    receipt = item["retrieval_receipt"]
    return {"source_id": item["source"]["source_id"], "provenance_tier": item["provenance_tier"],
            "confidence_bps": item["confidence_bps"], "retrieved_at": receipt["retrieved_at"],
            "status_code": receipt["status_code"]}


@pytest.mark.parametrize("vector", DATA["vectors"], ids=lambda v: v["name"])
def test_record_follows_spec_rules(vector: dict[str, Any]) -> None:
    step = vector["step"]
    eid = vector["evidence_id"]
    out = step["output"]
    for claim in out["claims"]:
        assert list(claim) == ["claim_id", "key", "kind", "path", "value"]
        assert claim["claim_id"] == _claim_id(eid, claim["path"], claim["value"])
    for warning in out["warnings"]:
        assert set(warning) <= {"check_id", "message", "key", "offset"}
        assert warning["message"] in MESSAGES[warning["check_id"]]
        assert ("offset" in warning) == (warning["check_id"] in {
            "extract.not_utf8", "extract.json_syntax", "extract.json_depth",
            "extract.json_duplicate_key", "extract.json_surrogate"})
    expected = {"schema": "por.ReasoningStep/1", "step_id": vector["step_id"],
                "step_type": "extract",
                "description": f"extract {len(out['claims'])} claim(s) from {eid}",
                "evidence_ids": [eid], "prior_step_ids": [],
                "inputs": {"kind": "extract_claims"},
                "output": {"card": _card(vector["item"]), "claims": out["claims"],
                           "warnings": out["warnings"], "evidence_id": eid,
                           "requirement_id": vector["requirement_id"]}}
    assert encode(expected).hex() == vector["cbor_hex"]
