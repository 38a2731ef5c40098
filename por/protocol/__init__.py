"""The protocol's constants and count-only rules, apart from any record model (issue 21).

Every verifier, in any language, applies these the same way (SPEC §3.1, §4, §5.2,
§12.5, §17):

* :mod:`por.protocol.limits` -- caps, literal sets and the step-id form
  (``MAX_ID_LENGTH``, ``OUTCOME_CODES``, ``CANONICAL_RULE_IDS``, ...);
* :mod:`por.protocol.manifest` -- the manifest this implementation writes and
  replays (``PROFILE``, ``AUDITOR_VERSION``, ``rule_set_hash``, ...);
* :mod:`por.protocol.budget` -- the bundle's work budget, checked on counts and
  sizes before any record is parsed (``MAX_SIGNATURES``, ``max_steps_for``, ...).

It imports only :mod:`por.encoding`, :mod:`por.errors` and ``por.SPEC_VERSION``:
the pydantic models (:mod:`por.schemas`), the fast path's readers
(:mod:`por.lean`), the auditor and the judge all read their constants here, and
importing it costs ``por verify`` nothing it did not already pay.
"""
