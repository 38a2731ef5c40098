"""The bundle's work budget: counts checked before any record is parsed (SPEC §17).

Every bound here is a property of the format, the same for every verifier,
and each is checked on counts and sizes alone, before the expensive work it
protects:

* the bundle decodes with at most :data:`MAX_BUNDLE_ITEMS` CBOR items in its
  arrays and maps (``codec.too_large``, charged at each container head);
* it carries at most :func:`max_steps_for` steps for its evidence count and
  requirement count, the ``max_steps`` the auditor derives (SPEC §12.5), so
  a trace longer than any honest one is refused before a step is hashed
  (``bundle.step_budget``);
* signatures: at most :data:`MAX_SIGNATURES` records, each at most
  :data:`MAX_SIGNATURE_RECORD_BYTES` bytes, one per signer, in strictly
  increasing bytewise order of ``signer`` (``bundle.signature_count``,
  ``bundle.signature_size``, ``bundle.signature_duplicate``,
  ``bundle.signature_order``).  Signatures sign ``por_root``, so they cannot
  be committed under it; a canonical order instead gives one encoding per set
  of signatures, and one signature per signer means a k-of-n consumer
  counting records counts signers.
"""

from __future__ import annotations

from typing import Any

from por.encoding import decode
from por.encoding.decoder import DEFAULT_MAX_CONTAINERS, DEFAULT_MAX_SIZE
from por.errors import BundleError, EncodingError, PorError, SchemaError
from por.protocol.limits import MAX_EVIDENCE_ITEMS, MAX_REQUIREMENTS, MAX_TRACE_STEPS

#: Most signature records a bundle carries.
MAX_SIGNATURES = 64
#: Largest signature record (a real one is about 300 bytes).
MAX_SIGNATURE_RECORD_BYTES = 1024


def max_steps_for(items: int, requirements: int) -> int:
    """``min(2n + 8r + 16, 4 000 000)``: the auditor's ``max_steps`` (SPEC §12.5)."""
    return min(2 * items + 8 * requirements + 16, MAX_TRACE_STEPS)


#: Most CBOR items the bundle's arrays and maps hold together: the top-level map
#: and the commitments map (9 entries each, 2 items per entry), every evidence
#: item, the longest trace and every signature.
MAX_BUNDLE_ITEMS = (2 * 9 + 2 * 9 + MAX_EVIDENCE_ITEMS
                    + max_steps_for(MAX_EVIDENCE_ITEMS, MAX_REQUIREMENTS) + MAX_SIGNATURES)


def decode_bundle(data: bytes, *, max_size: int) -> Any:
    """Strictly decode ``bundle.cbor`` under the size and item caps (``codec.*``)."""
    return decode(data, max_size=max_size, max_items=MAX_BUNDLE_ITEMS)


def check_step_budget(steps: int, items: int, requirements: int) -> None:
    """Refuse more steps than the auditor could produce (``bundle.step_budget``)."""
    limit = max_steps_for(items, requirements)
    if steps > limit:
        raise BundleError("bundle.step_budget",
                          f"{steps} steps for {items} evidence items and {requirements} "
                          "requirements: more than any trace of these inputs",
                          expected=f"<= {limit}", actual=steps)


def check_buildable(records: dict[str, Any], size: int, *, max_size: int,
                    encoded: bool = False) -> None:
    """What ``build`` made must pass the verifier's caps, or nothing is written:
    the bundle size, and every record the auditor and judge produced decodes
    under the record caps (size, depth, containers).  Raises the ``codec.*``
    error a verifier would give, naming the record.

    ``encoded=True``: the records were made by :func:`por.encoding.encode`, which
    refuses everything the decoder refuses (types, depth, UTF-8, key order)
    except the size and container caps, and a record of at most
    ``DEFAULT_MAX_CONTAINERS`` bytes breaks neither (a container takes a byte):
    only larger records are decoded (issue 16: build as fast as verify).
    """
    if size > max_size:
        raise EncodingError("codec.too_large",
                            "the bundle would be larger than the verifier's cap",
                            expected=f"<= {max_size} bytes", actual=f"{size} bytes")
    named = [("trace_header", records["trace_header"]), ("verdict", records["verdict"])]
    named += [(f"step {index + 1}", blob) for index, blob in enumerate(records["steps"])]
    for name, blob in named:
        if encoded and len(blob) <= DEFAULT_MAX_CONTAINERS:
            continue
        try:
            decode(blob)
        except EncodingError as exc:
            raise EncodingError(exc.check_id, f"{name} would be refused by a verifier: "
                                f"{exc.message}", expected=exc.expected,
                                actual=exc.actual) from None


