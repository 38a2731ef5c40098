"""A JavaScript implementation of the chain forms, written from the text alone
(``docs/spec-forms-draft.md``, SPEC §2, §3, §4, §12.1, §12.5), agrees with every form,
leaf hash and root of ``fixtures/vectors/forms.json``, every record with no form and
every edit; deliberately broken copies of it disagree, so the comparison can fail.

``tests/xformsjs/vectors.mjs [FILE]`` prints one JSON line: counts agreed and
disagreed per kind and the first disagreement. It decodes the records with
``tests/xcontainer/cbor.mjs`` (the strict decoder of SPEC §2). SPEC_GAPS.md lists
where the text did not decide a byte.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from setup_gate import needs

from por.encoding import decode, encode

pytestmark = needs("node", None if shutil.which("node") else "node is not installed")

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
VECTORS = ROOT / "fixtures" / "vectors" / "forms.json"
KINDS = ("forms", "leaf_hashes", "roots", "shapes", "no_form", "edits")
#: The draft's own examples (examples.mjs): §5.6.1's table (with s41's `V_text`) and
#: §5.6.13's worked example.
DRAFT_EXAMPLES = 29


def run(script_dir: Path, vectors: Path = VECTORS) -> tuple[int, dict[str, Any]]:
    node = shutil.which("node") or "node"
    proc = subprocess.run([node, str(script_dir / "vectors.mjs"), str(vectors)],
                          capture_output=True, text=True, timeout=120, check=False)
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, (proc.stdout, proc.stderr)
    return proc.returncode, json.loads(lines[0])


def expected_counts(vectors: Path) -> dict[str, int]:
    """Per kind, the vectors ``vectors.mjs`` compares (``synthesized`` markets and
    ``shapes``, s39, counted when the file has them)."""
    doc = json.loads(vectors.read_text(encoding="utf-8"))
    markets = doc["vectors"] + doc.get("synthesized", [])
    forms = sum(len(v["forms"]) for v in markets)
    return {"forms": forms, "leaf_hashes": forms, "roots": len(markets),
            "shapes": len(doc.get("shapes", [])), "no_form": len(doc["no_form"]),
            "edits": len(doc["edits"])}


def test_node_agrees_with_every_vector() -> None:
    code, result = run(HERE)
    assert code == 0, result
    assert result["disagreements"] == 0, result["first_disagreement"]
    assert result["agreed"] == {**expected_counts(VECTORS), "draft_examples": DRAFT_EXAMPLES}
    assert result["disagreed"] == dict.fromkeys((*KINDS, "draft_examples"), 0)
    # The file as of s38: 42 markets, 389 forms, 19 no-form records, 138 edits.
    counts = result["agreed"]
    assert counts["roots"] >= 42 and counts["forms"] >= 389
    assert counts["no_form"] >= 19 and counts["edits"] >= 138


#: Deliberate breaks of the implementation: (file, text, replacement, the kind of
#: vector that must then disagree).
BREAKS = {
    "decimal sign word": ("words.mjs", "(BigInt(sign) << 255n)", "(BigInt(1 - sign) << 255n)",
                          "forms"),
    "rest word ignores extra keys": ("words.mjs", "rest.size ? sha256", "false ? sha256",
                                     "edits"),
    "a present 0 in Z has a form": ("words.mjs", "this.Wr(n, 1n, hi", "this.Wr(n, 0n, hi",
                                    "no_form"),
    "verdict before the steps": ("forms.mjs", "...steps.map((s) => ({ record: s, requirement: "
                                 "undefined })),\n    { record: verdict, requirement: undefined },",
                                 "{ record: verdict, requirement: undefined },\n    ...steps.map("
                                 "(s) => ({ record: s, requirement: undefined })),", "roots"),
    "node hash prefix": ("forms.mjs", "sha256(Uint8Array.of(1), mthOfLeaves",
                         "sha256(Uint8Array.of(0), mthOfLeaves", "roots"),
    "T pads a whole word": ("words.mjs", "Math.ceil(bytes.length / 32) * 32",
                            "(Math.floor(bytes.length / 32) + 1) * 32", "draft_examples"),
    "blank-source flag inverted": ("steps.mjs", "f.B([...source].every(", "f.B(![...source].every(",
                                   "forms"),
    # Lever (a)+v of ADR 0017 (s41): what the layout made H, written T, and the T it kept
    # written H; each must disagree with the regenerated forms.json.
    "s41: an EXTRACT claim id as T": ("steps.mjs", "g.H(req(claim, 'claim_id'))",
                                      "g.T(req(claim, 'claim_id'))", "forms"),
    "s41: a text claim value as T": ("words.mjs", "return this.H(v, what); // SPEC",
                                     "return this.T(v, what); // SPEC", "forms"),
    "s41: REQUIREMENT fields keep T(key)": ("spec.mjs", "      g.H(key);", "      g.H(key).T(key);",
                                            "forms"),
    "s41: EXTRACT word 5 as H": ("steps.mjs", "f.H(req(o, 'evidence_id')).T(req(o, 'evidence_id'))",
                                 "f.H(req(o, 'evidence_id')).H(req(o, 'evidence_id'))", "forms"),
    "s41: uncovered_requirements as H": ("steps.mjs",
                                         "textList(f, req(o, 'uncovered_requirements')",
                                         "hashList(f, req(o, 'uncovered_requirements')", "forms"),
}


def broken_copy(tmp_path: Path, file: str, text: str, replacement: str) -> Path:
    """A copy of tests/xformsjs (and the decoder it imports) with one text replaced."""
    copy = tmp_path / "tests" / "xformsjs"
    shutil.copytree(HERE, copy, ignore=shutil.ignore_patterns("*.py", "*.md", "__pycache__"))
    (tmp_path / "tests" / "xcontainer").mkdir()
    shutil.copy(ROOT / "tests" / "xcontainer" / "cbor.mjs", tmp_path / "tests" / "xcontainer")
    source = (copy / file).read_text(encoding="utf-8")
    assert source.count(text) == 1, (file, text)
    (copy / file).write_text(source.replace(text, replacement), encoding="utf-8")
    return copy


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_a_broken_copy_disagrees(tmp_path: Path, name: str) -> None:
    file, text, replacement, kind = BREAKS[name]
    code, result = run(broken_copy(tmp_path, file, text, replacement))
    assert code == 1, result
    assert result["disagreed"][kind] > 0, result
    assert result["first_disagreement"] is not None


def test_an_edited_vector_disagrees(tmp_path: Path) -> None:
    # The comparison reads the file: one changed byte of one expected form is reported.
    doc = json.loads(VECTORS.read_text(encoding="utf-8"))
    form = doc["vectors"][0]["forms"][0]
    form["form_hex"] = form["form_hex"][:-1] + ("1" if form["form_hex"][-1] != "1" else "2")
    edited = tmp_path / "forms.json"
    edited.write_text(json.dumps(doc), encoding="utf-8")
    code, result = run(HERE, edited)
    assert code == 1
    assert result["disagreements"] == 1
    assert result["first_disagreement"]["kind"] == "forms"
    assert result["first_disagreement"]["index"] == 0


def _set(path: str, value: Any) -> Any:
    """An edit of a decoded record: ``path`` is dotted keys and list indexes."""
    def edit(record: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = record
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[last] = value
    return edit


#: Integers outside the range SPEC §4 fixes, and a tolerance below 0: an invalid
#: record has no form (draft section 1; SPEC_GAPS.md gap 3). Each is (record, the
#: REQUIREMENT index or None, edit); the records are market 08's.
SPEC, VERDICT, Q = "prompt_spec", "verdict", "data_requirements.0."
RANGES = {
    "sources_required of 65": (SPEC, None, _set("prediction_semantics.sources_required", 65)),
    "a status code of 600": (SPEC, 0, _set(Q + "accepted_status_codes", [600])),
    "a status code of 99": (SPEC, 0, _set(Q + "accepted_status_codes", [99])),
    "min_sources of 0": (SPEC, 0, _set(Q + "selection_policy.min_sources", 0)),
    "quorum of 65": (SPEC, 0, _set(Q + "selection_policy.quorum", 65)),
    "min_provenance_tier of 4": (SPEC, None, _set(Q + "min_provenance_tier", 4)),
    "a confidence value of 10001": (
        SPEC, None, _set("confidence_policy.default_confidence_bps", 10001)),
    "a window end of 2^63": (SPEC, None, _set("market.resolution_window.end", 2**63)),
    "a slack of 2^63": (SPEC, None, _set("timestamp_slack_seconds", 2**63)),
    "a tolerance below 0": (SPEC, None, _set("conflict_policy.numeric_tolerance", "-0.05")),
    "a verdict confidence of 10001": (VERDICT, None, _set("confidence_bps", 10001)),
    "a verdict evidence_count of 2^63": (VERDICT, None, _set("evidence_count", 2**63)),
    "a verdict resolution_time of 2^63": (VERDICT, None, _set("resolution_time", 2**63)),
}


def range_vectors(tmp_path: Path) -> Path:
    """main's forms.json with RANGES as further no_form records."""
    doc = json.loads(VECTORS.read_text(encoding="utf-8"))
    market = next(v for v in doc["vectors"] if v["market"] == "08-quorum-agree")
    for why, (which, requirement, edit) in RANGES.items():
        record = decode(bytes.fromhex(market[f"{which}_cbor_hex"]))
        edit(record)
        doc["no_form"].append({"record_cbor_hex": encode(record).hex(),
                               "requirement": requirement, "why": why})
    path = tmp_path / "forms.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_integers_out_of_their_range_have_no_form(tmp_path: Path) -> None:
    vectors = range_vectors(tmp_path)
    code, result = run(HERE, vectors)
    assert code == 0, result["first_disagreement"]
    assert result["agreed"]["no_form"] == expected_counts(VECTORS)["no_form"] + len(RANGES)
    # Broken on purpose: confidence values up to 100 000 have a form.
    copy = broken_copy(tmp_path / "broken", "spec.mjs", "const BPS = [0n, 10000n];",
                       "const BPS = [0n, 100000n];")
    code, result = run(copy, vectors)
    assert code == 1
    # At least this test's two bps records (forms4's file, s39, holds two more).
    assert result["disagreed"]["no_form"] >= 2, result
    assert result["disagreed"]["forms"] == 0
