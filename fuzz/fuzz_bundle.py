"""Fuzz the bundle verifier with records replaced and commitments recomputed, so
mutants pass steps 1-4 and reach replay (SPEC §6.2).

The first bytes choose a seed bundle, a slot and a leaf; the rest is either a
new evidence body (the record stays valid: the auditor runs on it) with a
content type, or the raw bytes of a replacement record.
Run: python fuzz/fuzz_bundle.py [CORPUS_DIR ...] [libFuzzer flags]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzzlib


def mutant(data: bytes) -> bytes | None:
    """The bundle a fuzz input describes (None for inputs too short)."""
    from por.schemas import EvidenceItem

    if len(data) < 4:
        return None
    bundle = fuzzlib.seed_bundle(data[0])
    mode, index, kind, body = data[1] % 4, data[2], data[3], data[4:]
    if mode in (0, 1):  # a new evidence body (mode 1: also a new content type)
        items = list(bundle.evidence)
        at = index % len(items)
        item = EvidenceItem.from_cbor(items[at])
        update: dict[str, object] = {"content": body}
        if mode == 1:
            update["content_type"] = fuzzlib.CONTENT_TYPES[kind % 3]
        items[at] = item.model_copy(update=update).to_cbor()
        return fuzzlib.rebuild(bundle, evidence=items)
    slot = fuzzlib.SLOTS[kind % len(fuzzlib.SLOTS)]
    if slot in ("evidence", "steps"):
        leaves = list(getattr(bundle, slot))
        leaves[index % len(leaves)] = body
        return fuzzlib.rebuild(bundle, **{slot: leaves})
    return fuzzlib.rebuild(bundle, **{slot: body})


def check(data: bytes) -> None:
    from verifier import check_bundle

    blob = mutant(data)
    if blob is None:
        return
    fuzzlib.assert_report_sound(blob, check_bundle(blob))


def main() -> None:
    import atheris

    with atheris.instrument_imports(include=["por", "verifier"]):
        import verifier  # noqa: F401
    fuzzlib.run_atheris(check)


if __name__ == "__main__":
    main()
