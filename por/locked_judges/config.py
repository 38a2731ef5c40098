"""The input form of a lock: seed 002's ``judge_config.yaml`` (or the same as JSON).

:func:`parse_config_text` reads YAML (PyYAML, floats kept as ``Decimal``) or
JSON (never a float) into plain values;
:func:`lock_from_config` resolves it with the prompt file bytes and the weights
hash the caller supplies into a :class:`~por.locked_judges.manifest.JudgeManifest`.
Every problem is a ``JudgeLockError`` with a ``lock.*`` check id.  Leaves out:
reading files (the CLI does it) and hashing weights (the caller does it).
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from por import __version__
from por.errors import SchemaError
from por.locked_judges.errors import JudgeLockError, PromptMismatchError, WeightsMismatchError
from por.locked_judges.manifest import (
    COURT_PARSER,
    DETERMINISTIC_JUDGE,
    VOTE_PARSER,
    JudgeManifest,
    profile_problem,
)
from por.locked_judges.profiles import DEFAULT_PROFILE, PROFILES
from por.numbers import canonical_decimal_from_json_number
from por.schemas.base import load_json

#: JSON schema of an LLM vote (SPEC §15.3); committed as canonical JSON bytes.
VOTE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "outcome": {"type": "string", "enum": ["YES", "NO", "INVALID"]},
        "confidence": {"type": "integer", "minimum": 0, "maximum": 100},
    },
    "required": ["outcome", "confidence"],
}
#: JSON schema of a court judge's vote (SPEC §16.3, seed 003's answer format).
COURT_VOTE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "worker_pct": {"type": "integer", "minimum": 0, "maximum": 100},
        "reasoning": {"type": "string"},
    },
    "required": ["worker_pct", "reasoning"],
}
#: Client options that could change a call silently; a config naming one is refused.
FORBIDDEN_OPTIONS = ("drop_params", "fallbacks", "model_fallbacks", "model_alias_map",
                     "cache", "caching", "mock_response", "api_key")
_DEFAULT_RETRY_ON = ["rate_limit", "timeout"]
_DEFAULT_FAIL_ON = ["auth", "invalid_response", "lock_violation", "model_unavailable"]


def canonical_json(value: Any) -> bytes:
    """Sorted keys, no spaces, ASCII: one byte string per JSON value (no floats)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def parse_config_text(data: bytes) -> dict[str, Any]:
    """A config document as plain values: JSON if it starts with ``{``, else YAML."""
    text = data.lstrip()
    if text.startswith(b"{"):
        try:
            value = load_json(data)
        except SchemaError as exc:
            raise JudgeLockError("lock.config",
                                 f"config is not valid JSON: {exc.message}") from None
    else:
        value = _load_yaml(data)
    if not isinstance(value, dict):
        raise JudgeLockError("lock.config", "config is not a mapping")
    return value


