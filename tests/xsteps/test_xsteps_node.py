"""An independent re-deriver of step records in Node.js, written from SPEC.md alone
(§2, §3.2, §12.3-§12.4.1, §12.5.2-§12.5.7), agrees with every `check_requirement`,
`aggregate`, `contradictions`, `deduce` and `map` record of
fixtures/vectors/step_records.json, reading items only through the cards of the
cited extract steps (§12.1.4, §12.5.2), and checks every card against its item.
SPEC_GAPS.md lists what SPEC left open and how SPEC was fixed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from setup_gate import needs

pytestmark = needs("node", None if shutil.which("node") else "node is not installed")

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
VECTORS = ROOT / "fixtures" / "vectors" / "step_records.json"


def run(root: Path) -> tuple[int, dict, str]:
    node = shutil.which("node") or "node"
    proc = subprocess.run([node, str(HERE / "rederive.mjs"), str(root)], capture_output=True,
                          text=True, timeout=120, check=False)
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 2, (proc.stdout, proc.stderr)
    return proc.returncode, json.loads(lines[0]), lines[1]


def test_node_rederives_every_record() -> None:
    code, result, summary = run(ROOT)
    assert code == 0, result
    assert result["failures"] == []
    assert set(result["counts"]) == {"check_requirement", "aggregate", "contradictions",
                                     "deduce", "map"}
    assert all(n >= 40 for n in result["counts"].values())
    assert summary.endswith(" passed, 0 failed")


def test_a_changed_byte_is_caught(tmp_path: Path) -> None:
    # Canary: the re-deriver compares bytes, so one altered committed record fails it.
    data = json.loads(VECTORS.read_text(encoding="utf-8"))
    step = next(s for v in data["vectors"] for s in v["steps"]
                if s["record"]["inputs"]["kind"] == "check_requirement")
    step["cbor_hex"] = step["cbor_hex"][:-2] + ("00" if step["cbor_hex"][-2:] != "00" else "01")
    out = tmp_path / "fixtures" / "vectors"
    out.mkdir(parents=True)
    (out / "step_records.json").write_text(json.dumps(data), encoding="utf-8")
    code, result, summary = run(tmp_path)
    assert code == 1
    assert len(result["failures"]) == 1
    assert summary.endswith(" passed, 1 failed")
