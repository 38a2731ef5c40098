"""Write the committed seed corpus ``fuzz/corpus/<target>/`` (deterministic).

Seeds are valid inputs that reach deep code: the records of a valid bundle
(decode), evidence bodies and records of the scenarios in the harnesses'
input format (bundle, build), and every valid proof of the honest bundle
(proof).  Run: python fuzz/seeds.py
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzz_proof
import fuzzlib

HERE = Path(__file__).resolve().parent


def corpus() -> dict[str, dict[str, bytes]]:
    from por.schemas import EvidenceItem

    out: dict[str, dict[str, bytes]] = {"decode": {}, "bundle": {}, "build": {}, "proof": {}}
    for s in range(len(fuzzlib.SCENARIOS)):
        bundle = fuzzlib.seed_bundle(s)
        out["decode"][f"s{s}-evidence"] = bundle.evidence[0]
        out["decode"][f"s{s}-step-last"] = bundle.steps[-1]
        item = EvidenceItem.from_cbor(bundle.evidence[0])
        ctype = fuzzlib.CONTENT_TYPES.index(item.content_type)
        out["bundle"][f"s{s}-body"] = bytes([s, 0, 0, 0]) + item.content
        out["bundle"][f"s{s}-step0"] = bytes([s, 2, 0, 4]) + bundle.steps[0]
        out["build"][f"s{s}-item0"] = bytes([s, 0, ctype]) + item.content
    bundle = fuzzlib.seed_bundle(0)
    out["decode"]["manifest"] = bundle.manifest
    out["decode"]["prompt_spec"] = bundle.prompt_spec
    out["decode"]["verdict"] = bundle.verdict
    out["bundle"]["prompt_spec"] = bytes([0, 2, 0, 1]) + bundle.prompt_spec
    out["proof"] = fuzz_proof.seeds()
    return out


def main() -> int:
    for target, files in corpus().items():
        folder = HERE / "corpus" / target
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.iterdir():
            old.unlink()
        for name, data in sorted(files.items()):
            digest = hashlib.sha256(data).hexdigest()[:8]
            (folder / f"{name}-{digest}").write_bytes(data)
    print("wrote", {t: len(f) for t, f in corpus().items()})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
