"""Wire checks (SPEC §15.4): what was actually sent must be what the lock says.

:func:`canonical_request` turns a JSON request body into one byte string
(sorted keys, numbers as canonical decimals) whose SHA-256 is the *request
hash*: the transcript server's key and a committed field of every call.
:func:`check_wire` proves, from the wire bytes alone, that the model was not
rewritten, every locked parameter was sent with its locked value, nothing the
lock does not allow was sent (an allow-list: :func:`allowed_wire_keys`), the
messages are the rendered ones and exactly the locked ``response_format`` was
asked for.  Each failure is a ``JudgementError`` with its own check id.
"""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal
from typing import Any

from por.jsontext import JsonTextError, loads_strict
from por.locked_judges.errors import JudgementError
from por.locked_judges.manifest import JudgeManifest
from por.locked_judges.profiles import (
    DEFAULT_PROFILE,
    PROFILES,
    profile_of,
    response_format_for,
    wire_messages,
)
from por.numbers import format_decimal
from por.schemas.base import load_json


def parse_body(body: bytes) -> Any:
    """A JSON body with numbers kept exact (``Decimal``), or ``judgement.wire_json``."""
    try:
        return loads_strict(body.decode("utf-8"))
    except (JsonTextError, UnicodeDecodeError):
        raise JudgementError("judgement.wire_json", "wire request is not JSON") from None


def _canonical(value: Any) -> str:
    if isinstance(value, dict):
        items = sorted(value.items())
        return "{" + ",".join(json.dumps(k) + ":" + _canonical(v) for k, v in items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_canonical(v) for v in value) + "]"
    if isinstance(value, Decimal):
        return format_decimal(value)
    if isinstance(value, bool) or value is None or isinstance(value, int | str):
        return json.dumps(value, ensure_ascii=True)
    raise JudgementError("judgement.wire_json", "unexpected JSON value")


def canonical_request(body: bytes) -> bytes:
    """Canonical text of a JSON request body (numbers compare by value)."""
    return _canonical(parse_body(body)).encode("ascii")


def request_hash(body: bytes) -> bytes:
    """SHA-256 of :func:`canonical_request`; raw-byte SHA-256 for a non-JSON body."""
    try:
        return hashlib.sha256(canonical_request(body)).digest()
    except JudgementError:
        return hashlib.sha256(b"raw:" + body).digest()


def wire_model_name(manifest: JudgeManifest) -> str:
    """The model name the server must see: the route without a provider prefix."""
    return manifest.model.model.split("/", 1)[-1]


#: Fields an ``openai-compatible`` request needs beside the locked parameters (SPEC
#: §15.4); each profile names its own (:attr:`Profile.request_fields`).
REQUEST_FIELDS: frozenset[str] = PROFILES[DEFAULT_PROFILE].request_fields
#: Longest key name quoted in an error (a key is attacker-chosen text).
_KEY_SHOWN = 40


def allowed_wire_keys(manifest: JudgeManifest) -> frozenset[str]:
    """The exact top-level keys a locked request may carry: the request fields of the
    lock's provider profile and the locked parameters (SPEC §15.4)."""
    fields = profile_of(manifest.model.profile).request_fields
    if response_format(manifest) is None:
        fields = fields - {"response_format"}
    return fields | frozenset(manifest.parameters)


def check_wire(manifest: JudgeManifest, body: bytes, messages: list[dict[str, str]]) -> None:
    """Raise ``JudgementError`` unless the wire body honours the lock (SPEC §15.4)."""
    value = parse_body(body)
    if not isinstance(value, dict):
        raise JudgementError("judgement.wire_json", "wire request is not an object")
    model = value.get("model")
    if model != wire_model_name(manifest):
        raise JudgementError("judgement.model_rewritten", "the wire names another model",
                             expected=wire_model_name(manifest), actual=str(model)[:80])
    for name, locked in sorted(manifest.parameters.items()):
        if name not in value:
            raise JudgementError("judgement.param_missing",
                                 f"locked parameter {name} was not sent", expected=locked,
                                 actual="absent")
        sent = value[name]
        if isinstance(sent, bool) or not isinstance(sent, int | Decimal) \
                or format_decimal(Decimal(sent)) != locked:
            raise JudgementError("judgement.param_value",
                                 f"parameter {name} was sent with another value",
                                 expected=locked, actual=str(sent)[:40])
    allowed = allowed_wire_keys(manifest)
    extra = sorted(set(value) - allowed)
    if extra:
        # Name the key, never its value: an unlocked field may hold a credential.
        shown = ascii(extra[0][:_KEY_SHOWN])
        raise JudgementError("lock.unlocked_parameter",
                             f"the wire carries {shown}, which the lock does not allow",
                             expected="only " + ", ".join(sorted(allowed)), actual=shown)
    for key, rendered in wire_messages(profile_of(manifest.model.profile), messages).items():
        if value.get(key) != rendered:
            raise JudgementError("judgement.messages_mismatch",
                                 "wire messages are not the rendered prompt")
    if value.get("response_format") != response_format(manifest):
        raise JudgementError("judgement.response_format",
                             "the wire does not ask for exactly the locked response_format")


def response_format(manifest: JudgeManifest) -> dict[str, Any] | None:
    """The ``response_format`` the client sends (the profile's JSON mode with the
    locked schema), or ``None`` when none is sent."""
    if not manifest.output_schema:
        return None
    return response_format_for(profile_of(manifest.model.profile),
                               load_json(manifest.output_schema))


def wire_number(text: str) -> int | float:
    """A canonical decimal as the JSON number the client sends (the only float edge:
    it is never committed; the wire check compares the sent text by value)."""
    return int(text) if "." not in text else float(text)


__all__ = ["REQUEST_FIELDS", "allowed_wire_keys", "canonical_request", "check_wire",
           "parse_body", "request_hash", "response_format", "wire_model_name", "wire_number"]
