"""Lean verdict: ``DeterministicVerdict``'s fields and canonical bytes without pydantic.

:class:`Verdict` is generated from ``por.schemas.verdict.DeterministicVerdict``
into :mod:`por.lean.writers_gen` (``python -m por.lean.generate``): exactly its
attribute names (SPEC §4.6); :meth:`Verdict.to_cbor`
(:class:`por.lean.writer_hooks.VerdictRecord`) encodes the dict
``DeterministicVerdict.to_dict()`` gives (``resolution_time`` omitted when
absent), so the bytes are identical (pinned on every fixture market).  Only
the judge makes one, from values it computed itself.

Leaves out: decoding (the full verifier parses a committed verdict with
pydantic) and the JSON form.
"""

from __future__ import annotations

from por.lean.writers_gen import Verdict

VERDICT_SCHEMA = Verdict.SCHEMA

#: ``DeterministicVerdict``'s fields after ``schema``, in declaration order.
VERDICT_FIELDS = Verdict.NAMES


__all__ = ["VERDICT_FIELDS", "VERDICT_SCHEMA", "Verdict"]
