"""Routes (SPEC §15.4): where a locked judge's calls go, and with which credential.

A route is run-time, not locked: the upstream ``api_base`` (``http://`` or
``https://``), the NAME of the environment variable holding the credential
(never its value), and optionally a CA bundle that an https upstream is
verified against.  Each court seat may name its own route; ``--api-base``
(with ``--credential-env``, ``--ca-bundle``) is the default for the rest.
:func:`default_route` is the seed constructor's route for a bare
``openai/...`` or ``anthropic/...`` model (the providers' public endpoints and
the variable names litellm documents).  Leaves out: reading the variable (the
transcript server does, at each call).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from por.errors import PorError
from por.locked_judges.manifest import JudgeManifest
from por.locked_judges.profiles import profile_of
from por.locked_judges.transcript import Credential, TranscriptServer

#: An environment variable name a route may name.
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
#: Keys of a route mapping (a court seat's entry, beside ``judge``).
ROUTE_KEYS = frozenset({"api_base", "credential_env", "ca_bundle"})
#: Hosts a credential may be sent to over plain http (this machine only).
_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
#: The seed constructor's routes: provider -> (api_base, credential variable).
DEFAULT_ROUTES: dict[str, tuple[str, str]] = {
    "openai": ("https://api.openai.com/v1", "OPENAI_API_KEY"),
    "anthropic": ("https://api.anthropic.com", "ANTHROPIC_API_KEY"),
}
#: ``fail(message, actual=...)``: the caller's error (its family's ``*.route`` check id).
Fail = Callable[..., PorError]


@dataclass(frozen=True)
class Route:
    """An upstream, the credential variable's name, and a CA bundle path."""

    api_base: str
    credential_env: str | None = None
    ca_bundle: str | None = None


def check_route(route: Route, fail: Fail, where: str = "route") -> Route:
    """``route`` if it is usable: an http(s) URL, a variable name, and no credential
    over plain http beyond this machine (``<family>.route``)."""
    parts = urlsplit(route.api_base)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise fail(f"{where}: api_base is not an http(s) URL", actual=route.api_base[:80])
    if route.credential_env is not None and ENV_NAME.fullmatch(route.credential_env) is None:
        raise fail(f"{where}: credential_env is not a variable name",
                   actual=route.credential_env[:64])
    if route.credential_env and parts.scheme == "http" and parts.hostname not in _LOOPBACK:
        raise fail(f"{where}: a credential goes only over https (or to this machine)",
                   actual=route.api_base[:80])
    return route


def route_from_mapping(value: Mapping[str, Any], fail: Fail, where: str) -> Route:
    """A route from a court seat's mapping (``api_base``, ``credential_env``, ``ca_bundle``)."""
    unknown = sorted(set(value) - ROUTE_KEYS)
    if unknown:
        raise fail(f"{where}: unknown route options: {', '.join(map(str, unknown))[:80]}")
    api_base, env, bundle = (value.get(k) for k in ("api_base", "credential_env", "ca_bundle"))
    if not isinstance(api_base, str) or not all(v is None or isinstance(v, str)
                                                for v in (env, bundle)):
        raise fail(f"{where}: a route is api_base (text) and optional credential_env, "
                   "ca_bundle (text)")
    return check_route(Route(api_base, env, bundle), fail, where)


def default_route(manifest: JudgeManifest) -> Route | None:
    """The public endpoint of a lock's provider (``openai``, ``anthropic``), else ``None``."""
    found = DEFAULT_ROUTES.get(manifest.model.provider)
    return Route(found[0], found[1]) if found is not None else None


def transcript_server(route: Route, manifest: JudgeManifest) -> TranscriptServer:
    """A (not yet started) transcript server forwarding to ``route`` with the lock's
    profile's credential header (``OSError`` if the CA bundle is unreadable)."""
    credential = None
    if route.credential_env:
        credential = Credential(route.credential_env,
                                profile_of(manifest.model.profile).credential_header)
    return TranscriptServer(upstream=route.api_base, credential=credential,
                            ca_bundle=route.ca_bundle)


__all__ = ["DEFAULT_ROUTES", "ENV_NAME", "ROUTE_KEYS", "Route", "check_route", "default_route",
           "route_from_mapping", "transcript_server"]
