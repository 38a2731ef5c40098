"""``por keygen``: create a signing key pair, ``KEY`` (0600) and ``KEY.pub`` (0644).

Calls :func:`por.signing.generate_key` (the operating system's CSPRNG) and
:func:`por.signing.keyfiles.write_key_files`, which creates each file with
``O_CREAT | O_EXCL`` and never overwrites one (``key.exists``, exit 2).
Prints the signer id a verifier trusts: the Ethereum address (secp256k1) or
the public key (Ed25519), lower-case hex as in ``KEY.pub`` (SPEC §8.7).

Leaves out: key formats and file modes (``por.signing.keys``/``keyfiles``),
encrypted keys, key rotation.
"""

from __future__ import annotations

import argparse
from typing import Any

from por.cli.common import STDIN, CliError, out, print_json, safe_text

#: The versioned ``schema`` field of the ``--json`` document.
KEYGEN_SCHEMA = "por/keygen/1"

_EPILOG = """\
files (SPEC §8.7, one line of JSON each):
  KEY       {"schema": "por.PrivateKey/1", "scheme", "private_key_hex"}, mode 0600;
            keep it secret.  Signing refuses a key file that group or others
            can read or write (key.permissions).
  KEY.pub   {"schema": "por.PublicKey/1", "scheme", "public_key_hex"
            [, "address_hex", "address" (0x + EIP-55)]}, mode 0644; give it to verifiers:
            por verify --key KEY.pub --require-signature bundle.cbor
  Neither file is ever overwritten: an existing KEY or KEY.pub (or a symlink
  in its place) is refused with key.exists and nothing is written.

output:
  text     KEY, KEY.pub and the signer id as por verify prints it: the
           Ethereum address (secp256k1, what ecrecover returns) as 0x + EIP-55,
           or the Ed25519 public key as 0x + hex
  --json   one JSON document, schema "por/keygen/1"

examples:
  por keygen -o signer.key
  por keygen --scheme ed25519 -o solana-signer.key
  por keygen --json -o signer.key | jq -r .signer_hex

exit codes:
  0  both files were written
  1  (not used: keygen reads no input that could be rejected)
  2  usage error, KEY or KEY.pub exists (key.exists), cannot create or write
     a file (key.unwritable), internal error"""


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``por keygen`` on the subparsers object."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "keygen",
        help="create a signing key pair (KEY, mode 0600, and KEY.pub)",
        description="Create a new private key for signing verdicts and its public key "
                    "file.  The private key never leaves KEY.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--scheme", choices=("secp256k1", "ed25519"), default="secp256k1",
                        help="secp256k1 (EVM ecrecover; the default) or ed25519")
    parser.add_argument("-o", "--out", required=True, metavar="KEY",
                        help="private key file to create; the public key goes to KEY.pub")
    parser.add_argument("--comment", default=None, metavar="TEXT",
                        help="a comment stored in both files (not secret, ignored when read)")
    parser.add_argument("--json", action="store_true",
                        help=f"print one JSON document ({KEYGEN_SCHEMA})")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show tracebacks of internal errors")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Generate, write both files, print the signer id."""
    from por.signing import generate_key, public_key_from_private_key
    from por.signing.keyfiles import write_key_files

    if args.out == STDIN:
        raise CliError("usage.options", "keygen writes files; -o - (standard output) "
                                        "would print a private key")
    key = generate_key(args.scheme)
    private_path, public_path = write_key_files(args.out, key, comment=args.comment)
    from por.signing.display import signer_text

    signer = public_key_from_private_key(key).signer
    signer_hex = signer.hex()
    if args.json:
        print_json({
            "schema": KEYGEN_SCHEMA,
            "scheme": key.scheme,
            "private_key_file": str(private_path),
            "public_key_file": str(public_path),
            "signer_hex": signer_hex,
        })
        return 0
    kind = "address" if key.scheme == "secp256k1" else "public key"
    out(f"wrote {safe_text(str(private_path))} (private key, mode 0600: keep it secret)")
    out(f"wrote {safe_text(str(public_path))} (public key: por verify --key "
        f"{safe_text(str(public_path))})")
    out(f"signer {signer_text(key.scheme, signer)} ({key.scheme} {kind})")
    return 0


__all__ = ["KEYGEN_SCHEMA", "add_parser", "run"]
