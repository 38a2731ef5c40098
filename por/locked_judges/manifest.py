"""``por.JudgeManifest/1``: the canonical lock of one judge (SPEC §15.1).

The lock names the judge (id, ``major.minor`` version), the model (route sent on
the wire, exact version, weights hash), the runtime and its build class, every
sampler parameter as a canonical decimal string (no floats), the system prompt
and the user template as bytes with their SHA-256, the output schema and parser,
and the fail-closed and retry policies.  Its digest (SHA-256 of the canonical
bytes) is what every recorded call refers to.

The seed's ``judge_config.yaml`` is only the *input form*: see
:mod:`por.locked_judges.config`.  Leaves out: reading files, the network, the clock.
"""

from __future__ import annotations

import hashlib
import re
from typing import Annotated, ClassVar, Literal, Self

from pydantic import Field, model_validator

from por.errors import EncodingError, SchemaError
from por.locked_judges.errors import (
    IncompatibleVersionError,
    JudgeLockError,
    PromptMismatchError,
    VersionMismatchError,
    WeightsMismatchError,
)
from por.locked_judges.profiles import ProfileName, profile_of
from por.schemas.base import Blob, Count, DecimalStr, Hash32, Id, Model, Record

#: The deterministic judge's version (SPEC §7) as a locked judge.
DETERMINISTIC_JUDGE = "por-judge/1"
#: The parser of LLM answers to a market (SPEC §15.3).
VOTE_PARSER = "por-vote-parser/1"
#: The parser of a court judge's answer to a dispute (SPEC §16.3).
COURT_PARSER = "por-court-parser/1"
#: Error kinds a call can end with (SPEC §15.4).
ErrorKind = Literal["timeout", "rate_limit", "server_error", "network", "model_unavailable",
                    "auth", "invalid_response", "lock_violation"]
#: Kinds that may be retried at all; every other kind fails closed at once.
RETRYABLE_KINDS: frozenset[str] = frozenset({"timeout", "rate_limit", "server_error", "network"})
#: Wire parameters a manifest may lock (OpenAI chat-completions names).
WIRE_PARAMETERS: frozenset[str] = frozenset({
    "temperature", "top_k", "top_p", "min_p", "repeat_penalty", "seed", "max_tokens",
    "presence_penalty", "frequency_penalty",
})
#: Parameters every LLM manifest must lock (JUDGES.md: the server defaults differ).
REQUIRED_LLM_PARAMETERS: tuple[str, ...] = (
    "temperature", "top_k", "top_p", "min_p", "repeat_penalty", "seed", "max_tokens",
)
MAX_PROMPT_BYTES = 64 * 1024
MAX_RETRIES = 10

_JUDGE_VERSION = re.compile(r"(0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})")

JudgeVersion = Annotated[str, Field(pattern=f"^{_JUDGE_VERSION.pattern}$")]


class PromptLock(Model):
    """A prompt as committed bytes: file name (for people), text, SHA-256."""

    file: Annotated[str, Field(min_length=1, max_length=256)]
    text: Annotated[bytes, Field(max_length=MAX_PROMPT_BYTES)]
    hash: Hash32

    @model_validator(mode="after")
    def _hash_matches(self) -> Self:
        if hashlib.sha256(self.text).digest() != self.hash:
            raise ValueError(f"{self.file}: text does not hash to the locked hash")
        return self


class ModelLock(Model):
    """What answers: kind, wire route, exact version, weights."""

    kind: Literal["deterministic", "local", "hosted"]
    provider: Id
    model: Id
    version_lock: Id
    weights_sha256: Hash32 | None = None
    weights_size: Count | None = None
    weights_source: Annotated[str, Field(max_length=512)] | None = None
    #: The provider API (SPEC §15.4 profiles); absent means ``openai-compatible``.
    profile: ProfileName | None = None


class RuntimeLock(Model):
    """The runtime and its build class (bitwise determinism depends on both)."""

    name: Id
    version: Id
    build_class: Annotated[str, Field(max_length=1024)]
    n_ctx: Count | None = None
    n_batch: Count | None = None
    n_ubatch: Count | None = None
    slots: Count | None = None
    n_threads: Count | None = None


class RetryPolicy(Model):
    """The seed's ``retry_policy``: exponential backoff on transient kinds only."""

    max_retries: Annotated[int, Field(ge=0, le=MAX_RETRIES)]
    backoff: Literal["exponential"]
    base_ms: Annotated[int, Field(ge=0, le=60_000)]
    retry_on: list[ErrorKind]
    fail_on: list[ErrorKind]

    @model_validator(mode="after")
    def _kinds(self) -> Self:
        if sorted(set(self.retry_on)) != self.retry_on or sorted(set(self.fail_on)) != self.fail_on:
            raise ValueError("retry_on and fail_on must be sorted and unique")
        if set(self.retry_on) - RETRYABLE_KINDS:
            raise ValueError(f"only {sorted(RETRYABLE_KINDS)} can be retried")
        if set(self.retry_on) & set(self.fail_on):
            raise ValueError("a kind cannot be both retried and failed")
        return self


