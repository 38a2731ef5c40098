"""What ``por dispute`` and ``por court`` do with files, servers and the event loop (SPEC §16).

The core (:mod:`por.court`) takes bytes; this module reads cases, court files,
judge configs and keys, starts one transcript server per route (and local
model servers when asked), runs the panel and writes the ruling directory.
litellm and llama-cpp are imported only when a panel is run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from por.cli.common import CliError, err, make_dir, read_input, remove_stale, write_atomic
from por.cli.judge_routes import route_from_args, start_route

if TYPE_CHECKING:
    from por.court.seed003.llm_judge import CallTransport
    from por.court.verify import CourtSummary
    from por.locked_judges import JudgeManifest
    from por.locked_judges.routes import Route

RULING_FILE = "ruling.cbor"
SUMMARY_FILE = "ruling.json"
SIGNATURE_FILE = "ruling.sig.cbor"
#: Every file ``por court rule`` writes: refused unless --force, before any judge.
OUTPUT_FILES = (RULING_FILE, SUMMARY_FILE, SIGNATURE_FILE)
MAX_CONFIG_BYTES = 1 << 20


def load_judges(court_path: str) -> tuple[dict[str, int], list[JudgeManifest],
                                          list[Route | None]]:
    """The court file's numbers, one lock per seat (configs resolved now) and each
    seat's own route (its CA bundle path made relative to the court file)."""
    from por.cli.judge_run import resolve_config
    from por.court.config import parse_court
    from por.court.errors import CourtError
    from por.locked_judges import parse_manifest

    numbers, paths, routes = parse_court(read_input(court_path, MAX_CONFIG_BYTES))
    base = os.path.dirname(os.path.abspath(court_path))
    routes = [dataclasses.replace(r, ca_bundle=os.path.join(base, r.ca_bundle))
              if r is not None and r.ca_bundle is not None else r for r in routes]
    locks = []
    for path in paths:
        if os.path.isabs(path) or ".." in path.split("/"):
            raise CourtError("court.config", "judge paths are relative, inside the court's "
                             "folder", actual=path[:80])
        full = os.path.join(base, path)
        if path.endswith(".cbor"):
            locks.append(parse_manifest(read_input(full, MAX_CONFIG_BYTES)))
        else:
            locks.append(resolve_config(full))
    return numbers, locks, routes


@contextlib.contextmanager
def transports_for(locks: list[JudgeManifest], seat_routes: list[Route | None],
                   args: argparse.Namespace
                   ) -> Iterator[tuple[list[CallTransport], list[Any]]]:
    """One recorded route per seat, with its servers running; and the clients to close.
    A seat's own route wins; ``--api-base`` (with ``--credential-env``, ``--ca-bundle``)
    serves the rest, one transcript server per seat (its profile's credential header)."""
    from por.locked_judges.client import LiteLLMTransport
    from por.locked_judges.transcript import (
        TranscriptServer,
        cassette_from_calls,
        credentials_from_calls,
    )

    with contextlib.ExitStack() as stack:
        clients: dict[int, LiteLLMTransport] = {}
        routes: list[CallTransport] = []
        shared: LiteLLMTransport | None = None
        if args.replay_from:
            from por.court.verify import verify_court

            original = verify_court(read_input(args.replay_from, args.max_size),
                                    max_size=args.max_size)
            server = stack.enter_context(TranscriptServer(
                cassette=cassette_from_calls(original.calls), replay=True,
                replayed_credentials=credentials_from_calls(original.calls)))
            shared = LiteLLMTransport(server)
        default = route_from_args(args, "usage.court")
        for seat, lock in enumerate(locks):
            route = seat_routes[seat] or default
            if lock.model.kind == "local" and not args.replay_from:
                if not args.serve_local:
                    raise CliError("usage.court", f"seat {seat} ({lock.judge_id}) is a local "
                                   "lock: por serves it (--serve-local), which checks its weights")
                from por.locked_judges.local_server import LocalModelServer, weights_from_source

                model = stack.enter_context(LocalModelServer(
                    lock, weights_from_source(lock.model.weights_source or "")))
                own = stack.enter_context(TranscriptServer(upstream=model.api_base))
                clients[seat] = LiteLLMTransport(own)
                routes.append(clients[seat].exchange)
            elif shared is not None:
                routes.append(shared.exchange)
            elif route is not None:
                clients[seat] = LiteLLMTransport(stack.enter_context(start_route(route, lock)))
                routes.append(clients[seat].exchange)
            else:
                raise CliError("usage.court", f"seat {seat} ({lock.judge_id}) needs a route: "
                               "its own in the court file, --api-base URL, --serve-local or "
                               "--replay-from RULING")
        yield routes, [*clients.values(), *([shared] if shared is not None else [])]


