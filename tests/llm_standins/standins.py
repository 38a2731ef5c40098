"""Loopback HTTPS stand-ins for the providers (tests only; nothing here reaches a network).

:func:`make_tls` makes a test CA and a server certificate for 127.0.0.1 with
``cryptography``.  :class:`StandIn` is a threaded HTTPS server on 127.0.0.1 that
speaks one provider's API as documented (request fields, credential header,
error shapes):

- ``openai``: ``POST /v1/chat/completions`` with ``Authorization: Bearer KEY``;
  unknown fields are refused 400 ``invalid_request_error`` "Unrecognized request
  argument supplied: NAME"; ``response_format`` is ``text``, ``json_object`` or
  ``json_schema`` (with ``json_schema.name``), nothing more.
- ``anthropic``: ``POST /v1/messages`` with ``x-api-key`` and ``anthropic-version``;
  ``model``, ``messages`` and ``max_tokens`` required, ``system`` top level, roles
  ``user``/``assistant`` only; unknown fields 400 "NAME: Extra inputs are not
  permitted".
- ``compatible``: a llama.cpp-like server (``top_k``, ``min_p``, ``repeat_penalty``,
  a ``schema`` in ``response_format``), no credential.

Each POST takes the next action of ``script`` (then ``ok``): ``ok``, ``429`` (with
``Retry-After``), ``500``, ``timeout`` (no answer until the stand-in stops or
``hang_s`` passes) and ``oversized`` (a 200 body over 1 MiB).  ``answer(model)``
is the text the model says.  Every request is kept (path, headers, body).
Sources: the OpenAI chat-completions and Anthropic messages API references.
"""

from __future__ import annotations

import datetime
import ipaddress
import json
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

OPENAI_FIELDS = frozenset({
    "model", "messages", "temperature", "top_p", "n", "stream", "stream_options", "stop",
    "max_tokens", "max_completion_tokens", "presence_penalty", "frequency_penalty",
    "logit_bias", "logprobs", "top_logprobs", "user", "seed", "response_format", "tools",
    "tool_choice", "parallel_tool_calls", "service_tier", "store", "metadata", "modalities",
    "reasoning_effort", "prediction", "audio"})
ANTHROPIC_FIELDS = frozenset({
    "model", "messages", "max_tokens", "system", "temperature", "top_p", "top_k",
    "stop_sequences", "stream", "metadata", "tools", "tool_choice", "thinking",
    "service_tier", "container", "mcp_servers"})
COMPATIBLE_FIELDS = OPENAI_FIELDS | {"top_k", "min_p", "repeat_penalty"}
OVERSIZED = 1 << 20 | 4096


@dataclass(frozen=True)
class Tls:
    """PEM files of a test CA and a 127.0.0.1 server certificate signed by it."""

    ca: Path
    cert: Path
    key: Path


