"""Signing keys and their file formats (SPEC §8.7), as bytes in and bytes out.

A private key file is a small JSON object::

    {"schema": "por.PrivateKey/1", "scheme": "secp256k1", "private_key_hex": "<64 hex>"}

and its public twin (``KEY.pub``)::

    {"schema": "por.PublicKey/1", "scheme": "secp256k1",
     "public_key_hex": "<66 hex: compressed SEC 1>", "address_hex": "<40 hex>",
     "address": "0x<EIP-55>"}

(``address_hex`` and ``address``, the same address as wallets show it, only for
secp256k1; ``address`` is optional when read; an Ed25519 public key is 64 hex.)  Hex is
lower case; an optional ``comment`` text is allowed and ignored.  Parsing is
strict: unknown or duplicate members, wrong types or lengths are ``key.format``;
an unknown or unexpected scheme is ``key.scheme``.

:func:`generate_key` is the only place in por that uses randomness; its output
is never committed.  Paths, permissions and writing live in ``keyfiles``.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from typing import Any, Literal, cast, get_args

from por.errors import KeyFileError
from por.jsontext import JsonTextError, loads_strict
from por.signing import ed25519, secp256k1
from por.signing.checks import CHECK_KEY_FORMAT, CHECK_KEY_SCHEME
from por.signing.display import checksum_address

KeyScheme = Literal["secp256k1", "ed25519"]
KEY_SCHEMES: tuple[str, ...] = get_args(KeyScheme)

PRIVATE_KEY_SCHEMA = "por.PrivateKey/1"
PUBLIC_KEY_SCHEMA = "por.PublicKey/1"

#: Largest key file accepted (bytes); a real one is under 300.
MAX_KEY_FILE_SIZE = 4096

_HEX = re.compile(r"(?:[0-9a-f]{2})*")


@dataclass(frozen=True, repr=False)
class PrivateKey:
    """A private key: a secp256k1 scalar or an Ed25519 seed, 32 bytes."""

    scheme: KeyScheme
    secret: bytes

    def __post_init__(self) -> None:
        if self.scheme not in KEY_SCHEMES:
            raise KeyFileError(CHECK_KEY_SCHEME, f"unknown key scheme {self.scheme!r}")
        if type(self.secret) is not bytes or len(self.secret) != 32:
            raise KeyFileError(CHECK_KEY_FORMAT, "a private key is 32 bytes")
        if self.scheme == "secp256k1" and not secp256k1.valid_secret(self.secret):
            raise KeyFileError(CHECK_KEY_FORMAT, "a secp256k1 private key must be in 1..n-1")

    def __repr__(self) -> str:
        # Never print secret material (logs, tracebacks, pytest output).
        return f"PrivateKey(scheme={self.scheme!r}, secret=<redacted>)"


@dataclass(frozen=True)
class PublicKey:
    """A public key: 33-byte compressed secp256k1 point or 32-byte Ed25519 key."""

    scheme: KeyScheme
    public_key: bytes

    def __post_init__(self) -> None:
        if self.scheme not in KEY_SCHEMES:
            raise KeyFileError(CHECK_KEY_SCHEME, f"unknown key scheme {self.scheme!r}")
        size = 33 if self.scheme == "secp256k1" else ed25519.PUBLIC_KEY_SIZE
        if type(self.public_key) is not bytes or len(self.public_key) != size:
            raise KeyFileError(CHECK_KEY_FORMAT, f"a {self.scheme} public key is {size} bytes")
        if self.scheme == "secp256k1":
            try:
                secp256k1.address_from_public_key(self.public_key)
            except ValueError:
                raise KeyFileError(CHECK_KEY_FORMAT, "not a secp256k1 point") from None

    @property
    def signer(self) -> bytes:
        """The signer id a signature names: the address (secp256k1) or the key."""
        if self.scheme == "secp256k1":
            return secp256k1.address_from_public_key(self.public_key)
        return self.public_key


def generate_key(scheme: KeyScheme) -> PrivateKey:
    """A fresh random private key from the operating system's CSPRNG."""
    if scheme not in KEY_SCHEMES:
        raise KeyFileError(CHECK_KEY_SCHEME, f"unknown key scheme {scheme!r}")
    while True:
        secret = secrets.token_bytes(32)
        # Rejection sampling: out of range with probability about 2^-128.
        if scheme == "ed25519" or secp256k1.valid_secret(secret):
            return PrivateKey(scheme, secret)


def public_key_from_private_key(key: PrivateKey) -> PublicKey:
    """The public key of ``key``."""
    if key.scheme == "secp256k1":
        return PublicKey("secp256k1", secp256k1.public_key_from_secret(key.secret))
    return PublicKey("ed25519", ed25519.public_key_from_seed(key.secret))


