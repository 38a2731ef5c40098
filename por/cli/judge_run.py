"""What ``por judge`` commands do with files, servers and the event loop (SPEC §15).

The core (:mod:`por.locked_judges`) takes bytes; this module reads configs, prompt
files, weights and bundles, starts the transcript server (and the local model
server when asked), runs the batch and writes the output directory.  litellm
and llama-cpp are imported only when an LLM manifest is run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from por.cli.bundle_file import open_bundle
from por.cli.common import (
    DOCUMENT_MAX_SIZE,
    CliError,
    bundle_cap,
    err,
    make_dir,
    read_input,
    remove_stale,
    write_atomic,
)
from por.cli.judge_routes import route_from_args, start_route

if TYPE_CHECKING:
    from por.locked_judges import JudgeManifest, JudgementSummary, JudgeSubject
    from por.locked_judges.batch import Transport

#: Files a judgement output directory holds.
JUDGEMENT_FILE = "judgement.cbor"
SEED_MANIFEST_FILE = "judge_manifest.json"
SCORES_FILE = "scores.json"
CHECKSUMS_FILE = "checksums.sha256"
#: The detached signature ``por judge sign`` writes beside a judgement
#: (``por.locked_judges.signing.SIGNATURE_FILE``): stale once the judgement is replaced.
SIGNATURE_FILE = "judgement.sig.cbor"
#: Every file batch or replay may write into its directory, and the signature
#: it would make stale: refused unless --force, before any judge is called.
OUTPUT_FILES = (JUDGEMENT_FILE, SEED_MANIFEST_FILE, SCORES_FILE, CHECKSUMS_FILE,
                SIGNATURE_FILE, "comparison.cbor", "comparison.json")
#: Largest config or prompt file read.
MAX_CONFIG_BYTES = 1 << 20


def resolve_config(path: str) -> JudgeManifest:
    """A config file, its prompt files (relative to it) and weights -> the lock."""
    from por.locked_judges.config import lock_from_config, parse_config_text
    from por.locked_judges.errors import JudgeLockError
    from por.locked_judges.local_server import sha256_file, weights_for

    config = parse_config_text(read_input(path, MAX_CONFIG_BYTES))
    base = os.path.dirname(os.path.abspath(path))
    files: dict[str, bytes] = {}
    for section in ("system_prompt", "template"):
        entry = config.get(section)
        name = entry.get("file") if isinstance(entry, dict) else None
        if isinstance(name, str):
            if os.path.isabs(name) or ".." in name.split("/"):
                raise JudgeLockError("lock.config", f"{section}.file must be a relative path "
                                     "inside the config's folder")
            files[name] = read_input(os.path.join(base, name), MAX_CONFIG_BYTES)
    weights = None
    model = config.get("model_lock")
    if isinstance(model, dict) and model.get("kind") == "local":
        source = dict(model.get("weights") or {})
        if "path" in source and not os.path.isabs(source["path"]):
            source["path"] = os.path.join(base, source["path"])
        weights = sha256_file(weights_for(source))
    return lock_from_config(config, files, weights=weights)


def load_manifest(args: argparse.Namespace) -> JudgeManifest:
    """``--judge-config`` (resolved now) or ``--manifest`` (a locked por.JudgeManifest/1)."""
    from por.locked_judges import parse_manifest

    if args.judge_config:
        return resolve_config(args.judge_config)
    if args.manifest:
        return parse_manifest(read_input(args.manifest, MAX_CONFIG_BYTES))
    raise CliError("usage.judge", "give --judge-config CONFIG or --manifest MANIFEST.cbor")


def load_subjects(paths: list[str], max_size: int) -> tuple[list[JudgeSubject],
                                                             dict[bytes, str]]:
    """Each PoR bundle as a subject, and the path each bundle hash came from."""
    from por.locked_judges import subject_from_bundle

    subjects = [subject_from_bundle(open_bundle(path, bundle_cap(max_size)).data)
                for path in paths]
    return subjects, {s.bundle_hash: p for s, p in zip(subjects, paths, strict=True)}


@contextlib.contextmanager
def transport_for(manifest: JudgeManifest, args: argparse.Namespace,
                  cassette_from: JudgementSummary | None = None) -> Iterator[Transport]:
    """The transport a manifest and the options imply, with its servers running."""
    from por.locked_judges import deterministic_transport

    if manifest.model.kind == "deterministic":
        yield deterministic_transport
        return
    from por.locked_judges.client import LiteLLMTransport, preflight
    from por.locked_judges.transcript import (
        TranscriptServer,
        cassette_from_calls,
        credentials_from_calls,
    )
    from por.locked_judges.wire import wire_model_name

    with contextlib.ExitStack() as stack:
        if cassette_from is not None or getattr(args, "cassette", None):
            calls = cassette_from.calls if cassette_from is not None else []
            models = (b'{"object":"list","data":[{"id":"%s","object":"model"}]}'
                      % wire_model_name(manifest).encode()) if calls else None
            server = TranscriptServer(cassette=cassette_from_calls(calls), replay=True,
                                      replayed_credentials=credentials_from_calls(calls),
                                      models_response=models)
        elif (route := route_from_args(args, "usage.judge")) is not None:
            if manifest.model.kind == "local":
                raise CliError("usage.judge", "a local lock is served by por (--serve-local), "
                               "which checks its weights; --api-base is for hosted models")
            server = start_route(route, manifest)
        elif getattr(args, "serve_local", False):
            from por.locked_judges.local_server import LocalModelServer, weights_from_source

            # One single-slot, single-thread server per parallel subject: llama.cpp
            # is deterministic per process, and parallel across processes.
            weights = weights_from_source(manifest.model.weights_source or "")
            servers = [stack.enter_context(LocalModelServer(manifest, weights))
                      for _ in range(max(1, getattr(args, "max_parallel", 1)))]
            server = TranscriptServer(upstream=[m.api_base for m in servers])
        else:
            raise CliError("usage.judge", "an LLM judge needs --serve-local, --api-base URL "
                           "or --replay-from JUDGEMENT")
        stack.enter_context(server)
        asyncio.run(preflight(server, manifest))
        err(f"por judge: locked judge {manifest.model.version_lock} available")
        yield LiteLLMTransport(server)


def run_batch(manifest: JudgeManifest, subjects: list[JudgeSubject], transport: Transport,
              args: argparse.Namespace) -> bytes:
    """Judge and return ``judgement.cbor`` (verified before it is returned)."""
    from por.cli.judge_prereg import load_preregistration
    from por.locked_judges import judge_batch, verify_judgement

    progress = None if getattr(args, "quiet", False) else (lambda line: err(f"  {line}"))
    data = asyncio.run(judge_batch(manifest, subjects, transport,
                                   max_parallel=args.max_parallel, progress=progress,
                                   run=getattr(args, "run_number", None) or 1,
                                   preregistration=load_preregistration(args)))
    # never write what this implementation would reject
    verify_judgement(data, max_size=DOCUMENT_MAX_SIZE)
    return data


def write_outputs(directory: str, data: bytes, paths: dict[bytes, str],
                  args: argparse.Namespace, *, extra: dict[str, bytes] | None = None,
                  replay_metadata: dict[str, Any] | None = None) -> JudgementSummary:
    """judgement.cbor, the seed's judge_manifest.json, scores.json and checksums."""
    from por.cli.common import dump_json
    from por.locked_judges import verify_judgement
    from por.locked_judges.reports import checksums, judge_manifest_json, scores_json

    summary = verify_judgement(data)
    shown = [paths.get(s.bundle_hash, "(from the original judgement)")
             for s in summary.subjects]
    seed = judge_manifest_json(summary, subject_paths=shown,
                               created_at=getattr(args, "at", None),
                               operator=getattr(args, "operator", None))
    seed["replay_metadata"] = replay_metadata
    files = {
        JUDGEMENT_FILE: data,
        SEED_MANIFEST_FILE: (dump_json(seed) + "\n").encode(),
        SCORES_FILE: (dump_json(scores_json(summary)) + "\n").encode(),
        **(extra or {}),
    }
    files[CHECKSUMS_FILE] = checksums(files)
    make_dir(directory)
    # A signature beside a replaced judgement would sign another judgement.
    remove_stale(os.path.join(directory, SIGNATURE_FILE))
    for name, content in sorted(files.items()):
        write_atomic(os.path.join(directory, name), content)
    return summary


