"""Keys and key files (SPEC §8.7): formats, permissions, clear errors."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from signing_support import TEST_ONLY_ED25519, TEST_ONLY_SECP256K1

from por.errors import KeyFileError
from por.signing.display import checksum_address
from por.signing.keyfiles import (
    load_private_key_file,
    load_public_key_file,
    public_key_path,
    write_key_files,
)
from por.signing.keys import (
    KeyScheme,
    PrivateKey,
    PublicKey,
    generate_key,
    private_key_from_json,
    private_key_to_json,
    public_key_from_json,
    public_key_from_private_key,
    public_key_to_json,
)
from por.signing.secp256k1 import N

SCHEMES: list[KeyScheme] = ["secp256k1", "ed25519"]


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _fail(check_id: str, data: bytes, *, public: bool = False, **kw: object) -> str:
    parse = public_key_from_json if public else private_key_from_json
    with pytest.raises(KeyFileError) as info:
        parse(data, **kw)  # type: ignore[arg-type]
    assert info.value.check_id == check_id
    return info.value.message


@pytest.mark.parametrize("scheme", SCHEMES)
def test_generate_and_round_trip(scheme: KeyScheme) -> None:
    key = generate_key(scheme)
    assert key.scheme == scheme and len(key.secret) == 32
    assert generate_key(scheme) != key  # fresh randomness each time
    assert private_key_from_json(private_key_to_json(key)) == key
    public = public_key_from_private_key(key)
    assert public_key_from_json(public_key_to_json(public)) == public
    assert len(public.signer) == (20 if scheme == "secp256k1" else 32)


def test_private_key_repr_hides_the_secret() -> None:
    text = repr(TEST_ONLY_SECP256K1) + str(TEST_ONLY_SECP256K1)
    assert TEST_ONLY_SECP256K1.secret.hex() not in text and "redacted" in text


def test_file_formats_are_as_documented() -> None:
    priv = json.loads(private_key_to_json(TEST_ONLY_SECP256K1))
    assert priv == {"schema": "por.PrivateKey/1", "scheme": "secp256k1",
                    "private_key_hex": TEST_ONLY_SECP256K1.secret.hex()}
    public = public_key_from_private_key(TEST_ONLY_SECP256K1)
    pub = json.loads(public_key_to_json(public))
    assert set(pub) == {"schema", "scheme", "public_key_hex", "address_hex", "address"}
    assert len(pub["public_key_hex"]) == 66 and pub["address_hex"] == public.signer.hex()
    # Issue 26: the address as wallets show it, 0x and EIP-55, beside address_hex.
    assert pub["address"] == checksum_address(public.signer)
    assert pub["address"].startswith("0x") and pub["address"] != "0x" + pub["address_hex"]
    ed_pub = json.loads(public_key_to_json(public_key_from_private_key(TEST_ONLY_ED25519)))
    assert set(ed_pub) == {"schema", "scheme", "public_key_hex"}


@pytest.mark.parametrize("scheme", SCHEMES)
def test_write_and_load_key_files(tmp_path: Path, scheme: KeyScheme) -> None:
    key = generate_key(scheme)
    private_path, public_path = write_key_files(tmp_path / "k", key)
    assert public_path == public_key_path(private_path) == tmp_path / "k.pub"
    assert _mode(private_path) == 0o600 and _mode(public_path) == 0o644
    assert load_private_key_file(private_path) == key
    assert load_private_key_file(private_path, expected_scheme=scheme) == key
    assert load_public_key_file(public_path) == public_key_from_private_key(key)


def test_write_sets_modes_exactly_under_any_umask(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        private_path, public_path = write_key_files(tmp_path / "k", TEST_ONLY_ED25519)
    finally:
        os.umask(old)
    assert _mode(private_path) == 0o600 and _mode(public_path) == 0o644


def test_write_refuses_to_overwrite(tmp_path: Path) -> None:
    (tmp_path / "k").write_text("keep me")
    with pytest.raises(KeyFileError) as info:
        write_key_files(tmp_path / "k", TEST_ONLY_ED25519)
    assert info.value.check_id == "key.exists"
    assert (tmp_path / "k").read_text() == "keep me"


def test_write_refuses_existing_pub_and_leaves_no_private_key(tmp_path: Path) -> None:
    (tmp_path / "k.pub").write_text("keep me")
    with pytest.raises(KeyFileError) as info:
        write_key_files(tmp_path / "k", TEST_ONLY_ED25519)
    assert info.value.check_id == "key.exists"
    assert not (tmp_path / "k").exists()
    assert (tmp_path / "k.pub").read_text() == "keep me"


def test_write_does_not_follow_a_planted_symlink(tmp_path: Path) -> None:
    target = tmp_path / "target"
    (tmp_path / "k").symlink_to(target)
    with pytest.raises(KeyFileError) as info:
        write_key_files(tmp_path / "k", TEST_ONLY_ED25519)
    assert info.value.check_id == "key.exists"
    assert not target.exists()


def test_write_into_missing_directory_is_unwritable(tmp_path: Path) -> None:
    with pytest.raises(KeyFileError) as info:
        write_key_files(tmp_path / "missing" / "k", TEST_ONLY_ED25519)
    assert info.value.check_id == "key.unwritable"


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660, 0o602])
def test_private_key_readable_by_others_is_refused(tmp_path: Path, mode: int) -> None:
    private_path, _ = write_key_files(tmp_path / "k", TEST_ONLY_SECP256K1)
    private_path.chmod(mode)
    with pytest.raises(KeyFileError) as info:
        load_private_key_file(private_path)
    assert info.value.check_id == "key.permissions"
    assert "chmod 600" in info.value.message and info.value.actual == oct(mode)


@pytest.mark.parametrize("mode", [0o600, 0o400])
def test_owner_only_modes_are_accepted(tmp_path: Path, mode: int) -> None:
    private_path, _ = write_key_files(tmp_path / "k", TEST_ONLY_SECP256K1)
    private_path.chmod(mode)
    assert load_private_key_file(private_path) == TEST_ONLY_SECP256K1


def test_public_key_file_may_be_world_readable(tmp_path: Path) -> None:
    _, public_path = write_key_files(tmp_path / "k", TEST_ONLY_SECP256K1)
    assert load_public_key_file(public_path).signer == (
        public_key_from_private_key(TEST_ONLY_SECP256K1).signer
    )


def test_unreadable_paths(tmp_path: Path) -> None:
    for path in (tmp_path / "missing", tmp_path):
        with pytest.raises(KeyFileError) as info:
            load_private_key_file(path)
        assert info.value.check_id == "key.unreadable"


def test_pub_passed_as_private_key(tmp_path: Path) -> None:
    _, public_path = write_key_files(tmp_path / "k", TEST_ONLY_SECP256K1)
    public_path.chmod(0o600)
    with pytest.raises(KeyFileError) as info:
        load_private_key_file(public_path)
    assert info.value.check_id == "key.format"
    assert "public key file" in info.value.message


def test_private_key_passed_as_pub() -> None:
    message = _fail("key.format", private_key_to_json(TEST_ONLY_SECP256K1), public=True)
    assert "private key file" in message


def test_garbage_file_is_key_format(tmp_path: Path) -> None:
    path = tmp_path / "k"
    path.write_bytes(b"\x00\xffnot json")
    path.chmod(0o600)
    with pytest.raises(KeyFileError) as info:
        load_private_key_file(path)
    assert info.value.check_id == "key.format"


def test_oversized_file_is_key_format(tmp_path: Path) -> None:
    path = tmp_path / "k"
    path.write_bytes(b" " * 5000)
    path.chmod(0o600)
    with pytest.raises(KeyFileError) as info:
        load_private_key_file(path)
    assert info.value.check_id == "key.format"


_GOOD = {"schema": "por.PrivateKey/1", "scheme": "secp256k1",
         "private_key_hex": TEST_ONLY_SECP256K1.secret.hex()}


def _j(obj: object) -> bytes:
    return json.dumps(obj).encode()


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"[]",
        b'"key"',
        _j({k: v for k, v in _GOOD.items() if k != "private_key_hex"}),
        _j({**_GOOD, "extra": 1}),
        _j({**_GOOD, "schema": "por.PrivateKey/2"}),
        _j({**_GOOD, "private_key_hex": _GOOD["private_key_hex"].upper()}),
        _j({**_GOOD, "private_key_hex": _GOOD["private_key_hex"][:-2]}),
        _j({**_GOOD, "private_key_hex": "0x" + _GOOD["private_key_hex"][2:]}),
        _j({**_GOOD, "private_key_hex": 1}),
        _j({**_GOOD, "private_key_hex": "00" * 32}),
        _j({**_GOOD, "private_key_hex": N.to_bytes(32, "big").hex()}),
        _j({**_GOOD, "comment": 5}),
        b'{"schema": "por.PrivateKey/1", "schema": "por.PrivateKey/1", "scheme": "ed25519",'
        b' "private_key_hex": "' + b"11" * 32 + b'"}',
        b'{"schema": "por.PrivateKey/1", "scheme": "ed25519", "private_key_hex": 1.5}',
        b'{"schema": "por.PrivateKey/1", "scheme": "ed25519", "private_key_hex": NaN}',
    ],
)
def test_malformed_private_key_is_key_format(data: bytes) -> None:
    _fail("key.format", data)


@pytest.mark.parametrize("scheme", ["rsa", "SECP256K1", 1, None])
def test_unknown_scheme_is_key_scheme(scheme: object) -> None:
    _fail("key.scheme", _j({**_GOOD, "scheme": scheme}))


def test_unexpected_scheme_is_key_scheme() -> None:
    data = private_key_to_json(TEST_ONLY_ED25519)
    _fail("key.scheme", data, expected_scheme="secp256k1")
    pub = public_key_to_json(public_key_from_private_key(TEST_ONLY_ED25519))
    _fail("key.scheme", pub, public=True, expected_scheme="secp256k1")


def test_public_key_with_wrong_address_is_key_format() -> None:
    public = public_key_from_private_key(TEST_ONLY_SECP256K1)
    obj = json.loads(public_key_to_json(public))
    obj["address_hex"] = "00" * 20
    _fail("key.format", _j(obj), public=True)
    obj = json.loads(public_key_to_json(public))
    obj["public_key_hex"] = "02" + "00" * 32  # x = 0 is not on the curve
    _fail("key.format", _j(obj), public=True)
    del obj["address_hex"]
    _fail("key.format", _j(obj), public=True)


def test_public_key_address_is_optional_and_checked() -> None:
    """``address`` (0x + EIP-55) is written since issue 26; a file without it (an
    older keygen's) still loads; one that differs, even only in case, is refused."""
    public = public_key_from_private_key(TEST_ONLY_SECP256K1)
    obj = json.loads(public_key_to_json(public))
    assert public_key_from_json(_j(obj)) == public
    del obj["address"]
    assert public_key_from_json(_j(obj)) == public
    for wrong in ("0x" + public.signer.hex(), checksum_address(public.signer)[2:],
                  checksum_address(b"\x01" * 20), 7):
        obj["address"] = wrong
        _fail("key.format", _j(obj), public=True)


def test_comment_is_allowed_and_ignored() -> None:
    data = private_key_to_json(TEST_ONLY_ED25519, comment="TEST-ONLY")
    assert json.loads(data)["comment"] == "TEST-ONLY"
    assert private_key_from_json(data) == TEST_ONLY_ED25519


def test_key_values_validate() -> None:
    with pytest.raises(KeyFileError) as info:
        PrivateKey("ed25519", bytes(31))
    assert info.value.check_id == "key.format"
    with pytest.raises(KeyFileError) as info:
        PublicKey("ed25519", bytes(33))
    assert info.value.check_id == "key.format"
    with pytest.raises(KeyFileError) as info:
        generate_key("rsa")  # type: ignore[arg-type]
    assert info.value.check_id == "key.scheme"
