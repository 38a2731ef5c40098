"""``por judge``: locked judges (seed 002, SPEC §15) from the command line.

``lock`` resolves a judge config into a ``por.JudgeManifest/1`` and prints its
digest; ``batch`` judges PoR bundles and writes a judgement directory;
``verify`` checks a judgement bundle offline (``--reexecute`` re-runs a bitwise
local model and compares); ``replay`` re-judges the same subjects under another
(or the same) manifest and writes the comparison report.  Progress goes to
stderr, one JSON document to stdout with ``--json``.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from por.cli.common import (
    DOCUMENT_MAX_SIZE,
    EXIT_OK,
    EXIT_TABLE,
    CliError,
    add_force_option,
    add_max_size_option,
    dump_json,
    err,
    out,
    positive_int,
    print_json,
    read_input,
    refuse_existing,
    refuse_existing_in,
    write_atomic,
)
from por.cli.judge_prereg import add_preregister_parser, add_run_option
from por.cli.judge_routes import add_route_options
from por.cli.judge_sign import add_sign_parser, add_verify_options, check_signature

_EPILOG = f"""\
examples:
  por judge lock fixtures/judges/smollm2-135m.yaml -o smollm2.manifest.cbor
  por judge batch por-demo/*.cbor --judge-config fixtures/judges/por-judge-1.yaml -o out/
  por judge batch por-demo/*.cbor --judge-config fixtures/judges/smollm2-135m.yaml \\
      --serve-local --max-parallel 1 -o judged/
  por judge verify judged/judgement.cbor
  por judge preregister por-demo/*.cbor --judge-config fixtures/judges/por-judge-1.yaml \\
      --run 1 -o run1.prereg.cbor
  por judge sign judged/judgement.cbor --key signer.key --at 1767225600 \\
      -o judged/judgement.sig.cbor
  por judge verify judged/judgement.cbor --signature judged/judgement.sig.cbor \\
      --key signer.key.pub
  por judge replay judged/judgement.cbor --judge-config fixtures/judges/por-judge-1.yaml \\
      -o replayed/

{EXIT_TABLE}"""


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``por judge`` and its subcommands."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "judge", help="locked judges: lock, batch, verify, replay, sign (seed 002)",
        description="Judge PoR bundles with a locked judge and check judgements offline.",
        epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="judge_command", metavar="SUBCOMMAND", required=True)

    lock = sub.add_parser("lock", help="resolve a judge config; print the manifest digest")
    lock.add_argument("config", metavar="CONFIG", help="judge_config.yaml (or .json)")
    lock.add_argument("-o", "--output", help="write the por.JudgeManifest/1 here")
    add_force_option(lock)
    _common(lock)
    lock.set_defaults(run=run_lock)

    batch = sub.add_parser("batch", help="judge PoR bundles; write a judgement directory")
    batch.add_argument("bundles", metavar="BUNDLE", nargs="+", help="PoR bundle files")
    _manifest_options(batch)
    _transport_options(batch)
    batch.add_argument("-o", "--output", required=True, metavar="DIR",
                       help="output directory (judgement.cbor, judge_manifest.json, ...)")
    add_run_option(batch)
    batch.add_argument("--preregistration", metavar="PREREG",
                       help="run under this por.JudgePreregistration/1 (from `por judge "
                            "preregister`, published before the run); refused unless it "
                            "names this judge and these subjects")
    _batch_options(batch)
    batch.set_defaults(run=run_batch_cmd)

    verify = sub.add_parser("verify", help="check a judgement bundle offline")
    verify.add_argument("judgement", metavar="JUDGEMENT", help="judgement.cbor")
    verify.add_argument("--reexecute", action="store_true",
                        help="re-run a bitwise-deterministic judge and compare every answer")
    _transport_options(verify)
    verify.add_argument("--max-parallel", type=positive_int, default=1, metavar="N")
    add_verify_options(verify)
    _common(verify)
    verify.set_defaults(run=run_verify)
    add_sign_parser(sub, _common)
    add_preregister_parser(sub, _common, _manifest_options)

    replay = sub.add_parser("replay", help="re-judge a judgement's subjects; compare")
    replay.add_argument("original", metavar="ORIGINAL", help="the original judgement.cbor")
    _manifest_options(replay)
    replay.add_argument("--subjects", nargs="+", metavar="BUNDLE", default=[],
                        help="the run artefacts; refused if they differ from the original's")
    _transport_options(replay)
    replay.add_argument("-o", "--output", required=True, metavar="DIR")
    replay.add_argument("--reason", help="replay history: why")
    _batch_options(replay)
    replay.set_defaults(run=run_replay)
    return parser


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    add_max_size_option(parser, "inputs", default=DOCUMENT_MAX_SIZE)
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show tracebacks of internal errors")


def _manifest_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--judge-config", metavar="CONFIG", help="judge_config.yaml to lock")
    parser.add_argument("--manifest", metavar="MANIFEST", help="a locked por.JudgeManifest/1")


def _transport_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--serve-local", action="store_true",
                       help="start the manifest's local model on 127.0.0.1 (por[llm-local])")
    group.add_argument("--api-base", metavar="URL",
                       help="the provider's API (http or https; the lock's profile says which "
                            "API it speaks)")
    group.add_argument("--replay-from", metavar="JUDGEMENT",
                       help="answer from a judgement's recorded transcripts (no model)")
    add_route_options(parser)


def _batch_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-parallel", type=positive_int, default=1, metavar="N",
                        help="subjects in flight at once (default 1)")
    parser.add_argument("--at", type=int, metavar="UNIX",
                        help="created_at for judge_manifest.json (default: omitted)")
    parser.add_argument("--operator", help="operator name for judge_manifest.json")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    add_force_option(parser)
    _common(parser)


def run_lock(args: argparse.Namespace) -> int:
    """``por judge lock``."""
    from por.cli.judge_run import resolve_config

    if args.output:
        refuse_existing([args.output], force=args.force)  # before the config is read
    manifest = resolve_config(args.config)
    data = manifest.to_cbor()
    if args.output:
        write_atomic(args.output, data)
    digest = manifest.digest().hex()
    if args.json:
        print_json({"schema": "por/judge-lock/1", "manifest_digest": digest,
                    "manifest": manifest.to_json_obj() | {"system_prompt": None,
                                                          "template": None},
                    "system_prompt_hash": manifest.system_prompt.hash.hex(),
                    "template_hash": manifest.template.hash.hex(),
                    "output": args.output})
    else:
        out(f"{digest}  {manifest.judge_id} v{manifest.judge_version} "
            f"({manifest.model.version_lock})")
    return EXIT_OK


def _replay_source(args: argparse.Namespace) -> Any:
    if not getattr(args, "replay_from", None):
        return None
    from por.locked_judges import verify_judgement

    return verify_judgement(read_input(args.replay_from, args.max_size), max_size=args.max_size)


def run_batch_cmd(args: argparse.Namespace) -> int:
    """``por judge batch``."""
    from por.cli.judge_run import (
        OUTPUT_FILES,
        load_manifest,
        load_subjects,
        run_batch,
        transport_for,
        write_outputs,
    )

    refuse_existing_in(args.output, OUTPUT_FILES, force=args.force)  # before any judge
    manifest = load_manifest(args)
    subjects, paths = load_subjects(args.bundles, args.max_size)
    err(f"por judge: {len(subjects)} subjects, judge {manifest.judge_id} "
        f"({manifest.model.version_lock}), mode {manifest.fail_closed_mode}")
    with transport_for(manifest, args, _replay_source(args)) as transport:
        data = run_batch(manifest, subjects, transport, args)
    summary = write_outputs(args.output, data, paths, args)
    return _report(summary, args)


def _report(summary: Any, args: argparse.Namespace) -> int:
    from por.cli.judge_run import summary_json

    report = summary.report
    if args.json:
        print_json(summary_json(summary, getattr(args, "output", None)))
    else:
        out(f"{report.status}: {report.judged_count}/{report.subjects_count} judged, "
            f"{len(report.failed)} failed, {report.calls_count} attempts; judgement "
            f"{summary.judgement_root.hex()}")
    return EXIT_OK


def run_verify(args: argparse.Namespace) -> int:
    """``por judge verify``."""
    from por.locked_judges import verify_judgement

    if getattr(args, "replay_from", None):
        # Replaying a recording re-runs nothing: it would compare the bundle with an
        # operator's transcript, never with the model (issue 25 item 6).
        raise CliError("usage.judge", "--replay-from answers from recorded transcripts, so "
                       "it is no re-execution: --reexecute needs the model (--serve-local "
                       "or --api-base); to compare two recorded judgements use "
                       "`por judge replay`")
    data = read_input(args.judgement, args.max_size)
    summary = verify_judgement(data, max_size=args.max_size)
    checked = check_signature(args, summary)
    signed, status = (None, None) if checked is None else checked
    if args.reexecute:
        _reexecute(summary, args)
    if args.json:
        from por.cli.judge_run import summary_json

        print_json(summary_json(summary, None, reexecuted=bool(args.reexecute))
                   | {"verified": True, "reexecuted": bool(args.reexecute),
                      "signature": signed,
                      "signatures": [] if status is None else [status]})
    else:
        out(f"OK judgement {summary.judgement_root.hex()}: {len(summary.subjects)} subjects, "
            f"{len(summary.votes)} votes, {len(summary.calls)} attempts, judge "
            f"{summary.manifest.judge_id} ({summary.manifest.digest().hex()[:16]})"
            + (" re-executed identically" if args.reexecute else "")
            + ("" if signed is None
               else f"; signed by 0x{signed['signer']} (chain {signed['chain_id']})"))
        out(_claims_line(summary, bool(args.reexecute)))
        if status is not None:
            from por.cli.signature_status import status_line

            out(status_line(status))
    return EXIT_OK


def _claims_line(summary: Any, reexecuted: bool) -> str:
    """What the transcripts claim and what was checked (SPEC §15.11), one line."""
    from por.locked_judges.chain import preregistration_digest
    from por.locked_judges.manifest import DETERMINISTIC_JUDGE

    claims = sorted({c.claim or "none" for c in summary.calls})
    rerun = reexecuted or summary.manifest.parser == DETERMINISTIC_JUDGE
    prereg = summary.preregistration
    return (f"  calls claim {'/'.join(claims)}; checked: "
            + ("re-run" if rerun else "recorded bytes only (not re-obtained)")
            + f"; pre-registration {preregistration_digest(prereg).hex()[:16]} run {prereg.run}")


def _reexecute(summary: Any, args: argparse.Namespace) -> None:
    from por.cli.judge_run import run_batch, transport_for
    from por.locked_judges import verify_judgement
    from por.locked_judges.errors import JudgementError
    from por.locked_judges.reports import compare

    if summary.manifest.determinism != "bitwise":
        raise CliError("usage.judge", "--reexecute needs a bitwise-deterministic manifest")
    args.quiet = True
    args.run_number = summary.preregistration.run  # the same run, re-executed
    args.preregistration = None
    with transport_for(summary.manifest, args) as transport:
        again = verify_judgement(run_batch(summary.manifest, list(summary.subjects),
                                           transport, args))
    comparison = compare(summary, again)
    if comparison.summary.rating_changes or _contents(summary) != _contents(again):
        raise JudgementError("judgement.replay_diverged",
                             "re-execution under the same bitwise lock gave other answers",
                             expected=summary.judgement_root, actual=again.judgement_root)


def _contents(summary: Any) -> list[tuple[bytes, str]]:
    """(subject, answer text) of every vote: what a bitwise lock reproduces (the raw
    envelope carries a random id and a clock)."""
    from por.locked_judges.profiles import profile_of
    from por.locked_judges.render import content_from_response

    profile = profile_of(summary.manifest.model.profile)
    calls = {(c.subject_hash, c.attempt): c for c in summary.calls}
    result = []
    for vote in summary.votes:
        response = calls[(vote.subject_hash, vote.attempt)].response
        text = (content_from_response(response, profile)
                if summary.manifest.parser != "por-judge/1"
                else response.hex())
        result.append((vote.subject_hash, text))
    return result


def run_replay(args: argparse.Namespace) -> int:
    """``por judge replay``: same subjects, new (or same) lock, comparison report."""
    from por.cli.judge_run import (
        JUDGEMENT_FILE,
        OUTPUT_FILES,
        load_manifest,
        load_subjects,
        run_batch,
        transport_for,
        write_outputs,
    )
    from por.locked_judges import verify_judgement
    from por.locked_judges.errors import JudgementError
    from por.locked_judges.reports import compare, comparison_json

    refuse_existing_in(args.output, OUTPUT_FILES, force=args.force)  # before any judge
    original = verify_judgement(read_input(args.original, args.max_size),
                                max_size=args.max_size)
    subjects = list(original.subjects)
    args.run_number = original.preregistration.run  # same run number: a reexecution is
    # byte for byte the original (SPEC §15.11); a judge swap names another panel anyway
    paths: dict[bytes, str] = {}
    if args.subjects:
        given, paths = load_subjects(args.subjects, args.max_size)
        want = sorted(s.bundle_hash for s in subjects)
        got = sorted(s.bundle_hash for s in given)
        if want != got:
            raise JudgementError(
                "judgement.subjects_changed",
                "the run artefacts are not the original judgement's subjects: replay refused "
                "(a changed scenario or target breaks the provenance chain)",
                expected=f"{len(want)} subjects", actual=f"{len(got)} subjects, "
                f"{len(set(got) - set(want))} unknown")
    manifest = load_manifest(args)
    err(f"por judge: replaying {len(subjects)} subjects; original judge "
        f"{original.manifest.judge_id} v{original.manifest.judge_version}, replay judge "
        f"{manifest.judge_id} v{manifest.judge_version}")
    with transport_for(manifest, args, _replay_source(args)) as transport:
        data = run_batch(manifest, subjects, transport, args)
    replay = verify_judgement(data)
    comparison = compare(original, replay)
    history = {"replay_id": None, "replayed_at": args.at, "reason": args.reason,
               "operator": args.operator,
               "rating_changes": comparison.summary.rating_changes}
    document = comparison_json(comparison, original_path=args.original,
                               replay_path=os.path.join(args.output, JUDGEMENT_FILE),
                               original=original, replay=replay, history=history)
    document["replay_history"][0]["replay_id"] = document["replay_id"]
    write_outputs(args.output, data, paths, args, extra={
        "comparison.cbor": comparison.to_cbor(),
        "comparison.json": (dump_json(document) + "\n").encode(),
    }, replay_metadata={"replay_id": document["replay_id"],
                        "original_judgement_id": original.judgement_root.hex(),
                        "original_manifest_digest": original.manifest.digest().hex(),
                        "kind": comparison.kind})
    if args.json:
        print_json(document)
    else:
        summary = comparison.summary
        out(f"{comparison.kind}: {summary.rating_changes}/{summary.total_runs} ratings "
            f"changed ({summary.rating_change_rate_bps} bps); {summary.recommendation}")
    if (comparison.kind == "reexecution" and manifest.determinism == "bitwise"
            and (summary_changed := comparison.summary.rating_changes)):
        raise JudgementError("judgement.replay_diverged",
                             f"{summary_changed} ratings changed under the same bitwise lock")
    return EXIT_OK


__all__ = ["add_parser"]
