"""``por explain``: why a bundle's verdict is what it is; ``--tree`` shows its shape.

Text: the verdict, the deciding rule with the values compared, the
evaluation variables, every recorded finding (``extract.*``, ``sanity.*``...),
the claims and every step with its citations and output.  ``--tree``: por_root
-> component leaves -> record leaves with short hashes.  ``--json``: one
document, ``por/explain/1`` or ``por/tree/1`` (``por schema explain``,
``por schema tree``).  The logic is ``por.explain``; this module reads the
file and prints.
"""

from __future__ import annotations

import argparse
from typing import Any

from por.cli.bundle_file import open_bundle
from por.cli.common import EXIT_OK, add_max_size_option, out, print_json

_EPILOG = """\
output:
  text     verdict, deciding rule and the values it compared
           (e.g. numeric_value 100412.37 > threshold 100000), evaluation
           variables, findings (extract.*, sanity.*: evidence id, field,
           locator), claims (value, evidence id, locator), every step
  --tree   por_root -> the six component leaves -> record leaves (short hashes);
           --limit N leaves per component (default 20)
  --json   one JSON document: por/explain/1, or por/tree/1 with --tree

explain reads the committed records; it does not verify them (por verify).

examples:
  por explain bundle.cbor
  por explain --tree bundle.cbor
  por explain --json bundle.cbor | jq .decision

exit codes:
  0  explained
  1  the bundle does not decode or a record is not valid
  2  usage error, unreadable file, internal error"""


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``por explain`` on the subparsers object."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "explain",
        help="explain a bundle's verdict step by step (--tree: its Merkle shape)",
        description="Show why a bundle's verdict is what it is: each step's inputs and "
                    "output, the claims, the evaluation variables and the rule that "
                    "decided, with the values compared.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("bundle", metavar="BUNDLE", help="bundle.cbor; - reads standard input")
    parser.add_argument("--tree", action="store_true",
                        help="show the tree: por_root, component leaves, record leaves")
    parser.add_argument("--limit", type=int, default=20, metavar="N",
                        help="with --tree: leaves shown per component (default 20)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON document (por/explain/1 or por/tree/1)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show tracebacks of internal errors")
    add_max_size_option(parser, "bundles")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Read the bundle, explain it, print."""
    from por.cli.common import CliError
    from por.explain import bundle_tree, explain_bundle, text_lines, tree_lines

    if args.limit < 0:
        raise CliError("usage.limit", "--limit must be at least 0")
    data = open_bundle(args.bundle, args.max_size).data
    if args.tree:
        doc = bundle_tree(data, max_size=args.max_size, limit=args.limit)
        lines = tree_lines(doc)
    else:
        doc = explain_bundle(data, max_size=args.max_size)
        lines = text_lines(doc)
    if args.json:
        print_json({**doc, "input": args.bundle})
        return EXIT_OK
    for line in lines:
        out(line)
    return EXIT_OK


__all__ = ["add_parser", "run"]