class JudgeManifest(Record):
    """The lock (SPEC §15.1)."""

    SCHEMA: ClassVar[str] = "por.JudgeManifest/1"

    record_schema: Literal["por.JudgeManifest/1"] = Field("por.JudgeManifest/1", alias="schema")
    judge_id: Id
    judge_version: JudgeVersion
    model: ModelLock
    runtime: RuntimeLock
    parameters: dict[str, DecimalStr]
    timeout_ms: Annotated[int, Field(ge=1, le=3_600_000)]
    system_prompt: PromptLock
    template: PromptLock
    output_schema: Blob
    parser: Literal["por-vote-parser/1", "por-court-parser/1", "por-judge/1"]
    fail_closed: Literal[True]
    fail_closed_mode: Literal["strict", "partial_save"]
    retry_policy: RetryPolicy
    determinism: Literal["bitwise", "none"]
    compatible_spec_versions: Annotated[list[Id], Field(min_length=1, max_length=16)]

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        unknown = set(self.parameters) - WIRE_PARAMETERS
        if unknown:
            raise ValueError(f"parameters not lockable on the wire: {sorted(unknown)}")
        problem = profile_problem(self.model.profile, self.model.kind, self.parameters)
        if problem:
            raise ValueError(problem)
        if self.model.kind == "deterministic":
            if self.parser != DETERMINISTIC_JUDGE or self.parameters:
                raise ValueError("a deterministic judge has parser por-judge/1 and no parameters")
        elif self.parser not in (VOTE_PARSER, COURT_PARSER):
            raise ValueError(f"an LLM judge's parser is {VOTE_PARSER} or {COURT_PARSER}")
        if self.model.kind == "local" and self.model.weights_sha256 is None:
            raise ValueError("a local model is locked by its weights_sha256")
        if self.determinism == "bitwise" and self.model.kind == "hosted":
            raise ValueError("a hosted model cannot claim bitwise determinism")
        return self

    def digest(self) -> bytes:
        """SHA-256 of the canonical bytes: the id every call refers to."""
        return hashlib.sha256(self.to_cbor()).digest()


def profile_problem(profile: str | None, kind: str, parameters: dict[str, str]) -> str:
    """Why ``parameters`` do not fit the lock's provider profile ("" if they do)."""
    if kind == "deterministic":
        return "a deterministic judge names no provider profile" if profile else ""
    chosen = profile_of(profile)
    unhonoured = sorted(set(parameters) - chosen.honoured)
    if unhonoured:
        return f"profile {chosen.name} does not honour {unhonoured}"
    missing = [p for p in chosen.required if p not in parameters]
    if missing:
        return f"an LLM lock on profile {chosen.name} must pin {missing}"
    return ""


def manifest_digest(manifest: JudgeManifest) -> bytes:
    """SHA-256 of ``manifest``'s canonical bytes."""
    return manifest.digest()


def require_version(manifest: JudgeManifest, answering_version: str) -> None:
    """Seed check 1: the model that answers is the locked version."""
    if answering_version != manifest.model.version_lock:
        raise VersionMismatchError(
            "lock.version_mismatch", "the answering model is not the locked version",
            expected=manifest.model.version_lock, actual=answering_version)


def require_compatible(manifest: JudgeManifest, spec_version: str) -> None:
    """Seed check 2: the judge is compatible with the subject's SPEC version."""
    if spec_version not in manifest.compatible_spec_versions:
        raise IncompatibleVersionError(
            "lock.incompatible",
            f"judge {manifest.judge_id} v{manifest.judge_version} is not compatible with "
            "the subject's SPEC version",
            expected=",".join(manifest.compatible_spec_versions), actual=spec_version)


def require_prompt(lock: PromptLock, current: bytes) -> None:
    """Seed check 3: a prompt file still hashes to its locked hash."""
    got = hashlib.sha256(current).digest()
    if got != lock.hash:
        raise PromptMismatchError(
            "lock.prompt_hash", f"prompt file {lock.file} changed since it was locked",
            expected=lock.hash, actual=got)


def require_weights(manifest: JudgeManifest, weights_sha256: bytes) -> None:
    """The weights that would answer hash to the locked value."""
    if manifest.model.weights_sha256 != weights_sha256:
        raise WeightsMismatchError(
            "lock.weights_hash", "model weights do not match the lock",
            expected=manifest.model.weights_sha256, actual=weights_sha256)


def parse_manifest(data: bytes) -> JudgeManifest:
    """Strictly decode a manifest; ``JudgeLockError('lock.manifest')`` wraps schema errors."""
    try:
        return JudgeManifest.from_cbor(data)
    except (SchemaError, EncodingError) as exc:
        raise JudgeLockError("lock.manifest", f"not a por.JudgeManifest/1: {exc.message}") from None


__all__ = [
    "COURT_PARSER",
    "DETERMINISTIC_JUDGE",
    "REQUIRED_LLM_PARAMETERS",
    "RETRYABLE_KINDS",
    "VOTE_PARSER",
    "WIRE_PARAMETERS",
    "ErrorKind",
    "JudgeManifest",
    "ModelLock",
    "PromptLock",
    "RetryPolicy",
    "RuntimeLock",
    "manifest_digest",
    "parse_manifest",
    "profile_problem",
    "require_compatible",
    "require_prompt",
    "require_version",
    "require_weights",
]