def private_key_to_json(key: PrivateKey, *, comment: str | None = None) -> bytes:
    """The private key file's bytes (UTF-8 JSON, one line, newline-terminated)."""
    obj: dict[str, str] = {
        "schema": PRIVATE_KEY_SCHEMA,
        "scheme": key.scheme,
        "private_key_hex": key.secret.hex(),
    }
    if comment is not None:
        obj["comment"] = comment
    return (json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8")


def public_key_to_json(public: PublicKey, *, comment: str | None = None) -> bytes:
    """The public key file's bytes (UTF-8 JSON, one line, newline-terminated)."""
    obj: dict[str, str] = {
        "schema": PUBLIC_KEY_SCHEMA,
        "scheme": public.scheme,
        "public_key_hex": public.public_key.hex(),
    }
    if public.scheme == "secp256k1":
        obj["address_hex"] = public.signer.hex()
        obj["address"] = checksum_address(public.signer)
    if comment is not None:
        obj["comment"] = comment
    return (json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8")


def private_key_from_json(data: bytes, *, expected_scheme: KeyScheme | None = None) -> PrivateKey:
    """Parse a private key file; ``KeyFileError`` (``key.format``/``key.scheme``) otherwise."""
    obj = _load_object(data, PRIVATE_KEY_SCHEMA)
    _members(obj, {"schema", "scheme", "private_key_hex"})
    scheme = _scheme(obj, expected_scheme)
    return PrivateKey(scheme, _hex_member(obj, "private_key_hex", 32))


def public_key_from_json(data: bytes, *, expected_scheme: KeyScheme | None = None) -> PublicKey:
    """Parse a public key file; the address, if present, must match the key."""
    obj = _load_object(data, PUBLIC_KEY_SCHEMA)
    scheme = _scheme(obj, expected_scheme)
    if scheme == "secp256k1":
        shown = obj.pop("address", None)  # optional: files from before issue 26 lack it
        _members(obj, {"schema", "scheme", "public_key_hex", "address_hex"})
        public = PublicKey(scheme, _hex_member(obj, "public_key_hex", 33))
        if _hex_member(obj, "address_hex", 20) != public.signer:
            raise KeyFileError(CHECK_KEY_FORMAT, "address_hex does not match public_key_hex")
        if shown is not None and shown != checksum_address(public.signer):
            raise KeyFileError(CHECK_KEY_FORMAT, "address is not 0x and the EIP-55 form of "
                               "address_hex", expected=checksum_address(public.signer),
                               actual=str(shown)[:64])
        return public
    _members(obj, {"schema", "scheme", "public_key_hex"})
    return PublicKey(scheme, _hex_member(obj, "public_key_hex", ed25519.PUBLIC_KEY_SIZE))


def _load_object(data: bytes, schema: str) -> dict[str, Any]:
    if len(data) > MAX_KEY_FILE_SIZE:
        raise KeyFileError(CHECK_KEY_FORMAT, f"key file is larger than {MAX_KEY_FILE_SIZE} bytes")
    try:
        obj = loads_strict(data.decode("utf-8"), parse_float=_no_float)
    except (UnicodeDecodeError, JsonTextError) as exc:
        raise KeyFileError(CHECK_KEY_FORMAT, f"key file is not valid JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise KeyFileError(CHECK_KEY_FORMAT, "key file is not a JSON object")
    got = obj.get("schema")
    if got != schema:
        what = {PRIVATE_KEY_SCHEMA: "a private key file", PUBLIC_KEY_SCHEMA: "a public key file"}
        hint = f" (this is {what[got]})" if isinstance(got, str) and got in what else ""
        raise KeyFileError(CHECK_KEY_FORMAT, f"expected schema {schema}{hint}",
                           expected=schema, actual=got if isinstance(got, str) else repr(got))
    comment = obj.pop("comment", None)
    if comment is not None and not isinstance(comment, str):
        raise KeyFileError(CHECK_KEY_FORMAT, "comment must be text")
    return obj


def _no_float(text: str) -> Any:
    raise JsonTextError(f"number {text} is not allowed")


def _members(obj: dict[str, Any], required: set[str]) -> None:
    missing = sorted(required - obj.keys())
    extra = sorted(obj.keys() - required)
    if missing or extra:
        raise KeyFileError(CHECK_KEY_FORMAT,
                           f"key file members: missing {missing}, unexpected {extra}")


def _scheme(obj: dict[str, Any], expected: KeyScheme | None) -> KeyScheme:
    scheme = obj.get("scheme")
    if scheme not in KEY_SCHEMES:
        raise KeyFileError(CHECK_KEY_SCHEME, f"unknown key scheme {scheme!r}",
                           expected=" or ".join(KEY_SCHEMES), actual=repr(scheme))
    if expected is not None and scheme != expected:
        raise KeyFileError(CHECK_KEY_SCHEME, f"expected a {expected} key, got {scheme}",
                           expected=expected, actual=scheme)
    return cast(KeyScheme, scheme)


def _hex_member(obj: dict[str, Any], name: str, size: int) -> bytes:
    value = obj.get(name)
    if not isinstance(value, str) or len(value) != 2 * size or not _HEX.fullmatch(value):
        raise KeyFileError(CHECK_KEY_FORMAT, f"{name} must be {2 * size} lower-case hex digits")
    return bytes.fromhex(value)


__all__ = [
    "KEY_SCHEMES",
    "PRIVATE_KEY_SCHEMA",
    "PUBLIC_KEY_SCHEMA",
    "KeyScheme",
    "PrivateKey",
    "PublicKey",
    "generate_key",
    "private_key_from_json",
    "private_key_to_json",
    "public_key_from_json",
    "public_key_from_private_key",
    "public_key_to_json",
]
