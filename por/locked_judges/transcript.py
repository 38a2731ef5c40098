"""The transcript server (SPEC §15.4): the one transport por owns between a client and a model.

A stdlib ``http.server`` on 127.0.0.1 that sits in front of one or more model
servers (each request goes to a free one: one slot per server process) or a
test double.  Every POST is recorded with its exact request and response
bytes under the ``X-Por-Call`` header the client sends, and under its canonical
request hash in a *cassette*.  In replay mode it answers from the cassette
byte for byte and with HTTP 599 on a miss, which the client surfaces as a
fail-closed "judge unavailable".  Nothing can bypass it quietly: litellm's own
hooks are not wire-exact, a socket is.

Every request must carry the run's secret (``X-Por-Secret``: a random token
made per server, known only to the client of this run, never recorded: the
recorded request is the body, not its headers).  Anything else is answered 403
and neither recorded nor forwarded, so another local process cannot spend or
spoil an attempt.  An upstream answer is read up to ``MAX_RESPONSE + 1`` bytes
and no further (SPEC §15.4): a longer one is kept as that prefix.

The upstream may be ``https://``: TLS is verified against the system store, or
against ``ca_bundle`` (a PEM file; tests pass their own CA).  When a route names
a credential variable (:class:`Credential`), the server reads that environment
variable *at each forward* and sends it upstream in the profile's header
(``Authorization: Bearer ...`` or ``x-api-key``); whatever credential header the
client sent is dropped.  The value is never recorded: a call records only
``<header>: <redacted:NAME>``.  An unset variable is answered 401 locally,
nothing forwarded.  Only ``anthropic-version`` and ``Content-Type`` are passed
on from the client's headers.

Leaves out: listening anywhere but 127.0.0.1, streaming.
"""

from __future__ import annotations

import hmac
import http.client
import os
import queue
import secrets
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from por.locked_judges.records import MAX_WIRE_BYTES
from por.locked_judges.wire import request_hash

#: Header naming the attempt a request belongs to.
CALL_HEADER = "X-Por-Call"
#: Header carrying the run's secret (never recorded, never forwarded upstream).
SECRET_HEADER = "X-Por-Secret"  # noqa: S105  # a header name, not a secret
#: Status for a replay miss (not a real HTTP status: nothing can mean it by accident).
MISS_STATUS = 599
#: Largest request body accepted.
MAX_BODY = 1 << 20
#: (request body) -> (status, response body): an in-process upstream for tests.
Responder = Callable[[bytes], tuple[int, bytes]]


#: Client headers passed on upstream (everything else, credentials included, is dropped).
_PASSED_HEADERS = ("anthropic-version", "Content-Type")


@dataclass(frozen=True)
class Credential:
    """Where an upstream credential comes from: an environment variable, by NAME."""

    env: str
    #: ``authorization`` (sent as ``Bearer <value>``) or ``x-api-key``.
    header: str = "authorization"

    def redacted(self) -> str:
        """What a call records: the header and the variable's name, never the value."""
        return f"{self.header}: <redacted:{self.env}>"

    def headers(self) -> dict[str, str] | None:
        """The upstream header, read from the environment now (``None`` if unset)."""
        value = os.environ.get(self.env)
        if not value:
            return None
        return {"Authorization": f"Bearer {value}"} if self.header == "authorization" \
            else {self.header: value}


@dataclass
class Recorded:
    """One exchange as it crossed the socket."""

    call_id: str
    request: bytes
    status: int = 0
    response: bytes = b""
    #: ``<header>: <redacted:NAME>`` when a credential was sent upstream.
    credential: str | None = None
    #: The upstream's ``Retry-After`` header, as sent (never recorded: it only
    #: lengthens the wait before a retry, SPEC §15.4).
    retry_after: str | None = None