def check_step_sizes(steps: list[bytes]) -> None:
    """Every step record is within the record cap (``codec.too_large``), checked on
    sizes alone: step records are decoded only where they differ from the replay."""
    for index, blob in enumerate(steps):
        if len(blob) > DEFAULT_MAX_SIZE:
            raise EncodingError("codec.too_large",
                                f"step {index + 1} is larger than the record cap",
                                expected=f"<= {DEFAULT_MAX_SIZE} bytes",
                                actual=f"{len(blob)} bytes")


def signer_of(blob: bytes) -> bytes:
    """The ``signer`` of a signature record, read after a strict decode
    (``codec.*``; ``schema.type`` if the record has no byte-string signer)."""
    if len(blob) > MAX_SIGNATURE_RECORD_BYTES:
        raise BundleError("bundle.signature_size", "signature record is too large",
                          expected=f"<= {MAX_SIGNATURE_RECORD_BYTES} bytes",
                          actual=f"{len(blob)} bytes")
    value = decode(blob, max_size=MAX_SIGNATURE_RECORD_BYTES)
    signer = value.get("signer") if isinstance(value, dict) else None
    if not isinstance(signer, bytes):
        raise SchemaError("schema.type", "signature record has no byte-string signer")
    return signer


def check_signature_layout(signatures: list[bytes]) -> None:
    """Count, size, one per signer, canonical order; raise the first failure.

    The message starts with ``signature <index>:`` where one record is at fault.
    """
    if len(signatures) > MAX_SIGNATURES:
        raise BundleError("bundle.signature_count", "too many signatures",
                          expected=f"<= {MAX_SIGNATURES}", actual=len(signatures))
    previous = b""
    for index, blob in enumerate(signatures):
        try:
            signer = signer_of(blob)
        except PorError as exc:
            raise type(exc)(exc.check_id, f"signature {index}: {exc.message}",
                            expected=exc.expected, actual=exc.actual) from None
        if index and signer == previous:
            raise BundleError("bundle.signature_duplicate",
                              f"signature {index}: signer {signer.hex()} signed twice")
        if index and signer < previous:
            raise BundleError("bundle.signature_order",
                              f"signature {index}: signers are not in increasing order",
                              expected=f"> {previous.hex()}", actual=signer.hex())
        previous = signer


def add_signature(signatures: list[bytes], record: bytes) -> list[bytes]:
    """``signatures`` with ``record`` in its canonical place; refuses a second
    signature by the same signer and a list over the cap (as a verifier would)."""
    signer = signer_of(record)
    if any(signer_of(blob) == signer for blob in signatures):
        raise BundleError("bundle.signature_duplicate",
                          f"signer {signer.hex()} has already signed this bundle")
    result = sorted([*signatures, record], key=signer_of)
    check_signature_layout(result)
    return result


__all__ = [
    "MAX_BUNDLE_ITEMS",
    "MAX_REQUIREMENTS",
    "MAX_SIGNATURES",
    "MAX_SIGNATURE_RECORD_BYTES",
    "MAX_TRACE_STEPS",
    "add_signature",
    "check_buildable",
    "check_signature_layout",
    "check_step_budget",
    "check_step_sizes",
    "decode_bundle",
    "max_steps_for",
    "signer_of",
]
