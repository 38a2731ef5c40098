"""Explanations for people: why a verdict is what it is, and what a bundle holds.

* :mod:`~por.explain.findings` -- recorded reasons (``extract.*``,
  ``sanity.*``...) from committed step outputs, and the deciding judge check;
* :mod:`~por.explain.preflight` -- a PromptSpec that can never resolve;
* :mod:`~por.explain.document` -- the ``por/explain/1`` document;
* :mod:`~por.explain.tree` -- the ``por/tree/1`` tree view.

Pure: bytes and records in, documents and lines out; no files or printing.
"""

from por.explain.document import EXPLAIN_SCHEMA, explain_bundle, text_lines
from por.explain.findings import Decision, Finding, deciding_check, findings
from por.explain.preflight import unresolvable
from por.explain.tree import TREE_SCHEMA, bundle_tree, tree_lines

__all__ = [
    "EXPLAIN_SCHEMA",
    "TREE_SCHEMA",
    "Decision",
    "Finding",
    "bundle_tree",
    "deciding_check",
    "explain_bundle",
    "findings",
    "text_lines",
    "tree_lines",
    "unresolvable",
]
