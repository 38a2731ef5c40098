"""``VerifyOptions``: what a caller may ask of the verifier, as one frozen value.

The options of ``check_bundle`` (SPEC §6.2): the trust policy of step 8 (one
:class:`~por.signing.policy.TrustPolicy`, the same value that judges judgement
and ruling signatures) and the size cap of step 1.  A value, not a dict: the
steps read typed attributes, and a worker of ``verifier.archive`` receives the
same value pickled.  Leaves out: reading key files or the clock (the CLI does,
and passes signer ids and Unix seconds here).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from por.lean.bundle import DEFAULT_BUNDLE_MAX_SIZE
from por.signing.policy import TrustPolicy


@dataclass(frozen=True, slots=True)
class VerifyOptions:
    """The inputs of a verification besides the bundle's bytes.

    ``trust``: which signatures count (trusted signer ids, whether one is
    required, the time for the validity period, the EIP-712 chain id and
    contract); ``max_size``: the decoder's cap on the bundle's bytes.
    """

    trust: TrustPolicy = field(default_factory=TrustPolicy)
    max_size: int = DEFAULT_BUNDLE_MAX_SIZE


#: The options with nothing trusted, no signature asked for, no time, the default cap.
DEFAULT_OPTIONS = VerifyOptions()

__all__ = ["DEFAULT_OPTIONS", "VerifyOptions"]
