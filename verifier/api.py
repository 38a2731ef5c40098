"""``check_bundle`` (returns a report) and ``verify_bundle`` (raises).

Bytes in, report out: no file or network I/O, no clock, no environment.  The
current time for signature expiry is a parameter.  ``check_bundle`` never
raises for a bad bundle; an unexpected internal error becomes an ``error``
report (exit 2) with check id ``internal.error``.

Two paths, one answer (SPEC §6.2): the fast path (``verifier.fast``, no
pydantic) accepts exactly valid unsigned bundles; everything else, and every
failure report, comes from the full verifier (``verifier.full``).  Options
arrive as keywords or as one :class:`~verifier.options.VerifyOptions`.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Literal, overload

from por.errors import VerificationError
from por.lean.bundle import DEFAULT_BUNDLE_MAX_SIZE
from por.signing.policy import TrustPolicy
from verifier.fast import fast_report
from verifier.options import DEFAULT_OPTIONS, VerifyOptions
from verifier.stages import Handoff

if TYPE_CHECKING:
    from verifier.report import VerificationReport
    from verifier.report_form import Report


def options_from(
    options: VerifyOptions | None,
    *,
    trusted_keys: Collection[bytes] | None = None,
    require_signature: bool = False,
    now: int | None = None,
    chain_id: int | None = None,
    verifying_contract: bytes | None = None,
    max_size: int = DEFAULT_BUNDLE_MAX_SIZE,
) -> VerifyOptions:
    """``options``, or the options the keywords give; ``TypeError`` if both are given.

    The keywords are the :class:`TrustPolicy`'s fields under their older names
    (``trusted_keys`` is ``trusted``, ``verifying_contract`` is ``contract``)."""
    given = VerifyOptions(
        TrustPolicy.of(trusted_keys, require_signature=require_signature, now=now,
                       chain_id=chain_id, contract=verifying_contract),
        max_size=max_size)
    if options is None:
        return given
    if given != DEFAULT_OPTIONS:
        raise TypeError("give options=VerifyOptions(...) or keywords, not both")
    return options


@overload
def check_bundle(data: bytes, options: VerifyOptions | None = None, *,
                 trusted_keys: Collection[bytes] | None = None,
                 require_signature: bool = False, now: int | None = None,
                 chain_id: int | None = None, verifying_contract: bytes | None = None,
                 max_size: int = DEFAULT_BUNDLE_MAX_SIZE,
                 lean: Literal[False] = False) -> VerificationReport: ...
@overload
def check_bundle(data: bytes, options: VerifyOptions | None = None, *,
                 trusted_keys: Collection[bytes] | None = None,
                 require_signature: bool = False, now: int | None = None,
                 chain_id: int | None = None, verifying_contract: bytes | None = None,
                 max_size: int = DEFAULT_BUNDLE_MAX_SIZE, lean: bool) -> Report: ...
def check_bundle(
    data: bytes,
    options: VerifyOptions | None = None,
    *,
    trusted_keys: Collection[bytes] | None = None,
    require_signature: bool = False,
    now: int | None = None,
    chain_id: int | None = None,
    verifying_contract: bytes | None = None,
    max_size: int = DEFAULT_BUNDLE_MAX_SIZE,
    lean: bool = False,
) -> Report:
    """Run every numbered step of SPEC §6.2 over ``data``; never raises for bad input.

    ``options`` (a :class:`VerifyOptions`) or the keywords, which are its
    fields: ``trusted_keys``: signer ids (20-byte Ethereum addresses or 32-byte
    Ed25519 public keys) whose signatures count; ``require_signature``: reject a
    bundle with no valid signature from a trusted key; ``now``: Unix seconds for
    expiry checks (required when signatures are checked).  Returns a
    ``VerificationReport``; with ``lean=True`` a verified report may instead be
    a ``verifier.fast.LeanReport`` (the same :class:`Report`, no pydantic loaded).
    """
    data = bytes(data)
    chosen = options_from(options, trusted_keys=trusted_keys,
                          require_signature=require_signature, now=now, chain_id=chain_id,
                          verifying_contract=verifying_contract, max_size=max_size)
    handoff = Handoff()
    fast = fast_report(data, chosen, handoff)
    if fast is not None:
        return fast if lean else fast.to_report()
    from verifier.full import check_full  # noqa: PLC0415

    return check_full(data, chosen, handoff)


def verify_bundle(
    data: bytes,
    options: VerifyOptions | None = None,
    *,
    trusted_keys: Collection[bytes] | None = None,
    require_signature: bool = False,
    now: int | None = None,
    chain_id: int | None = None,
    verifying_contract: bytes | None = None,
    max_size: int = DEFAULT_BUNDLE_MAX_SIZE,
) -> VerificationReport:
    """Like :func:`check_bundle` but raise ``VerificationError`` unless verified."""
    report = check_bundle(data, options, trusted_keys=trusted_keys,
                          require_signature=require_signature, now=now, chain_id=chain_id,
                          verifying_contract=verifying_contract, max_size=max_size)
    if not report.ok:
        failure = report.first_failure
        if failure is None:  # unreachable: a non-verified report has a failed check
            raise VerificationError("internal.error", "report failed without a check")
        raise VerificationError(failure.check_id, failure.message, expected=failure.expected,
                                actual=failure.actual, challenge=failure.challenge)
    return report


__all__ = ["check_bundle", "options_from", "verify_bundle"]