def summary_json(summary: JudgementSummary, directory: str | None, *,
                 reexecuted: bool = False) -> dict[str, Any]:
    """The ``--json`` document of batch and verify (schema ``por/judgement/1``): per
    call its claim level and what was checked (SPEC §15.11: ``rerun`` when the answer
    was re-obtained, by ``por-judge/1``'s replay or ``--reexecute``)."""
    from por.locked_judges.chain import preregistration_digest
    from por.locked_judges.manifest import DETERMINISTIC_JUDGE

    report = summary.report
    prereg = summary.preregistration
    rerun = reexecuted or summary.manifest.parser == DETERMINISTIC_JUDGE
    return {
        "schema": "por/judgement/1",
        "judgement_id": summary.judgement_root.hex(),
        "manifest_digest": summary.manifest.digest().hex(),
        "judge_id": summary.manifest.judge_id,
        "status": report.status,
        "subjects": report.subjects_count,
        "judged": report.judged_count,
        "attempts": report.calls_count,
        "preregistration": {"digest": preregistration_digest(prereg).hex(), "run": prereg.run,
                            "panel": [d.hex() for d in prereg.panel],
                            "subjects_count": prereg.subjects_count},
        "calls": [{"subject_index": c.subject_index, "attempt": c.attempt, "result": c.result,
                   "claim": c.claim, "checked": "rerun" if rerun else "recorded"}
                  for c in summary.calls],
        "failed": [{"subject_index": f.subject_index, "error_kind": f.error_kind,
                    "check_id": f.check_id} for f in report.failed],
        "votes": [{"subject_id": summary.subjects[v.subject_index].subject_id,
                   "rating": v.outcome, "confidence_bps": v.confidence_bps}
                  for v in summary.votes],
        "output": directory,
    }


__all__ = ["load_manifest", "load_subjects", "resolve_config", "run_batch", "summary_json",
           "transport_for", "write_outputs"]
