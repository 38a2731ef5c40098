"""Who and what a verifying command trusts: one policy value, one rule per question.

Mechanism apart from policy (sigstore-python's ``VerificationPolicy``): the
signature modules do the cryptography (``record`` for verdicts, ``typed`` for the
court's ``Ruling`` and the locked judges' ``Judgement``); *whether* a good
signature counts is asked of a :class:`TrustPolicy`, and every record kind asks
it the same three questions in the same words (SPEC §8.5, steps 5-6, 9, 10-11):

* the domain: signed for the expected chain id and verifying contract
  (``signature.chain_id``, ``signature.contract``);
* the signer: one of the trusted keys, when keys are given
  (``signature.untrusted_key``);
* the validity period ``[issued_at, expires_at)``: a period that ends before it
  begins is broken whatever the time (``signature.expired``); with a time,
  ``now >= expires_at`` is ``signature.expired`` and ``now < issued_at`` is
  ``signature.not_yet_valid``.

Each rule returns the failures it finds (a record's checker collects them all or
raises the first with :func:`raise_first`); the checker verifies the signature
itself between the domain and the signer rules, as SPEC §8.5 numbers them.  No
rule reads the clock: ``now`` is a value.  Leaves out: the
signature encodings and digests (``secp256k1``, ``ed25519``, ``eip712``) and what
a command does with a set-aside signature (``verifier.signatures``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from por.errors import SignatureError
from por.signing.checks import (
    CHECK_CHAIN_ID,
    CHECK_CONTRACT,
    CHECK_EXPIRED,
    CHECK_NOT_YET_VALID,
    CHECK_UNTRUSTED_KEY,
)


def period_failures(issued_at: int, expires_at: int, now: int | None) -> list[SignatureError]:
    """The failures of the validity period ``[issued_at, expires_at)`` at ``now``
    (``None``: only whether the period itself is well formed), in SPEC order."""
    failures: list[SignatureError] = []
    if issued_at > expires_at:
        failures.append(SignatureError(CHECK_EXPIRED, "the signature was issued after it expires",
                                       expected=f"<= {expires_at}", actual=issued_at))
    elif now is not None and now >= expires_at:
        failures.append(SignatureError(CHECK_EXPIRED, "the signature has expired",
                                       expected=f"now < {expires_at}", actual=now))
    if now is not None and now < issued_at:
        failures.append(SignatureError(CHECK_NOT_YET_VALID, "the signature is not yet valid",
                                       expected=f"now >= {issued_at}", actual=now))
    return failures


@dataclass(frozen=True, slots=True)
class TrustPolicy:
    """What a verifying command accepts of a signature it found good.

    ``trusted``: signer ids (20-byte addresses or 32-byte Ed25519 keys) whose
    signatures count, or ``None`` when no key was given (a good signature is
    then checked for self-consistency only: "not certified", as gpg says);
    ``require_signature``: a document without a trusted good signature is
    rejected; ``now``: Unix seconds for the validity period; ``chain_id`` and
    ``contract``: the EIP-712 domain the caller submits to (``None``: any).
    """

    trusted: frozenset[bytes] | None = None
    require_signature: bool = False
    now: int | None = None
    chain_id: int | None = None
    contract: bytes | None = None

    @classmethod
    def of(cls, trusted: Iterable[bytes] | None = None, *, require_signature: bool = False,
           now: int | None = None, chain_id: int | None = None,
           contract: bytes | None = None) -> TrustPolicy:
        """A policy from any iterable of trusted signer ids."""
        return cls(None if trusted is None else frozenset(trusted), require_signature, now,
                   chain_id, contract)

    def domain_failures(self, chain_id: int, contract: bytes) -> list[SignatureError]:
        """Steps 5-6: signed for the chain and contract this policy submits to."""
        failures: list[SignatureError] = []
        if self.chain_id is not None and chain_id != self.chain_id:
            failures.append(SignatureError(CHECK_CHAIN_ID, "signed for another chain id",
                                           expected=self.chain_id, actual=chain_id))
        if self.contract is not None and contract != self.contract:
            failures.append(SignatureError(CHECK_CONTRACT,
                                           "signed for another verifying contract",
                                           expected=self.contract, actual=contract))
        return failures

    def signer_failures(self, signer: bytes) -> list[SignatureError]:
        """Step 9: the signer is one this policy trusts (any, when no key was given)."""
        if self.trusted is None or signer in self.trusted:
            return []
        expected = " or ".join(sorted(key.hex() for key in self.trusted)) or "none"
        return [SignatureError(CHECK_UNTRUSTED_KEY, "the signer is not a trusted key",
                               expected=expected, actual=signer)]

    def period_failures(self, issued_at: int, expires_at: int) -> list[SignatureError]:
        """Steps 10-11 at this policy's ``now``."""
        return period_failures(issued_at, expires_at, self.now)


def raise_first(failures: list[SignatureError]) -> None:
    """Raise the first failure a rule found, if any (for checkers that stop at one)."""
    if failures:
        raise failures[0]


__all__ = ["TrustPolicy", "period_failures", "raise_first"]
