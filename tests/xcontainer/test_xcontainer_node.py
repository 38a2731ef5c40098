"""An independent container checker in Node.js, written from SPEC.md alone (§2, §3.6,
§5.3-§5.5, §15.2.5, §16.5), agrees with the committed bundles of all three families.

``tests/xcontainer/check.mjs FILE`` decodes a PoR, judgement or court bundle strictly,
recomputes every commitment and the top root from the record bytes, and checks a
two-level component proof for every record. SPEC_GAPS.md lists what SPEC left open.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from setup_gate import needs

from por.encoding import decode

pytestmark = needs("node", None if shutil.which("node") else "node is not installed")

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
FIXTURES = ROOT / "fixtures"

FAMILIES = {
    "por.Bundle/2": ("por_root", lambda field: f"commit.{field}"),
    "por.JudgementBundle/1": ("judgement_root", lambda field: "judgement.commit_mismatch"),
    "por.CourtBundle/1": ("court_root", lambda field: "court.commit_mismatch"),
}

POR_VALID = sorted((FIXTURES / "bundles/valid").glob("*.cbor"))
JUDGEMENT_VALID = sorted((FIXTURES / "judges/valid").glob("*.cbor"))
COURT_VALID = [FIXTURES / "court/valid/ruling.cbor",
               FIXTURES / "court/valid/ruling-commit-first.cbor"]
VALID = POR_VALID + JUDGEMENT_VALID + COURT_VALID
# One bundle per family for the tampering tests.
TAMPER = [POR_VALID[0], JUDGEMENT_VALID[0], COURT_VALID[0]]


def run_node(*args: str) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node") or "node"
    return subprocess.run([node, *args], capture_output=True, text=True, timeout=120, check=False)


def check_bytes(tmp_path: Path, data: bytes, name: str = "bundle.cbor") -> dict:
    path = tmp_path / name
    path.write_bytes(data)
    return check_file(path)


def check_file(path: Path) -> dict:
    proc = run_node(str(HERE / "check.mjs"), str(path))
    assert proc.returncode in (0, 1), proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1, proc.stdout
    result = json.loads(lines[0])
    assert (proc.returncode == 0) == result["ok"]
    return result


def record_lists(bundle: dict) -> dict[str, list[bytes]]:
    """Every record field of a bundle, as lists of record bytes."""
    skip = {"schema", "commitments", "signatures"}
    return {k: (v if isinstance(v, list) else [v]) for k, v in bundle.items() if k not in skip}


def test_families_have_fixtures():
    assert len(POR_VALID) >= 15 and len(JUDGEMENT_VALID) >= 2 and COURT_VALID[0].exists()


def test_decoder_and_trees_agree_with_the_spec_vectors():
    proc = run_node(str(HERE / "vectors.mjs"), str(ROOT))
    result = json.loads(proc.stdout)
    assert proc.returncode == 0, result
    assert result["failure_count"] == 0
    assert result["valid"] > 0 and result["invalid"] > 0 and result["probes"] > 0


@pytest.mark.parametrize("path", VALID, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_valid_fixture_opens_with_the_committed_top_root(path: Path):
    bundle = decode(path.read_bytes())
    top, _ = FAMILIES[bundle["schema"]]
    result = check_file(path)
    assert result["ok"], result
    assert result["schema"] == bundle["schema"]
    assert result["first_mismatch"] is None
    assert result["top_root"] == bundle["commitments"][top].hex()
    n = sum(len(v) for v in record_lists(bundle).values())
    hashes = len(bundle.get("forms", []))  # leaf hashes (SPEC §5.5): proved, not decoded
    assert result["records"] == n - hashes
    assert result["proofs_checked"] == n


@pytest.mark.parametrize("path", TAMPER, ids=lambda p: p.name)
def test_a_flipped_byte_inside_any_record_is_refused(tmp_path: Path, path: Path):
    data = path.read_bytes()
    bundle = decode(data)
    top, failure = FAMILIES[bundle["schema"]]
    fields = record_lists(bundle)
    assert fields
    for field, records in fields.items():
        if not records:
            continue
        record = records[0]
        at = data.find(record)
        assert at >= 0
        # A byte in the middle of the record: the bundle's own encoding is untouched.
        pos = at + len(record) // 2
        tampered = bytearray(data)
        tampered[pos] ^= 0x01
        result = check_bytes(tmp_path, bytes(tampered), f"{field}.cbor")
        assert not result["ok"], (field, result)
        check_id = result["check_id"]
        assert check_id is not None
        # Either the record no longer decodes (codec/schema) or a commitment disagrees.
        assert check_id.split(".")[0] in {"codec", "schema"} or check_id == failure(
            result["first_mismatch"]), (field, result)
        if result["first_mismatch"] is not None:
            assert result["first_mismatch"] != top  # a component commitment disagrees first


def commitment_entry(key: str, value: bytes | int) -> bytes:
    """The por-cbor/1 bytes of one commitments entry (key text, then hash or small count)."""
    head = bytes([0x60 + len(key)]) if len(key) < 24 else bytes([0x78, len(key)])
    if isinstance(value, bytes):
        return head + key.encode() + bytes([0x58, len(value)]) + value
    assert 0 <= value < 23
    return head + key.encode() + bytes([value])


@pytest.mark.parametrize("path", TAMPER, ids=lambda p: p.name)
def test_each_changed_commitment_is_named(tmp_path: Path, path: Path):
    data = path.read_bytes()
    bundle = decode(data)
    _, failure = FAMILIES[bundle["schema"]]
    commitments = bundle["commitments"]
    for field, value in commitments.items():
        entry = commitment_entry(field, value)
        at = data.rfind(entry)  # the commitments map follows every record in these bundles
        assert at >= 0, field
        tampered = bytearray(data)
        tampered[at + len(entry) - 1] ^= 0x01  # last hash byte, or count 2k <-> 2k+1
        changed = decode(bytes(tampered))
        assert {k for k in commitments if changed["commitments"][k] != commitments[k]} == {field}
        assert record_lists(changed) == record_lists(bundle)
        result = check_bytes(tmp_path, bytes(tampered), f"{field}.cbor")
        assert not result["ok"]
        assert result["first_mismatch"] == field, result
        assert result["check_id"] == failure(field)


def invalid_cases() -> list[tuple[Path, str]]:
    """Fixtures whose expected id is decided by the container alone (codec, commitments)."""
    cases = []
    for path in sorted((FIXTURES / "bundles/invalid").rglob("*.cbor")):
        check_id = path.parent.name
        if check_id.startswith("codec.") or check_id in (
                "schema.unsupported_bundle", "schema.forms_count") or (
                check_id.startswith("commit.") and check_id != "commit.verdict_refs"):
            cases.append((path, check_id))
    for family in ("judges", "court"):
        readme = json.loads((FIXTURES / family / "invalid/README.json").read_text())
        for name, check_id in readme.items():
            if check_id.endswith("commit_mismatch"):
                file = FIXTURES / family / "invalid" / Path(name).with_suffix(".cbor")
                cases.append((file, check_id))
    return cases


@pytest.mark.parametrize("path,check_id", invalid_cases(),
                         ids=lambda v: v.name if isinstance(v, Path) else v)
def test_invalid_fixture_is_refused_with_its_id(path: Path, check_id: str):
    result = check_file(path)
    assert not result["ok"]
    assert result["check_id"] == check_id, result


def test_cli_usage_error():
    proc = run_node(str(HERE / "check.mjs"))
    assert proc.returncode == 2