def run_panel(case: Any, rule: Any, locks: list[JudgeManifest], routes: list[CallTransport], *,
              clients: list[Any], args: argparse.Namespace) -> bytes:
    """Run the court in one event loop and close litellm's sessions in it."""
    from por.court.panel import rule_case

    progress = None if args.quiet else (lambda line: err(f"  {line}"))

    async def main() -> bytes:
        try:
            return await rule_case(case, rule, locks, routes, progress=progress)
        finally:
            for client in clients:
                await client.aclose()

    return asyncio.run(main())


def summary_json(summary: CourtSummary, output: str | None) -> dict[str, Any]:
    """``por/court-ruling/1``: what the court decided, per round and per vote."""
    from por.court.chain import court_digest

    case = summary.case
    digest = court_digest(summary.rule, summary.panel, summary.case_hash)
    return {
        "schema": "por/court-ruling/1",
        "output": output,
        "court_root": summary.court_root.hex(),
        "case_hash": summary.case_hash.hex(),
        "market_id": case.market_id,
        "challenge_id": case.challenge_id.hex(),
        "leaf": {"kind": case.leaf_kind, "index": case.leaf_index,
                 "leaf_hash": case.leaf_hash.hex()},
        "rule": summary.rule.to_json_obj(),
        "preregistration": None if digest is None else {
            "digest": digest.hex(), "run": summary.rule.run},
        "judges": [{"seat": seat, "judge_id": m.judge_id, "model": m.model.version_lock,
                    "manifest_digest": m.digest().hex()} for seat, m in enumerate(summary.panel)],
        "rounds": [r.to_json_obj() | {"case_hash": None} for r in summary.rulings],
        "votes": [{"seat": v.seat, "judge_id": v.judge_id, "worker_pct": v.worker_pct,
                   "reasoning": v.reasoning, "voted_at": v.voted_at}
                  | ({} if v.first_pct is None else {
                      "first_pct": v.first_pct, "changed_mind": v.changed_mind,
                      "first_answer_hash": (v.first_answer_hash or b"").hex()})
                  for v in summary.votes],
        "canaries": None if summary.final.canary_flips is None else {
            "flips": summary.final.canary_flips, "answered": summary.final.canary_answered,
            "flip_rate": f"{summary.final.canary_flips}/{summary.final.canary_answered}",
            "flipped_seats": summary.final.flipped_seats,
            "discounted": summary.final.discounted},
        "attempts": len(summary.calls),
        "status": summary.final.status,
        "worker_pct": summary.final.worker_pct,
        "decision": summary.final.decision,
    }


def write_ruling(directory: str, data: bytes, signature: bytes | None,
                 document: dict[str, Any]) -> None:
    """ruling.cbor, ruling.json and (signed) ruling.sig.cbor."""
    from por.cli.common import dump_json

    make_dir(directory)
    # An unsigned ruling never keeps the signature of the ruling it replaces.
    remove_stale(os.path.join(directory, SIGNATURE_FILE))
    write_atomic(os.path.join(directory, RULING_FILE), data)
    write_atomic(os.path.join(directory, SUMMARY_FILE), dump_json(document).encode())
    if signature is not None:
        write_atomic(os.path.join(directory, SIGNATURE_FILE), signature)


__all__ = ["OUTPUT_FILES", "RULING_FILE", "SIGNATURE_FILE", "SUMMARY_FILE", "load_judges",
           "run_panel",
           "summary_json", "transports_for", "write_ruling"]