@dataclass
class _State:
    upstream: str | None
    #: Free upstreams (model servers with one slot each): a request takes one.
    free: queue.Queue[str]
    responder: Responder | None
    cassette: dict[bytes, tuple[int, bytes]]
    replay: bool
    models_response: bytes | None
    #: The run's secret, or ``None`` for a stand-in model that admits any caller.
    secret: str | None
    credential: Credential | None = None
    tls: ssl.SSLContext | None = None
    #: Replay: the recorded ``credential`` of each cassette answer (by request hash).
    replayed_credentials: dict[bytes, str] = field(default_factory=dict)
    log: list[Recorded] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # stdlib's parameter name
        del format, args  # quiet: stderr belongs to the CLI's progress lines

    def _send(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _admitted(self) -> bool:
        """Whether the request carries the run's secret; else answer 403 and hang up
        (the body is not read: nothing of it is recorded or forwarded)."""
        secret = self.server.state.secret
        given = self.headers.get(SECRET_HEADER) or ""
        if secret is None or hmac.compare_digest(given.encode(), secret.encode()):
            return True
        self.close_connection = True
        self._send(403, b'{"error":"not a caller of this run"}')
        return False

    def do_GET(self) -> None:
        if not self._admitted():
            return
        state = self.server.state
        if state.upstream is not None and not state.replay:
            status, body, _, _ = _forward(state, state.upstream, "GET", self.path, None,
                                          passed=self._passed())
            if urlsplit(self.path).path.rstrip("/").endswith("/models") and status == 200:
                state.models_response = body
            self._send(status, body)
        elif state.models_response is not None:
            self._send(200, state.models_response)
        else:
            self._send(MISS_STATUS, b'{"error":"no model behind the transcript server"}')

    def do_POST(self) -> None:
        if not self._admitted():
            return
        state = self.server.state
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY or length < 0:
            self.close_connection = True
            self._send(413, b'{"error":"request too large"}')
            return
        body = self.rfile.read(length)
        record = Recorded(self.headers.get(CALL_HEADER, ""), body)
        with state.lock:
            state.log.append(record)
        key = request_hash(body)
        if key in state.cassette and (state.replay or state.upstream is None):
            status, response = state.cassette[key]
            record.credential = state.replayed_credentials.get(key) if state.replay else None
        elif state.replay:
            status, response = MISS_STATUS, b'{"error":"transcript miss: judge unavailable"}'
        elif state.upstream is not None:
            if state.credential is not None or state.tls is not None:
                # A provider's API serves calls concurrently: no slot to wait for
                # (an answer that never comes must not hold up the retry).
                status, response, record.credential, record.retry_after = _forward(
                    state, state.upstream, "POST", self.path, body, passed=self._passed())
            else:
                target = state.free.get()
                try:
                    status, response, record.credential, record.retry_after = _forward(
                        state, target, "POST", self.path, body, passed=self._passed())
                finally:
                    state.free.put(target)
        elif state.responder is not None:
            status, response = state.responder(body)
        else:
            status, response = MISS_STATUS, b'{"error":"no upstream"}'
        response = response[:MAX_WIRE_BYTES]  # a stand-in's answer is capped alike
        if status == 200 and not state.replay:
            with state.lock:
                state.cassette[key] = (status, response)
        record.status, record.response = status, response
        self._send(status, response)


    def _passed(self) -> dict[str, str]:
        return {name: self.headers[name] for name in _PASSED_HEADERS if self.headers.get(name)}


def _forward(state: _State, upstream: str, method: str, path: str, body: bytes | None, *,
             passed: dict[str, str]) -> tuple[int, bytes, str | None, str | None]:
    """(status, body, recorded credential, Retry-After) of one upstream exchange."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    headers |= passed
    credential = state.credential
    if credential is not None:
        extra = credential.headers()
        if extra is None:  # fail closed, locally: nothing reaches the provider
            return 401, (b'{"error":{"type":"por_credential_missing","message":'
                         b'"the route\'s credential variable is not set"}}'), None, None
        headers |= extra
    parts = urlsplit(upstream)
    conn: http.client.HTTPConnection
    if parts.scheme == "https":
        conn = http.client.HTTPSConnection(parts.hostname or "", parts.port or 443,
                                           timeout=600, context=state.tls)
    else:
        conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80,
                                          timeout=600)
    try:
        conn.request(method, path, body=body, headers=headers)
        reply = conn.getresponse()
        # Never buffer more than the cap + 1 bytes (SPEC §15.4): the prefix is the proof.
        return (reply.status, reply.read(MAX_WIRE_BYTES),
                credential.redacted() if credential is not None else None,
                reply.getheader("Retry-After"))
    except OSError:  # includes ssl.SSLError: an unverified upstream is unreachable
        return 502, b'{"error":"upstream unreachable"}', None, None
    finally:
        conn.close()


def _tls(upstreams: list[str], ca_bundle: str | None) -> ssl.SSLContext | None:
    """The verifying TLS context of https upstreams (``OSError`` if the bundle is unreadable)."""
    if not any(url.startswith("https://") for url in upstreams):
        return None
    try:
        return ssl.create_default_context(cafile=ca_bundle)
    except ssl.SSLError as exc:
        raise OSError(f"CA bundle is not PEM certificates: {exc.reason}") from None


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, state: _State) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.state = state

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that gave up (timeout) closes its socket before the answer:
        # the exchange is already recorded; no traceback on the CLI's stderr.
        del request, client_address


class TranscriptServer:
    """Start with :meth:`start`, point the client at :attr:`api_base`, :meth:`stop` after."""

    def __init__(self, *, upstream: str | list[str] | None = None,
                 responder: Responder | None = None,
                 cassette: dict[bytes, tuple[int, bytes]] | None = None,
                 replay: bool = False, models_response: bytes | None = None,
                 authenticate: bool = True, credential: Credential | None = None,
                 ca_bundle: str | None = None,
                 replayed_credentials: dict[bytes, str] | None = None) -> None:
        """``authenticate=False`` only for a stand-in *model* in tests (behind a real
        transcript server, which does not forward its secret upstream).  ``credential``
        names the environment variable sent upstream; ``ca_bundle`` a PEM file of CAs
        an https upstream is verified against (default: the system store).
        ``replayed_credentials`` (request hash -> recorded ``credential``) lets a replay
        reproduce each call's record byte for byte (no credential is sent in replay)."""
        upstreams = [upstream] if isinstance(upstream, str) else list(upstream or [])
        free: queue.Queue[str] = queue.Queue()
        for url in upstreams:
            free.put(url)
        self._state = _State(upstreams[0] if upstreams else None, free, responder,
                             dict(cassette or {}), replay, models_response,
                             secrets.token_urlsafe(32) if authenticate else None,
                             credential, _tls(upstreams, ca_bundle),
                             dict(replayed_credentials or {}))
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> TranscriptServer:
        """Listen on 127.0.0.1 (a free port) in a daemon thread."""
        self._server = _Server(self._state)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening and join the thread."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def __enter__(self) -> TranscriptServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def api_base(self) -> str:
        """``http://127.0.0.1:PORT/v1`` for the client."""
        if self._server is None:
            raise RuntimeError("transcript server is not running")
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def secret(self) -> str | None:
        """The run's secret: the client sends it as ``X-Por-Secret`` on every request."""
        return self._state.secret

    def take(self, call_id: str) -> list[Recorded]:
        """Remove and return the exchanges recorded for one attempt (copies)."""
        with self._state.lock:
            mine = [r for r in self._state.log if r.call_id == call_id]
            self._state.log = [r for r in self._state.log if r.call_id != call_id]
            return [Recorded(r.call_id, r.request, r.status, r.response, r.credential,
                             r.retry_after) for r in mine]

    @property
    def cassette(self) -> dict[bytes, tuple[int, bytes]]:
        """A copy of the cassette (request hash -> status, response)."""
        with self._state.lock:
            return dict(self._state.cassette)

    @property
    def models_response(self) -> bytes | None:
        """The upstream's ``/v1/models`` answer, when one was seen."""
        return self._state.models_response


def cassette_from_calls(calls: list[Any]) -> dict[bytes, tuple[int, bytes]]:
    """A replay cassette from committed ``por.JudgeCall/1`` records (200 answers only)."""
    return {call.request_hash: (call.status, call.response) for call in calls
            if call.status == 200}


def credentials_from_calls(calls: list[Any]) -> dict[bytes, str]:
    """The recorded ``credential`` of each cassette answer (by request hash)."""
    return {call.request_hash: call.credential for call in calls
            if call.status == 200 and call.credential is not None}


__all__ = ["CALL_HEADER", "MISS_STATUS", "SECRET_HEADER", "Credential", "Recorded", "Responder",
           "TranscriptServer", "cassette_from_calls", "credentials_from_calls"]
