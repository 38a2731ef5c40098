"""The route options ``por judge`` and ``por court`` share (SPEC §15.4 routes).

``--api-base URL`` is the upstream (http or https), ``--credential-env NAME``
the environment variable whose value the transcript server sends upstream at
each call (the value is never an option, never written), ``--ca-bundle FILE``
the CAs an https upstream is verified against (default: the system store).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from por.cli.common import CliError

if TYPE_CHECKING:
    from por.locked_judges import JudgeManifest
    from por.locked_judges.routes import Route
    from por.locked_judges.transcript import TranscriptServer


def add_route_options(group: argparse._ActionsContainer) -> None:
    """``--credential-env`` and ``--ca-bundle`` (they qualify ``--api-base``)."""
    group.add_argument("--credential-env", metavar="NAME",
                       help="environment variable holding the provider's credential, read at "
                            "each call and never recorded (with --api-base)")
    group.add_argument("--ca-bundle", metavar="FILE",
                       help="PEM CA certificates to verify an https --api-base against "
                            "(default: the system store)")


def route_from_args(args: argparse.Namespace, usage: str) -> Route | None:
    """The default route the options name, or ``None`` without ``--api-base``."""
    from por.locked_judges.routes import Route, check_route

    api_base = getattr(args, "api_base", None)
    env, bundle = getattr(args, "credential_env", None), getattr(args, "ca_bundle", None)
    if api_base is None:
        if env or bundle:
            raise CliError(usage, "--credential-env and --ca-bundle qualify --api-base URL")
        return None
    return check_route(Route(api_base, env, bundle), _fail(usage), "--api-base")


def _fail(check_id: str) -> Callable[..., CliError]:
    def fail(message: str, **values: object) -> CliError:
        return CliError(check_id, message, **values)  # type: ignore[arg-type]
    return fail


def start_route(route: Route, manifest: JudgeManifest) -> TranscriptServer:
    """A transcript server for ``route`` (``usage.route`` if its CA bundle is unreadable)."""
    from por.locked_judges.routes import transcript_server

    if route.ca_bundle is not None and not os.path.isfile(route.ca_bundle):
        raise CliError("usage.route", "the CA bundle is not a file", actual=route.ca_bundle[:80])
    try:
        return transcript_server(route, manifest)
    except OSError:
        raise CliError("usage.route", "the CA bundle holds no usable PEM certificates",
                       actual=str(route.ca_bundle)[:80]) from None


__all__ = ["add_route_options", "route_from_args", "start_route"]
