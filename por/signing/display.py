"""How signer ids and addresses are shown to people.

Ethereum addresses (secp256k1 signers, verifying contracts) print as ``0x`` and
their EIP-55 mixed-case checksum form, as wallets and explorers show them, so a
user can paste them; Ed25519 signers (32-byte public keys) print as ``0x`` and
lower-case hex.  Display only: nothing here is compared or hashed.
"""

from __future__ import annotations

from por.signing.eip712 import keccak256


def checksum_address(address: bytes) -> str:
    """EIP-55 mixed-case form of a 20-byte address: a hex letter is upper
    case iff the matching nibble of keccak256(lower-case hex) is >= 8."""
    digits = address.hex()
    hashed = keccak256(digits.encode("ascii")).hex()
    return "0x" + "".join(c.upper() if int(h, 16) >= 8 else c
                          for c, h in zip(digits, hashed[:40], strict=True))


def signer_text(scheme: str, signer: bytes) -> str:
    """``0x`` + EIP-55 for a 20-byte address, ``0x`` + hex for any other id."""
    if scheme.startswith("secp256k1") and len(signer) == 20:
        return checksum_address(signer)
    return "0x" + signer.hex()


__all__ = ["checksum_address", "signer_text"]