def make_tls(folder: Path) -> Tls:
    """A fresh CA and server certificate (P-256, valid for a day around now)."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "por test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(hours=1))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False,
                                       False), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
            .issuer_name(ca_name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.ExtendedKeyUsage([x509.ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    tls = Tls(folder / "ca.pem", folder / "server.pem", folder / "server.key")
    tls.ca.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    tls.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    tls.key.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                          serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    return tls


def _openai_error(message: str, code: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": "invalid_request_error", "param": None,
                      "code": code}}


def _anthropic_error(kind: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


def check_openai(body: dict[str, Any], fields: frozenset[str]) -> str | None:
    """Why a chat-completions body is refused (``None``: accepted)."""
    for name in sorted(body):
        if name not in fields:
            return f"Unrecognized request argument supplied: {name}"
    if not isinstance(body.get("model"), str) or not isinstance(body.get("messages"), list):
        return "you must provide a model parameter and messages"
    for message in body["messages"]:
        if message.get("role") not in ("system", "user", "assistant", "developer"):
            return "Invalid value for 'messages.role'"
    wanted = body.get("response_format")
    if wanted is not None:
        allowed = {"text": {"type"}, "json_object": {"type"},
                   "json_schema": {"type", "json_schema"}}.get(wanted.get("type"))
        if fields is COMPATIBLE_FIELDS and wanted.get("type") == "json_object":
            allowed = {"type", "schema"}  # llama.cpp's extension
        if allowed is None or set(wanted) - allowed:
            return "Invalid parameter: 'response_format'"
        if wanted["type"] == "json_schema" and "name" not in wanted["json_schema"]:
            return "Missing required parameter: 'response_format.json_schema.name'"
        if wanted["type"] == "json_schema" and wanted["json_schema"].get("strict") is True:
            schema = wanted["json_schema"].get("schema") or {}
            # Structured outputs, strict mode: objects closed, every property required.
            if schema.get("additionalProperties") is not False \
                    or sorted(schema.get("required", [])) != sorted(schema.get("properties", {})):
                return "Invalid schema for response_format 'por_vote': strict mode"
    return None


def check_anthropic(body: dict[str, Any]) -> str | None:
    """Why a messages body is refused (``None``: accepted)."""
    for name in sorted(body):
        if name not in ANTHROPIC_FIELDS:
            return f"{name}: Extra inputs are not permitted"
    for name in ("model", "messages", "max_tokens"):
        if name not in body:
            return f"{name}: Field required"
    for message in body["messages"]:
        if message.get("role") not in ("user", "assistant"):
            return "messages: Unexpected role. Use the top-level system parameter"
    return None


@dataclass
class _Config:
    provider: str
    key: str | None
    models: list[str]
    answer: Callable[[str], str]
    script: list[str]
    hang_s: float
    seen: list[tuple[str, dict[str, str], bytes]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # stdlib's parameter name
        del format, args

    def _send(self, status: int, value: Any, headers: dict[str, str] | None = None,
              raw: bytes | None = None) -> None:
        body = raw if raw is not None else json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        for name, text in (headers or {}).items():
            self.send_header(name, text)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _authorised(self) -> bool:
        config = self.server.config
        if config.key is None:
            return True
        if config.provider == "anthropic":
            if self.headers.get("x-api-key") != config.key:
                self._send(401, _anthropic_error("authentication_error", "invalid x-api-key"))
                return False
            if not self.headers.get("anthropic-version"):
                self._send(400, _anthropic_error("invalid_request_error",
                                                 "anthropic-version: header is required"))
                return False
            return True
        if self.headers.get("Authorization") != f"Bearer {config.key}":
            self._send(401, _openai_error("Incorrect API key provided", "invalid_api_key"))
            return False
        return True

    def do_GET(self) -> None:
        if not self._authorised():
            return
        path, _, query = self.path.partition("?")
        anthropic = self.server.config.provider == "anthropic"
        if path.rstrip("/") != "/v1/models" or (query and not anthropic):
            self._send(404, _openai_error("not found"))
            return
        self._send(200, {"object": "list", "data": [
            {"id": m, "object": "model", "type": "model", "created": 0, "owned_by": "test"}
            for m in self.server.config.models]})

    def do_POST(self) -> None:
        config = self.server.config
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with config.lock:
            config.seen.append((self.path, dict(self.headers.items()), body))
            action = config.script.pop(0) if config.script else "ok"
        if not self._authorised():
            return
        expected = "/v1/messages" if config.provider == "anthropic" else "/v1/chat/completions"
        if self.path != expected:
            self._send(404, _openai_error(f"no route {self.path[:40]}"))
            return
        value = json.loads(body)
        refused = (check_anthropic(value) if config.provider == "anthropic" else
                   check_openai(value, COMPATIBLE_FIELDS if config.provider == "compatible"
                                else OPENAI_FIELDS))
        if refused is not None:
            self._send(400, _anthropic_error("invalid_request_error", refused)
                       if config.provider == "anthropic" else _openai_error(refused))
            return
        if value["model"] not in config.models:
            self._send(404, _openai_error(f"The model {value['model']} does not exist"))
            return
        self._act(action, value["model"])

    def _act(self, action: str, model: str) -> None:
        config = self.server.config
        if action == "429":
            self._send(429, _openai_error("Rate limit reached", "rate_limit_exceeded"),
                       {"Retry-After": "1"})
        elif action == "500":
            self._send(500, _openai_error("The server had an error"))
        elif action == "timeout":
            config.stop.wait(config.hang_s)
            self.close_connection = True
        elif action == "oversized":
            self._send(200, None, raw=b'{"pad":"' + b"x" * OVERSIZED + b'"}')
        elif config.provider == "anthropic":
            self._send(200, {"id": "msg_standin", "type": "message", "role": "assistant",
                             "model": model, "content": [{"type": "text",
                                                          "text": config.answer(model)}],
                             "stop_reason": "end_turn", "stop_sequence": None,
                             "usage": {"input_tokens": 10, "output_tokens": 10}})
        else:
            self._send(200, {"id": "chatcmpl-standin", "object": "chat.completion",
                             "created": 0, "model": model, "system_fingerprint": "fp_standin",
                             "choices": [{"index": 0, "finish_reason": "stop", "message": {
                                 "role": "assistant", "content": config.answer(model)}}],
                             "usage": {"prompt_tokens": 10, "completion_tokens": 10,
                                       "total_tokens": 20}})


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, config: _Config, context: ssl.SSLContext | None) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.config = config
        if context is not None:
            self.socket = context.wrap_socket(self.socket, server_side=True)

    def handle_error(self, request: Any, client_address: Any) -> None:
        del request, client_address  # a client that hung up (timeouts): not a failure


class StandIn:
    """One provider's stand-in; a context manager (starts and stops its thread)."""

    def __init__(self, provider: str, tls: Tls | None, *, key: str | None, models: list[str],
                 answer: Callable[[str], str], script: list[str] | None = None,
                 hang_s: float = 30.0) -> None:
        self.config = _Config(provider, key, models, answer, list(script or []), hang_s)
        context = None
        if tls is not None:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(tls.cert, tls.key)
        self._server = _Server(self.config, context)
        self._scheme = "https" if tls is not None else "http"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> StandIn:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.config.stop.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    @property
    def api_base(self) -> str:
        """The provider's base URL as an operator would give it."""
        port = self._server.server_address[1]
        suffix = "" if self.config.provider == "anthropic" else "/v1"
        return f"{self._scheme}://127.0.0.1:{port}{suffix}"

    @property
    def seen(self) -> list[tuple[str, dict[str, str], bytes]]:
        """Every POST (path, headers, body) in arrival order."""
        with self.config.lock:
            return list(self.config.seen)


__all__ = ["OVERSIZED", "StandIn", "Tls", "check_anthropic", "check_openai", "make_tls"]
