"""``por sign``: verify a bundle, then append one signature over its verdict.

The bundle is checked first with ``verifier.check_bundle`` (every signature
already in it is checked at ``issued_at``); anything but ``verified`` stops
the command with the failing check id and nothing is written, so ``por sign``
never vouches for a bundle that does not replay.  Then
``por.bundle.sign_bundle`` signs the EIP-712 digest of the committed verdict
(SPEC §8) and the result is written atomically.

Leaves out: the signature format and checks (``por.signing``), options and
defaults shared with ``por build --key`` (``por.cli.signing_args``).
"""

from __future__ import annotations

import argparse
from typing import Any

from por.cli.bundle_file import open_bundle, require_verified
from por.cli.common import (
    STDIN,
    CliError,
    add_force_option,
    add_max_size_option,
    err,
    out,
    print_json,
    refuse_existing,
    safe_text,
    write_atomic,
    write_binary_stdout,
)
from por.cli.signing_args import SIGNING_HELP, add_signing_options, without_signer

#: The versioned ``schema`` field of the ``--json`` document.
SIGN_SCHEMA = "por/sign-report/1"

_EPILOG = f"""\
{SIGNING_HELP}

The bundle is verified before it is signed (as `por verify --now UNIX`,
trusting no key); a bundle that does not verify is not signed and OUT is not
written.  OUT may be BUNDLE itself: it is replaced atomically.  Existing
signatures are kept; the new one is added.  A bundle holds one signature per
signer: if KEY signed it already (say for another chain), the command refuses
(usage.already_signed, exit 2) unless --replace, which replaces that signature.

output:
  text     signed OUT: <n> signature(s); signed by <signer hex> (<scheme>),
           chain <id>, contract <0x... | unbound>, valid <issued>..<expires>,
           nonce <n>
  -o -     the bundle on standard output, the text on standard error
  --json   one JSON document, schema "por/sign-report/1"

examples:
  por sign bundle.cbor --key signer.key -o signed.cbor
  por sign bundle.cbor --key signer.key --chain-id 8453 \\
      --contract 0x5FbDB2315678afecb367f032d93F642f64180aa3 --ttl 3600 -o signed.cbor
  por verify --key signer.key.pub --require-signature signed.cbor

exit codes:
  0  the bundle verified and the signed bundle was written
  1  the bundle is not valid (the failing check id is printed); not signed
  2  usage error, unreadable bundle, key file error (key.*), unsupported
     version, unwritable output, internal error"""


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``por sign`` on the subparsers object."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "sign",
        help="verify a bundle and add a signature over its verdict (EIP-712)",
        description="Verify BUNDLE, then sign the EIP-712 digest of its committed verdict "
                    "with KEY and write the bundle with the signature appended.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("bundle", metavar="BUNDLE", help="bundle.cbor; - reads standard input")
    add_signing_options(parser, key_required=True)
    parser.add_argument("-o", "--out", required=True, metavar="OUT",
                        help="where to write the signed bundle (- for standard output)")
    parser.add_argument("--replace", action="store_true",
                        help="replace the signature KEY made earlier (one per signer; "
                             "default: refuse, usage.already_signed, exit 2)")
    parser.add_argument("--json", action="store_true",
                        help=f"print one JSON document ({SIGN_SCHEMA})")
    add_max_size_option(parser, "bundles")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show tracebacks of internal errors")
    add_force_option(parser)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Load the key, verify, sign, write, print."""
    from por.cli.signing_args import (
        load_signing_key,
        sign_data,
        signature_line,
        signature_summary,
        signing_params,
    )

    if args.json and args.out == STDIN:
        raise CliError("usage.options", "--json and -o - both need standard output")
    refuse_existing([args.out], force=args.force)
    key = load_signing_key(args.key)
    params = signing_params(args)
    bundle = open_bundle(args.bundle, args.max_size)
    require_verified(bundle, now=params.issued_at)
    data, earlier = without_signer(bundle.data, key)
    if earlier is not None and not args.replace:
        raise CliError("usage.already_signed", f"{safe_text(args.bundle)}: this key "
                       f"already {signature_line(earlier)}; a bundle holds one signature "
                       "per signer (SPEC §8.10): --replace replaces it, or sign with "
                       "another key; nothing was written")
    signed, record, count = sign_data(data, key, params)
    if earlier is not None:
        err(f"replaced the signature this key made earlier: {signature_line(earlier)}")
    if args.out == STDIN:
        write_binary_stdout(signed)
    else:
        write_atomic(args.out, signed)
    if args.json:
        print_json({"schema": SIGN_SCHEMA, "input": args.bundle, "output": args.out,
                    "size": len(signed), **signature_summary(record, count),
                    "replaced": earlier is not None})
        return 0
    line = (f"signed {safe_text(args.out)}: {count} signature{'s' if count != 1 else ''}; "
            f"{signature_line(record)}")
    if args.out == STDIN:
        err(line)
    else:
        out(line)
    return 0


__all__ = ["SIGN_SCHEMA", "add_parser", "run"]
