"""An independent re-deriver of step records in Node.js, written from SPEC.md alone
(§2, §3.2, §12.3-§12.4.1, §12.5-§12.5.7: stage 3 check chunks), agrees with every
`check_requirement`, `aggregate`, `contradictions`, `deduce` and `map` record of
fixtures/vectors/step_records.json, reading items only through the cards of the
cited extract steps (§12.1.4, §12.5.2), and checks every card against its item,
every step's id, inputs and citations against §12.5/§12.5.1, and every vector
record against its bytes; a mutation check shows each kind of wrong record is caught.
SPEC_GAPS.md lists what SPEC left open and how SPEC was fixed.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from setup_gate import needs

from por.encoding.encoder import encode

pytestmark = needs("node", None if shutil.which("node") else "node is not installed")

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
VECTORS = ROOT / "fixtures" / "vectors" / "step_records.json"


KINDS = ("check_requirement", "aggregate", "contradictions", "deduce", "map")


def run(root: Path) -> tuple[int, dict[str, Any], str]:
    node = shutil.which("node") or "node"
    proc = subprocess.run([node, str(HERE / "rederive.mjs"), str(root)], capture_output=True,
                          text=True, timeout=120, check=False)
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 2, (proc.stdout, proc.stderr)
    return proc.returncode, json.loads(lines[0]), lines[1]


def run_on(tmp_path: Path, data: dict[str, Any]) -> tuple[int, dict[str, Any], str]:
    """``run`` on a root holding only ``data`` as its step_records.json."""
    out = tmp_path / "fixtures" / "vectors"
    out.mkdir(parents=True)
    (out / "step_records.json").write_text(json.dumps(data), encoding="utf-8")
    return run(tmp_path)


def test_node_rederives_every_record() -> None:
    code, result, summary = run(ROOT)
    assert code == 0, result
    assert result["failures"] == []
    assert set(result["counts"]) == {"check_requirement", "aggregate", "contradictions",
                                     "deduce", "map"}
    assert all(n >= 40 for n in result["counts"].values())
    # Stage 3: some requirement's chain has more than one check chunk.
    assert result["counts"]["check_requirement"] > result["counts"]["aggregate"]
    assert summary.endswith(" passed, 0 failed")


def test_a_changed_byte_is_caught(tmp_path: Path) -> None:
    # Canary: the re-deriver compares bytes, so one altered committed record fails it.
    data = json.loads(VECTORS.read_text(encoding="utf-8"))
    step = next(s for v in data["vectors"] for s in v["steps"]
                if s["record"]["inputs"]["kind"] == "check_requirement")
    step["cbor_hex"] = step["cbor_hex"][:-2] + ("00" if step["cbor_hex"][-2:] != "00" else "01")
    code, result, summary = run_on(tmp_path, data)
    assert code == 1
    assert len(result["failures"]) == 1
    assert summary.endswith(" passed, 1 failed")


def _first_list(value: Any) -> list[Any] | None:
    """The first list (depth first, keys sorted) with two differently encoded members."""
    if isinstance(value, list):
        if len({encode(v) for v in value}) > 1:
            return value
        found = (_first_list(v) for v in value)
    elif isinstance(value, dict):
        found = (_first_list(value[k]) for k in sorted(value))
    else:
        return None
    return next((f for f in found if f is not None), None)


def _extra_key(rec: dict[str, Any]) -> bool:
    rec["output"]["extra"] = 0
    return True


def _missing_key(rec: dict[str, Any]) -> bool:
    del rec["output"][sorted(rec["output"])[-1]]
    return True


def _wrong_order(rec: dict[str, Any]) -> bool:
    found = _first_list(rec)
    if found is None:
        return False
    found.reverse()
    return True


def _other_description(rec: dict[str, Any]) -> bool:
    rec["description"] += " "
    return True


#: Each rewrites a record in place (False: it does not apply to this record); the
#: test re-encodes it, so the vector's record and bytes still agree and only the
#: re-derivation can tell.
MUTATIONS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "extra key": _extra_key, "missing key": _missing_key, "wrong order": _wrong_order,
    "description": _other_description,
}


def test_every_kind_of_mutation_is_caught(tmp_path: Path) -> None:
    # Mutation check: per kind, one flipped byte and each rewrite of MUTATIONS, each
    # in its own vector; every mutated record is reported and nothing else is.
    data = json.loads(VECTORS.read_text(encoding="utf-8"))
    free = list(data["vectors"])
    mutated: list[str] = []
    for kind in KINDS:
        for name, mutate in [("flip", None), *MUTATIONS.items()]:
            for vector in free:
                step = next(s for s in vector["steps"] if s["record"]["inputs"]["kind"] == kind)
                if mutate is None:
                    raw = bytearray.fromhex(step["cbor_hex"])
                    raw[len(raw) // 2] ^= 1
                    step["cbor_hex"] = raw.hex()
                else:
                    rec = copy.deepcopy(step["record"])
                    if not mutate(rec):
                        continue
                    step["record"], step["cbor_hex"] = rec, encode(rec).hex()
                free.remove(vector)
                mutated.append(f"{vector['name']}/{step['record']['step_id']}")
                break
            else:
                raise AssertionError(f"no vector takes {name!r} for {kind}")
    code, result, _ = run_on(tmp_path, data)
    assert code == 1
    failures = result["failures"]
    assert [m for m in mutated if not any(f.startswith(m) for f in failures)] == []
    names = {m.split("/")[0] for m in mutated}
    assert [f for f in failures if f.split("/")[0] not in names] == []


def test_a_missing_or_moved_step_is_caught(tmp_path: Path) -> None:
    # SPEC §12.5 fixes which steps a trace holds and in what order: a vector without
    # its last check chunk, or with two steps swapped, fails even though every record
    # left is a true record.
    data = json.loads(VECTORS.read_text(encoding="utf-8"))
    chunked = next(v for v in data["vectors"] if v["name"] == "edit-08-three-chunks")
    del chunked["steps"][2]
    swapped = data["vectors"][0]
    swapped["steps"][1], swapped["steps"][2] = swapped["steps"][2], swapped["steps"][1]
    code, result, _ = run_on(tmp_path, data)
    assert code == 1
    assert {f.split("/")[0] for f in result["failures"]} == {chunked["name"], swapped["name"]}
