"""Python's executors on forms for the tests of what ``verify --challenges`` writes (s40).

Since s40 a FormStepProof (SPEC §10.2.9) is the first candidate for a check chunk, an
aggregate, a deduce step and the verdict. The tests that assert which proof is written
use :func:`forms_executors`: with Python's executors (``por.forms.execute``) it does
nothing; while one is still a stub (``UnsupportedError``: s40's branches before the
executors are merged) it stands the Solidity twin in for it in revm
(``tests/chain/form_step_standin.py``), which needs the ``contracts-npm`` set-up: without
it the test skips (fails under ``POR_REQUIRE_SETUP``). Once no executor is a stub this
module is a no-op and may go.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from setup_gate import GATES, required

from por.errors import UnsupportedError

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("check", "aggregate", "deduce", "judge")


def _is_stub(kind: str) -> bool:
    from por.forms.execute import EXECUTORS, aggregate, check, deduce, judge  # noqa: F401

    try:
        EXECUTORS[kind]([], [], 0)
    except UnsupportedError:
        return True
    except Exception:  # a written executor refuses empty forms its own way
        return False
    return False


@pytest.fixture
def forms_executors(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every kind has a deciding executor on forms for this test (module doc)."""
    stubs = [kind for kind in KINDS if _is_stub(kind)]
    if stubs:
        sys.path.insert(0, str(ROOT / "bench"))
        from gasprof import srcmap

        missing = srcmap.missing()
        if missing is not None:
            text = (f"the executors on forms {stubs} are stubs and their Solidity twins "
                    f"need {missing}; enable with `{GATES['contracts-npm']}`")
            if required("contracts-npm"):
                pytest.fail(text, pytrace=False)
            pytest.skip(text)
        chain = str(ROOT / "tests" / "chain")
        if chain not in sys.path:
            sys.path.insert(0, chain)
        from form_step_standin import standin

        from por.forms import execute as forms_execute

        for kind in stubs:
            monkeypatch.setitem(forms_execute.EXECUTORS, kind, standin(kind))
    yield


__all__ = ["forms_executors"]
