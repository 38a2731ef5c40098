"""Locked judges (seed 002, SPEC §15): manifests, recorded calls, judgement bundles.

A locked judge is a judge whose answer cannot be recomputed from first
principles (an LLM), pinned by a ``por.JudgeManifest/1`` and made checkable by
recording every attempt's wire bytes in a Merkle-committed judgement bundle.
The deterministic ``por-judge/1`` is a locked judge too.  litellm and
llama-cpp are imported only by :mod:`por.locked_judges.client` and
:mod:`por.locked_judges.local_server`, never from here, so verification stays light.
"""

from por.locked_judges.batch import deterministic_transport, judge_batch
from por.locked_judges.config import lock_from_config, parse_config_text
from por.locked_judges.errors import (
    BatchJudgementFailedError,
    IncompatibleVersionError,
    JudgeLockError,
    JudgementError,
    JudgeUnavailableError,
    PromptMismatchError,
    VersionMismatchError,
    WeightsMismatchError,
)
from por.locked_judges.manifest import JudgeManifest, parse_manifest
from por.locked_judges.records import (
    JudgeBatchReport,
    JudgeCall,
    JudgementBundle,
    JudgeSubject,
    LockedJudgeVote,
)
from por.locked_judges.subjects import subject_from_bundle
from por.locked_judges.verify import JudgementSummary, decode_judgement, verify_judgement

__all__ = [
    "BatchJudgementFailedError",
    "IncompatibleVersionError",
    "JudgeBatchReport",
    "JudgeCall",
    "JudgeLockError",
    "JudgeManifest",
    "JudgeSubject",
    "JudgeUnavailableError",
    "JudgementBundle",
    "JudgementError",
    "JudgementSummary",
    "LockedJudgeVote",
    "PromptMismatchError",
    "VersionMismatchError",
    "WeightsMismatchError",
    "decode_judgement",
    "deterministic_transport",
    "judge_batch",
    "lock_from_config",
    "parse_config_text",
    "parse_manifest",
    "subject_from_bundle",
    "verify_judgement",
]