def _load_yaml(data: bytes) -> Any:
    try:
        import yaml  # noqa: PLC0415  # only `por judge` reads YAML
    except ImportError:
        raise JudgeLockError("lock.config", "YAML configs need PyYAML (a dependency of por); "
                             "or give the config as JSON") from None

    class _Loader(yaml.SafeLoader):  # type: ignore[misc]  # untyped base
        pass

    def _decimal(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
        # Keep the written digits: a float would be a determinism bug.
        return Decimal(loader.construct_scalar(node).replace("_", ""))

    _Loader.add_constructor("tag:yaml.org,2002:float", _decimal)
    try:
        return yaml.load(data.decode("utf-8"), Loader=_Loader)  # noqa: S506  # SafeLoader subclass
    except (yaml.YAMLError, UnicodeDecodeError, ArithmeticError) as exc:
        raise JudgeLockError("lock.config", f"config is not valid YAML: {str(exc)[:120]}") from None


def _get(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in obj:
        raise JudgeLockError("lock.config", f"{where}{key} is missing")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise JudgeLockError("lock.config", f"{where}{key} has the wrong type")
    return value


def _decimal_text(value: Any, where: str) -> str:
    text = canonical_decimal_from_json_number(value)
    if text is None:
        raise JudgeLockError("lock.config", f"{where} is not a number")
    return text


def _prompt(section: Any, name: str, files: Mapping[str, bytes]) -> dict[str, Any]:
    if not isinstance(section, dict):
        raise JudgeLockError("lock.config", f"{name} must be a mapping with a file")
    file = _get(section, "file", str, f"{name}.")
    if file not in files:
        raise JudgeLockError("lock.prompt_missing", f"{name} file {file} was not supplied")
    text = files[file]
    digest = hashlib.sha256(text).digest()
    claimed = section.get("hash")
    if claimed is not None:
        if not isinstance(claimed, str):
            raise JudgeLockError("lock.config", f"{name}.hash must be hex text")
        # The seed writes abbreviated hashes ("a8d2e1f3c4b5..."); a prefix of
        # at least 16 hex digits is accepted as a claim, the lock stores all 32 bytes.
        claimed = claimed.rstrip(".").lower()
        if len(claimed) < 16 or not digest.hex().startswith(claimed):
            raise PromptMismatchError(
                "lock.prompt_hash", f"prompt file {file} changed since it was locked",
                expected=claimed, actual=digest.hex())
    return {"file": file, "text": text, "hash": digest}


def refuse_forbidden_options(config: Mapping[str, Any]) -> None:
    """``lock.forbidden_option`` naming the path of the first forbidden option found
    at any depth of the config (maps and lists, breadth first; YAML anchors may
    share or loop, so each container is visited once)."""
    queue: deque[tuple[str, Any]] = deque([("", config)])
    seen: set[int] = set()
    while queue:
        path, value = queue.popleft()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, Mapping):
            for key, item in value.items():
                here = f"{path}.{key}" if path else str(key)
                if key in FORBIDDEN_OPTIONS:
                    raise JudgeLockError("lock.forbidden_option",
                                         f"{here[:120]} could change a call silently; "
                                         "a lock refuses it", actual=here[:120])
                if isinstance(item, Mapping | list):
                    queue.append((here, item))
        elif isinstance(value, list):
            queue.extend((f"{path}[{i}]", item) for i, item in enumerate(value)
                         if isinstance(item, Mapping | list))


def lock_from_config(config: Mapping[str, Any], files: Mapping[str, bytes], *,
                     weights: tuple[bytes, int] | None = None) -> JudgeManifest:
    """Resolve a config into the canonical manifest (SPEC §15.1).

    ``files`` maps each prompt file name the config names to its bytes;
    ``weights`` is (sha256, size) of the weights file for a local model.
    """
    refuse_forbidden_options(config)
    model = _get(config, "model_lock", dict, "")
    if model.get("fallback") is not None or config.get("fail_closed") is not True:
        raise JudgeLockError("lock.fallback", "a locked judge has no fallback and fails closed",
                             expected="fallback: null, fail_closed: true",
                             actual=f"fallback: {model.get('fallback')}, "
                                    f"fail_closed: {config.get('fail_closed')}")
    kind = model.get("kind", "hosted")
    params_in = dict(config.get("parameters") or {})
    timeout = params_in.pop("timeout_seconds", 30)
    if isinstance(timeout, bool) or not isinstance(timeout, int | Decimal):
        raise JudgeLockError("lock.config", "parameters.timeout_seconds is not a number")
    parameters = {name: _decimal_text(value, f"parameters.{name}")
                  for name, value in sorted(params_in.items())}
    weights_lock: dict[str, Any] = {}
    claimed_weights = (model.get("weights") or {}).get("sha256")
    if kind == "local":
        if weights is None:
            raise JudgeLockError("lock.weights_missing", "a local model needs its weights file")
        if claimed_weights is not None and claimed_weights != weights[0].hex():
            raise WeightsMismatchError("lock.weights_hash", "model weights do not match the config",
                                 expected=claimed_weights, actual=weights[0].hex())
        weights_lock = {"weights_sha256": weights[0], "weights_size": weights[1],
                        "weights_source": str((model.get("weights") or {}).get("source", ""))}
    system_prompt = _prompt(config.get("system_prompt"), "system_prompt", files)
    template = _prompt(config.get("template"), "template", files)
    profile = _profile(model, kind, parameters)
    retry = dict(config.get("retry_policy") or {})
    output = dict(config.get("output") or {})
    parser = output.get("parser", DETERMINISTIC_JUDGE if kind == "deterministic" else VOTE_PARSER)
    raw = {
        "judge_id": str(config.get("judge_id", model.get("model", ""))),
        "judge_version": str(_get(config, "judge_version", str, "")),
        "model": {"kind": kind, "provider": str(model.get("provider", "")),
                  "model": str(model.get("model", "")),
                  "version_lock": str(model.get("version_lock", "")), **weights_lock,
                  **({"profile": profile} if profile else {})},
        "runtime": _runtime(config.get("runtime"), kind, model),
        "parameters": parameters,
        "timeout_ms": int(Decimal(timeout) * 1000),
        "system_prompt": system_prompt,
        "template": template,
        "output_schema": (b"" if kind == "deterministic" else canonical_json(
            COURT_VOTE_SCHEMA if parser == COURT_PARSER else VOTE_SCHEMA)),
        "parser": parser,
        "fail_closed": True,
        "fail_closed_mode": config.get("fail_closed_mode", "strict"),
        "retry_policy": {
            "max_retries": retry.get("max_retries", 3),
            "backoff": retry.get("backoff", "exponential"),
            "base_ms": retry.get("base_ms", 1000),
            "retry_on": sorted(set(retry.get("retry_on", _DEFAULT_RETRY_ON))),
            "fail_on": sorted(set(retry.get("fail_on", _DEFAULT_FAIL_ON))),
        },
        "determinism": config.get("determinism", "none"),
        "compatible_spec_versions": list(config.get("compatible_spec_versions", ["1.0"])),
    }
    try:
        return JudgeManifest.model_validate(raw, strict=True)
    except ValueError as exc:
        first = str(exc).splitlines()
        detail = " ".join(line.strip() for line in first[1:3]) if len(first) > 1 else str(exc)
        raise JudgeLockError("lock.config", f"config does not make a valid lock: {detail[:200]}",
                             ) from None


def _profile(model: Mapping[str, Any], kind: str, parameters: dict[str, str]) -> str | None:
    """``model_lock.profile`` checked against the locked parameters (SPEC §15.4):
    ``lock.profile`` for an unknown name, ``lock.profile_parameter`` for a parameter
    the profile's API does not honour or a required one left unpinned."""
    profile = model.get("profile")
    if profile is not None and profile not in PROFILES:
        raise JudgeLockError("lock.profile", "model_lock.profile is not a known provider profile",
                             expected=", ".join(sorted(PROFILES)), actual=str(profile)[:40])
    problem = profile_problem(profile, kind, parameters)
    if problem:
        raise JudgeLockError("lock.profile_parameter", problem,
                             expected=profile or DEFAULT_PROFILE)
    return profile


def _runtime(section: Any, kind: str, model: Mapping[str, Any]) -> dict[str, Any]:
    if section is None:
        if kind == "deterministic":
            return {"name": "por", "version": __version__, "build_class": "python"}
        if kind == "hosted":  # the provider's snapshot is the runtime
            return {"name": str(model.get("provider", "")),
                    "version": str(model.get("version_lock", "")), "build_class": "hosted"}
        raise JudgeLockError("lock.config", "runtime is missing")
    if not isinstance(section, dict):
        raise JudgeLockError("lock.config", "runtime must be a mapping")
    return {key: (str(value) if key in {"name", "version", "build_class"} else value)
            for key, value in section.items()}


__all__ = ["COURT_VOTE_SCHEMA", "FORBIDDEN_OPTIONS", "VOTE_SCHEMA", "canonical_json",
           "lock_from_config", "parse_config_text", "refuse_forbidden_options"]
