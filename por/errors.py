"""The error hierarchy.

Every error raised by por for bad input derives from :class:`PorError` and
carries a stable ``check_id`` (SPEC §9 lists them), a one-line ``message``, and
where it applies the ``expected`` and ``actual`` values (bytes are shown as hex
at the display edge only).  Nothing here imports anything heavy.
"""

from __future__ import annotations

from typing import Any


class PorError(Exception):
    """Base class: a stable check id plus a one-line human message."""

    def __init__(
        self,
        check_id: str,
        message: str,
        *,
        expected: Any = None,
        actual: Any = None,
        challenge: Any = None,
    ) -> None:
        super().__init__(f"{check_id}: {message}")
        self.check_id = check_id
        self.message = message
        self.expected = expected
        self.actual = actual
        self.challenge = challenge

    def diagnostics(self) -> str:
        """One line for a person: check id, message, expected vs actual."""
        text = f"{self.check_id}: {self.message}"
        if self.expected is not None or self.actual is not None:
            text += f" (expected {_show(self.expected)}, actual {_show(self.actual)})"
        return text


def _show(value: Any) -> str:
    if isinstance(value, bytes | bytearray):
        return value.hex()
    return str(value)


class EncodingError(PorError):
    """Input is not exactly valid ``por-cbor/1`` (check ids ``codec.*``)."""


class SchemaError(PorError):
    """A record does not satisfy its schema (check ids ``schema.*``)."""


class MerkleError(PorError):
    """A Merkle argument or proof is malformed or does not verify (``merkle.*``)."""


class InclusionProofError(MerkleError):
    """An inclusion proof does not verify; carries expected and calculated root."""


class ConsistencyProofError(MerkleError):
    """A consistency proof does not verify."""


class AuditError(PorError):
    """The auditor could not produce a trace (``audit.*``)."""


class JudgeError(PorError):
    """The judge could not produce a verdict (``judge.*``)."""


class BundleError(PorError):
    """A PoR bundle is malformed or inconsistent (``bundle.*``, ``commit.*``)."""


class VerificationError(PorError):
    """A bundle failed verification (raised by ``verify_bundle``)."""


class UnsupportedError(PorError):
    """Valid input that this implementation cannot decide (exit code 2)."""


class SignatureError(PorError):
    """A signature is malformed, from an untrusted key, or does not verify."""


class KeyFileError(PorError):
    """A key file is unreadable, malformed or has unsafe permissions."""


class ProofError(PorError):
    """A challenge proof is malformed or does not verify (``proof.*``).

    Its two values are named for what they are (SPEC §10.6): ``committed`` (a
    value the proof carries as committed) and ``recomputed`` (the value the
    verifier derives from the proof's parts), or ``required`` (what a rule
    requires: a range, a kind, a schema id, a root given by an option) and
    ``found`` (what the proof has).  ``expected``/``actual`` are read as
    ``required``/``found``.  As for every PorError, ``expected`` then holds the
    recomputed or required value and ``actual`` the committed or found one.
    """

    def __init__(
        self,
        check_id: str,
        message: str,
        *,
        committed: Any = None,
        recomputed: Any = None,
        required: Any = None,
        found: Any = None,
        expected: Any = None,
        actual: Any = None,
        challenge: Any = None,
    ) -> None:
        #: True: the pair is committed/recomputed; False: required/found.
        self.recomputes = committed is not None or recomputed is not None
        if self.recomputes:
            expected, actual = recomputed, committed
        else:
            expected = required if required is not None else expected
            actual = found if found is not None else actual
        super().__init__(check_id, message, expected=expected, actual=actual,
                         challenge=challenge)


#: Our sentence where pydantic's would read as a validator's (issue 26; the same texts
#: as ``por.schemas``' schema errors).
_PLAIN = {"missing": "required field is missing",
          "extra_forbidden": "no such field in this record (SPEC §4)"}


def value_error_text(exc: ValueError) -> str:
    """One plain sentence for a value a model refused: pydantic's first error as
    ``<field>: <message>`` (no ``[type=..., input_value=...]``, no URL), any other
    ``ValueError`` as its first line.  Duck-typed: no pydantic import here."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            first = errors(include_url=False)[0]
            where = ".".join(str(part) for part in first.get("loc", ()))
            message = _PLAIN.get(str(first.get("type")), "") or str(first["msg"])
        except (IndexError, KeyError, TypeError):
            pass
        else:
            return f"{where}: {message}" if where else message
    lines = str(exc).splitlines()
    return lines[0] if lines else type(exc).__name__


__all__ = [
    "AuditError",
    "BundleError",
    "ConsistencyProofError",
    "EncodingError",
    "InclusionProofError",
    "JudgeError",
    "KeyFileError",
    "MerkleError",
    "PorError",
    "ProofError",
    "SchemaError",
    "SignatureError",
    "UnsupportedError",
    "VerificationError",
    "value_error_text",
]
