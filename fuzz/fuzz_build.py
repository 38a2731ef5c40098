"""Fuzz honest build -> verify: whatever the evidence bodies, ``build`` refuses
with a ``PorError`` or writes a bundle that verifies (SPEC §17.6).

Input: seed scenario, item, content type, then the new body.
Run: python fuzz/fuzz_build.py [CORPUS_DIR ...] [libFuzzer flags]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzzlib


def check(data: bytes) -> None:
    from por.bundle import build_bundle
    from por.errors import PorError
    from por.scenarios import load_scenario
    from verifier import check_bundle

    if len(data) < 3:
        return
    scenario = load_scenario(fuzzlib.SCENARIOS[data[0] % len(fuzzlib.SCENARIOS)])
    items = list(scenario.evidence.items)
    at = data[1] % len(items)
    items[at] = items[at].model_copy(update={
        "content": data[3:], "content_type": fuzzlib.CONTENT_TYPES[data[2] % 3]})
    evidence = scenario.evidence.model_copy(update={"items": items})
    try:
        blob = build_bundle(scenario.prompt_spec, evidence)
    except PorError as exc:
        assert "\n" not in exc.message, "a build error is one line"
        return
    report = check_bundle(blob)
    assert report.status == "verified", (report.status, report.first_failure)


def main() -> None:
    import atheris

    with atheris.instrument_imports(include=["por", "verifier"]):
        import verifier  # noqa: F401
    fuzzlib.run_atheris(check)


if __name__ == "__main__":
    main()
