"""A subject is any valid PoR bundle: one over the 64 MiB record cap is judged and
verified (its cap is the bundle cap, SPEC §15.2.1; issue 25 item 5)."""

from __future__ import annotations

import asyncio

from judges_support import deterministic_manifest

from por.bundle import DEFAULT_BUNDLE_MAX_SIZE, build_bundle
from por.encoding import DEFAULT_MAX_SIZE
from por.locked_judges import (
    deterministic_transport,
    judge_batch,
    subject_from_bundle,
    verify_judgement,
)
from por.locked_judges.subjects import SUBJECT_MAX_SIZE
from por.scenarios import list_scenarios, load_scenario

CHUNK = 4 * 1024 * 1024  # MAX_CONTENT_BYTES: the largest evidence item


def _bundle_over_the_record_cap() -> bytes:
    scenario = load_scenario(list_scenarios()[0])
    first = scenario.evidence.items[0]
    padding = [first.model_copy(update={"evidence_id": f"pad-{i:02d}", "content": b"x" * CHUNK,
                                        "content_type": "text/plain"})
               for i in range(DEFAULT_MAX_SIZE // CHUNK + 1)]
    evidence = scenario.evidence.model_copy(update={"items": [first, *padding]})
    return build_bundle(scenario.prompt_spec, evidence)


def test_a_bundle_over_64_mib_is_a_subject_judged_and_verified() -> None:
    assert SUBJECT_MAX_SIZE > DEFAULT_BUNDLE_MAX_SIZE > DEFAULT_MAX_SIZE
    data = _bundle_over_the_record_cap()
    assert len(data) > DEFAULT_MAX_SIZE
    subject = subject_from_bundle(data)
    judgement = asyncio.run(judge_batch(deterministic_manifest(), [subject],
                                        deterministic_transport))
    summary = verify_judgement(judgement)
    assert summary.subjects[0].bundle == data
    assert len(summary.votes) == 1

