"""Lean records: the verify hot path without pydantic (issue 16).

pydantic stays the public model and JSON-form layer (``por.schemas``).  This
package holds plain ``__slots__`` records with the same attribute names as the
pydantic models, validated by hand-written checks that accept exactly what the
pydantic models accept (pinned by differential tests), so that ``por verify``
of an honest bundle never imports pydantic.  Any input the lean path does not
accept is handed to the full verifier, which alone writes failure reports.
"""
