"""Options shared by the signing commands, and the one place the CLI reads the clock.

``por build --key`` and ``por sign`` take the same options (SPEC §8.1-8.2):
the private key file, the EIP-712 domain (``--chain-id``, ``--contract``) and
the signed validity period and nonce (``--now``, ``--ttl``, ``--nonce``).
``por verify`` and ``por attestation`` take ``--now`` too.  This module turns
those options into values: :func:`signing_params` and :func:`sign_data`.

Defaults: chain id 1 (Ethereum mainnet), verifying contract 20 zero bytes
("unbound": a contract that checks ``verifyingContract == address(this)``
rejects it, so pass ``--contract`` for a real deployment), ``issued_at`` =
``--now`` or the wall clock, ``expires_at`` = ``issued_at`` + 7 days, nonce 0.

DESIGN §4/§5: the core never reads the clock; :func:`wall_clock` here is the
only ``time.time()`` of por.  Only argparse and the standard library are
imported at module level (fast ``--help``); keys and the protocol are
imported when a command runs.
"""

from __future__ import annotations

import argparse
import re
import time
from typing import TYPE_CHECKING, Any, NamedTuple

from por.cli.common import CliError

if TYPE_CHECKING:
    from por.signing import Eip712Domain, PrivateKey, VerdictSignature

#: SPEC §8.1: every integer member is a uint64 (chain id limited likewise, §8.2).
UINT64_MAX = 2**64 - 1
#: ``--chain-id`` default: Ethereum mainnet.
DEFAULT_CHAIN_ID = 1
#: ``--contract`` default: 20 zero bytes, "unbound" (no contract accepts it as itself).
UNBOUND_CONTRACT = bytes(20)
#: ``--ttl`` default: the signature is valid for 7 days from ``issued_at``.
DEFAULT_TTL = 7 * 24 * 60 * 60

_ADDRESS = re.compile(r"0x[0-9a-fA-F]{40}")

#: The help lines every signing command's epilog shows.
SIGNING_HELP = f"""\
signing (SPEC §8):
  --key KEY        private key file from `por keygen` (mode 0600 or stricter)
  --chain-id N     EIP-712 domain chainId (default {DEFAULT_CHAIN_ID}, Ethereum mainnet)
  --contract ADDR  EIP-712 verifyingContract, 0x + 40 hex digits (default
                   0x0000000000000000000000000000000000000000: "unbound", no
                   contract accepts it as itself; give your contract's address)
  --now UNIX       issued_at, Unix seconds (default: the wall clock)
  --ttl SECONDS    expires_at = issued_at + SECONDS (default {DEFAULT_TTL}, 7 days)
  --nonce N        the signed nonce: the market's proposal round on the
                   registry (default 0, its first verdict; k after k struck
                   verdicts, SPEC §14.7)"""


def uint64(text: str) -> int:
    """argparse type: a decimal integer in 0..2^64-1."""
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 0 <= value <= UINT64_MAX:
        raise argparse.ArgumentTypeError(f"must be in 0..2^64-1: {text!r}")
    return value


def positive_uint64(text: str) -> int:
    """argparse type: a decimal integer in 1..2^64-1."""
    value = uint64(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value


def contract_address(text: str) -> bytes:
    """argparse type: ``0x`` and 40 hex digits -> 20 bytes.

    All lower or all upper case is taken as is; mixed case must carry a valid
    EIP-55 checksum, so a mistyped checksummed address is refused.
    """
    if not _ADDRESS.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"an address is 0x followed by 40 hex digits: {text!r}")
    digits = text[2:]
    if digits not in (digits.lower(), digits.upper()) and checksum_address(
            bytes.fromhex(digits))[2:] != digits:
        raise argparse.ArgumentTypeError(f"bad EIP-55 checksum (mixed case): {text!r}")
    return bytes.fromhex(digits)


def hash32(text: str) -> bytes:
    """argparse type: 64 hex digits (``0x`` optional) -> 32 bytes (a PromptSpec hash)."""
    digits = text[2:] if text.startswith("0x") else text
    if len(digits) != 64 or any(c not in "0123456789abcdefABCDEF" for c in digits):
        raise argparse.ArgumentTypeError(f"a hash is 64 hex digits: {text!r}")
    return bytes.fromhex(digits)


def checksum_address(address: bytes) -> str:
    """EIP-55 mixed-case form of a 20-byte address (``por.signing.display``)."""
    from por.signing.display import checksum_address as eip55

    return eip55(address)


def add_now_option(parser: argparse._ActionsContainer, help_text: str) -> None:
    """``--now UNIX`` (default ``None``: the wall clock when the command runs).
    ``parser`` is a parser or an argument group."""
    parser.add_argument("--now", type=uint64, default=None, metavar="UNIX", help=help_text)


def add_signing_options(parser: argparse.ArgumentParser, *, key_required: bool) -> None:
    """``--key``, ``--chain-id``, ``--contract``, ``--now``, ``--ttl``, ``--nonce``."""
    parser.add_argument("--key", required=key_required, default=None, metavar="KEY",
                        help="sign with this private key file (from `por keygen`)")
    parser.add_argument("--chain-id", type=uint64, default=DEFAULT_CHAIN_ID, metavar="N",
                        help=f"EIP-712 chainId (default {DEFAULT_CHAIN_ID})")
    parser.add_argument("--contract", type=contract_address, default=UNBOUND_CONTRACT,
                        metavar="ADDR",
                        help="EIP-712 verifyingContract, 0x + 40 hex (default: unbound, "
                             "20 zero bytes)")
    add_now_option(parser, "issued_at in Unix seconds (default: the wall clock)")
    parser.add_argument("--ttl", type=positive_uint64, default=DEFAULT_TTL, metavar="SECONDS",
                        help=f"validity: expires_at = issued_at + SECONDS (default "
                             f"{DEFAULT_TTL}, 7 days)")
    parser.add_argument("--nonce", type=uint64, default=0, metavar="N",
                        help="the signed nonce: the market's proposal round on the "
                             "registry (default 0)")


