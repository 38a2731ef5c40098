"""``VerifyOptions``: what a caller may ask of the verifier, as one frozen value.

The options of ``check_bundle`` (SPEC §6.2): the size cap for step 1 and the
trust and time inputs of step 8.  A value, not a dict: the steps read typed
attributes, and a worker of ``verifier.archive`` receives the same value
pickled.  Leaves out: reading key files or the clock (the CLI does, and
passes signer ids and Unix seconds here).
"""

from __future__ import annotations

from dataclasses import dataclass

from por.lean.bundle import DEFAULT_BUNDLE_MAX_SIZE


@dataclass(frozen=True, slots=True)
class VerifyOptions:
    """The inputs of a verification besides the bundle's bytes.

    ``trusted_keys``: signer ids (20-byte Ethereum addresses or 32-byte Ed25519
    public keys) whose signatures count, ``None`` for none; ``require_signature``:
    reject a bundle with no valid signature from a trusted key; ``now``: Unix
    seconds for expiry checks (required when signatures are checked);
    ``chain_id``/``verifying_contract``: the EIP-712 deployment signatures must
    be for; ``max_size``: the decoder's cap on the bundle's bytes.
    """

    trusted_keys: frozenset[bytes] | None = None
    require_signature: bool = False
    now: int | None = None
    chain_id: int | None = None
    verifying_contract: bytes | None = None
    max_size: int = DEFAULT_BUNDLE_MAX_SIZE


#: The options with nothing trusted, no signature asked for, no time, the default cap.
DEFAULT_OPTIONS = VerifyOptions()

__all__ = ["DEFAULT_OPTIONS", "VerifyOptions"]
