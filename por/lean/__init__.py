"""Lean records: the verify hot path without pydantic (issues 16, 21).

pydantic stays the public model and JSON-form layer (``por.schemas``), and the
only place a record's fields, types and bounds are declared.  This package
holds plain ``__slots__`` records with the same attribute names, generated
from those models (``python -m por.lean.generate`` writes ``records_gen/``,
the records the fast path reads, and ``writers_gen.py``, the records the core
writes) with checks that accept nothing the pydantic models refuse (pinned by
differential tests), so that ``por verify`` of an honest bundle never imports
pydantic.  Behaviour that is not a declaration (cross-field rules, spans of the
bundle's bytes, canonical bytes) is hand-written in ``hooks.py`` and
``writer_hooks.py``.  Any input the lean path does not accept is handed to the
full verifier, which alone writes failure reports.
"""
