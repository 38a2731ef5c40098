"""Benchmark: what the bytes of each on-chain proof class are (issue 24 item 7, ADR 0015).

For every class of ``bench/gas_steps.py`` (the won proof of a lying bundle, built by
the same builders), the proof's bytes split by role:

* ``prompt_spec``: the PromptSpec leaf (read by check, aggregate, contradictions,
  deduce and the JudgeProof; only hashed by map);
* ``step``: the disputed step's leaf (or a JudgeProof's final step and verdict);
* ``cited``: the leaves of the steps and evidence items the step cites;
* ``paths``: the Merkle paths (``leaf_path`` and ``component_path`` of every part);
* ``repeated``: the 32-byte fields every part carries again though one proof has one
  value (``por_root``, ``challenge_id``, and ``component_root`` when an earlier part of
  the same component carried it);
* ``framing``: the rest (CBOR heads, keys, indexes, schema texts).

Every byte a proof carries is read by the §2 reader on chain (SPEC §14.8 step 1), and
each carried leaf again as a record, so these shares are where a proof format or a
commitment change (ADR 0014, ADR 0015) can save gas. No gas is measured here.

Usage: ``PYTHONPATH=. python bench/proof_anatomy.py [--json]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

ROLES = ("prompt_spec", "step", "cited", "paths", "repeated", "framing")
#: The proof fields whose parts hold the disputed record itself.
STEP_FIELDS = {"step", "final_step", "verdict"}
#: Fields one proof holds once in meaning, carried in every part.
SHARED = ("por_root", "challenge_id")


def _parts(proof: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every InclusionProof map of the proof, with the field that carries it."""
    out: list[tuple[str, dict[str, Any]]] = []
    for field, value in proof.items():
        values = value if isinstance(value, list) else [value]
        out.extend((field, v) for v in values if isinstance(v, dict) and "leaf" in v)
    return out


def anatomy(proof_bytes: bytes) -> dict[str, int]:
    """Bytes by role (the roles of the module docstring); they sum to the proof's size."""
    import cbor2

    proof = cbor2.loads(proof_bytes)
    sizes = dict.fromkeys(ROLES, 0)
    roots_seen: set[bytes] = set()
    seen_shared: set[str] = set()
    for field, part in _parts(proof):
        leaf = len(part["leaf"])
        role = ("prompt_spec" if field == "prompt_spec"
                else "step" if field in STEP_FIELDS else "cited")
        sizes[role] += leaf
        path = len(part.get("leaf_path", ())) + len(part.get("component_path", ()))
        sizes["paths"] += 32 * path
        for key in SHARED:
            if key in part:
                if key in seen_shared:
                    sizes["repeated"] += 32
                seen_shared.add(key)
        root = part.get("component_root")
        if isinstance(root, bytes):
            if root in roots_seen:
                sizes["repeated"] += 32
            roots_seen.add(root)
    sizes["framing"] = len(proof_bytes) - sum(sizes.values())
    return sizes


def measure() -> list[dict[str, Any]]:
    from gas_steps import cases

    rows = []
    for name, target, _executor, _entry, make in cases():
        _lie, proof = make()
        rows.append({"class": name, "target": target, "proof_bytes": len(proof),
                     **anatomy(proof)})
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args()
    rows = measure()
    if args.json:
        print(json.dumps({"schema": "por/bench-proof-anatomy/1", "rows": rows}, indent=2))
        return 0
    print(f"{'class':37} {'bytes':>6} " + " ".join(f"{r:>11}" for r in ROLES))
    for row in rows:
        print(f"{row['class']:37} {row['proof_bytes']:>6} "
              + " ".join(f"{row[r]:>6} {100 * row[r] // row['proof_bytes']:>2}%" for r in ROLES))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