def wall_clock() -> int:
    """The current Unix time in whole seconds: the only clock read in por."""
    return int(time.time())


def now_from_args(args: argparse.Namespace) -> int:
    """``--now`` if given, else the wall clock."""
    return wall_clock() if args.now is None else int(args.now)


class SigningParams(NamedTuple):
    """What ``sign_bundle`` needs besides the key and the bundle.

    A ``NamedTuple``, not a dataclass: ``dataclasses`` imports ``inspect`` and
    ``ast`` (~5 ms), and ``por verify`` imports this module to parse ``--now``
    (issue 16)."""

    domain: Eip712Domain
    issued_at: int
    expires_at: int
    nonce: int


def signing_params(args: argparse.Namespace) -> SigningParams:
    """The domain and the signed period from the options; ``usage.options``
    (exit 2) if ``issued_at + ttl`` does not fit a uint64."""
    from por.signing import Eip712Domain

    issued_at = now_from_args(args)
    expires_at = issued_at + args.ttl
    if expires_at > UINT64_MAX:
        raise CliError("usage.options", f"--now {issued_at} plus --ttl {args.ttl} is past "
                                        "2^64-1 (expires_at is a uint64)")
    domain = Eip712Domain(chain_id=args.chain_id, verifying_contract=args.contract)
    return SigningParams(domain=domain, issued_at=issued_at, expires_at=expires_at,
                         nonce=args.nonce)


def load_signing_key(path: str) -> PrivateKey:
    """The private key in ``path``; ``key.*`` errors (exit 2) as one line."""
    from por.signing.keyfiles import load_private_key_file

    if path == "-":
        raise CliError("usage.options", "--key takes a file, not standard input")
    return load_private_key_file(path)


def sign_data(data: bytes, key: PrivateKey,
              params: SigningParams) -> tuple[bytes, VerdictSignature, int]:
    """``data`` with one more signature, that signature's record, and the
    number of signatures the result carries."""
    from por.bundle import Bundle, sign_bundle
    from por.signing import VerdictSignature

    signed = sign_bundle(data, key, params.domain, issued_at=params.issued_at,
                         expires_at=params.expires_at, nonce=params.nonce)
    before = set(Bundle.from_cbor(data).signatures)
    signatures = Bundle.from_cbor(signed).signatures
    # Signatures are kept in signer order (SPEC §17): find the one just added.
    added = next(blob for blob in signatures if blob not in before)
    return signed, VerdictSignature.from_cbor(added), len(signatures)


def without_signer(data: bytes, key: PrivateKey) -> tuple[bytes, VerdictSignature | None]:
    """``data`` without the signature ``key`` made, and that signature (``None``
    and ``data`` itself when ``key`` has not signed): a bundle holds one signature
    per signer (SPEC §8.10, §17.4), so signing again replaces it."""
    from por.bundle import Bundle
    from por.signing import VerdictSignature
    from por.signing.keys import public_key_from_private_key

    signer = public_key_from_private_key(key).signer
    bundle = Bundle.from_cbor(data)
    for blob in bundle.signatures:
        record = VerdictSignature.from_cbor(blob)
        if record.signer == signer:
            kept = [other for other in bundle.signatures if other != blob]
            return bundle.model_copy(update={"signatures": kept}).to_cbor(), record
    return data, None


def signature_summary(record: VerdictSignature, count: int) -> dict[str, Any]:
    """The JSON view of a signature just made (hex without ``0x``, as in key files;
    uint64 values as decimal strings, as ``attestation`` writes them: JavaScript
    numbers lose precision above 2^53, SPEC §8.8)."""
    return {
        "scheme": record.scheme,
        "signer_hex": record.signer.hex(),
        "chain_id": str(record.chain_id),
        "verifying_contract_hex": record.verifying_contract.hex(),
        "unbound": record.verifying_contract == UNBOUND_CONTRACT,
        "issued_at": str(record.issued_at),
        "expires_at": str(record.expires_at),
        "nonce": str(record.nonce),
        "signature_count": count,
    }


def signature_line(record: VerdictSignature) -> str:
    """One readable line about a signature just made."""
    from por.signing.display import signer_text

    contract = ("unbound" if record.verifying_contract == UNBOUND_CONTRACT
                else checksum_address(record.verifying_contract))
    return (f"signed by {signer_text(record.scheme, record.signer)} ({record.scheme}), "
            f"chain {record.chain_id}, "
            f"contract {contract}, valid {record.issued_at}..{record.expires_at}, "
            f"nonce {record.nonce}")


__all__ = [
    "DEFAULT_CHAIN_ID",
    "DEFAULT_TTL",
    "SIGNING_HELP",
    "UINT64_MAX",
    "UNBOUND_CONTRACT",
    "SigningParams",
    "add_now_option",
    "add_signing_options",
    "checksum_address",
    "contract_address",
    "load_signing_key",
    "now_from_args",
    "positive_uint64",
    "sign_data",
    "signature_line",
    "signature_summary",
    "signing_params",
    "uint64",
    "wall_clock",
    "without_signer",
]
