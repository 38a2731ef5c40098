"""Errors of locked judges (SPEC §15): every one carries a stable check id.

``lock.*`` ids are violations of a judge lock (the seed's
``enforce_version_lock``: version, compatibility, prompt and weights hashes,
forbidden client options); ``judgement.*`` ids are failures of a batch or of the
offline verification of a judgement bundle.  Leaves out: exit codes (the CLI
maps ``PorError`` subclasses to them).
"""

from __future__ import annotations

from por.errors import PorError, UnsupportedError


class JudgeLockError(PorError):
    """A judge lock is malformed or violated (``lock.*``)."""


class VersionMismatchError(JudgeLockError):
    """The locked model version is not the one that answers (``lock.version_mismatch``)."""


class IncompatibleVersionError(JudgeLockError):
    """The judge version is not compatible with a subject (``lock.incompatible``)."""


class PromptMismatchError(JudgeLockError):
    """A prompt file does not hash to its locked value (``lock.prompt_hash``)."""


class WeightsMismatchError(JudgeLockError):
    """The model weights do not hash to their locked value (``lock.weights_hash``)."""


class JudgementError(PorError):
    """A judgement bundle or batch failed a check (``judgement.*``)."""


class JudgeUnavailableError(UnsupportedError):
    """The locked judge cannot be reached (``judgement.unavailable``): no verdict, exit 2."""


class BatchJudgementFailedError(JudgementError):
    """A fail-closed batch aborted (``judgement.batch_failed``)."""


__all__ = [
    "BatchJudgementFailedError",
    "IncompatibleVersionError",
    "JudgeLockError",
    "JudgeUnavailableError",
    "JudgementError",
    "PromptMismatchError",
    "VersionMismatchError",
    "WeightsMismatchError",
]
