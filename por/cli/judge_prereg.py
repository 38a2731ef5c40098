"""``por judge preregister``: commit a run before its first call (SPEC §15.11).

Writes the ``por.JudgePreregistration/1`` of one lock over PoR bundles (its
subjects, sorted as a batch sorts them) and a run number, and prints its
digest: what an operator publishes before ``por judge batch --preregistration``
runs under it.  No model, no network.
"""

from __future__ import annotations

import argparse
from typing import Any

from por.cli.common import (
    EXIT_OK,
    CliError,
    add_force_option,
    out,
    positive_int,
    print_json,
    read_input,
    refuse_existing,
    write_atomic,
)

#: Largest pre-registration file read (15 digests and a root: a few hundred bytes).
MAX_PREREGISTRATION_FILE = 4096


def add_preregister_parser(sub: Any, common: Any, manifest_options: Any) -> None:
    """Register ``por judge preregister``; ``common`` adds --json, --max-size, -v."""
    prereg = sub.add_parser("preregister", help="commit a run's judge and subjects before "
                                                "its first call (SPEC §15.11)")
    prereg.add_argument("bundles", metavar="BUNDLE", nargs="+", help="PoR bundle files")
    manifest_options(prereg)
    add_run_option(prereg)
    prereg.add_argument("-o", "--output", required=True, metavar="PREREG",
                        help="write the por.JudgePreregistration/1 here")
    add_force_option(prereg)
    common(prereg)
    prereg.set_defaults(run=run_preregister)


def add_run_option(parser: argparse.ArgumentParser) -> None:
    """``--run N``: the operator's run number (stored as ``run_number``)."""
    parser.add_argument("--run", dest="run_number", type=positive_int, default=None,
                        metavar="N", help="the run number for these judges and subjects "
                                          "(default 1; a re-run needs the next)")


def run_preregister(args: argparse.Namespace) -> int:
    """``por judge preregister``."""
    from por.cli.judge_run import load_manifest, load_subjects
    from por.judges.batch import order_subjects
    from por.judges.chain import preregister, preregistration_digest

    refuse_existing([args.output], force=args.force)
    manifest = load_manifest(args)
    subjects, _ = load_subjects(args.bundles, args.max_size)
    ordered = order_subjects(subjects)
    record = preregister([manifest], [s.bundle_hash for s in ordered], args.run_number or 1)
    write_atomic(args.output, record.to_cbor())
    digest = preregistration_digest(record).hex()
    if args.json:
        print_json({"schema": "por/judge-preregistration/1", "digest": digest,
                    "run": record.run, "panel": [d.hex() for d in record.panel],
                    "subjects_root": record.subjects_root.hex(),
                    "subjects_count": record.subjects_count, "output": args.output})
    else:
        out(f"{digest}  run {record.run}, {record.subjects_count} subjects, judge "
            f"{manifest.judge_id} -> {args.output}")
    return EXIT_OK


def load_preregistration(args: argparse.Namespace) -> Any:
    """``--preregistration FILE`` as a record (None without it); with ``--run`` too:
    ``usage.judge`` (the file names its run)."""
    from por.judges.records import JudgePreregistration

    path = getattr(args, "preregistration", None)
    if path is None:
        return None
    if getattr(args, "run_number", None) is not None:
        raise CliError("usage.judge", "--preregistration names its run: do not give --run")
    return JudgePreregistration.from_cbor(read_input(path, MAX_PREREGISTRATION_FILE))


__all__ = ["add_preregister_parser", "add_run_option", "load_preregistration",
           "run_preregister"]
