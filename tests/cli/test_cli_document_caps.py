"""Every court and judge document is read under one cap (SPEC §16.2, issue 25 item 2).

Before: a ruling was read under 64 MiB (``por.court.verify.DEFAULT_MAX_SIZE``, and
``por court rule`` re-verified what it wrote under it) while the case inside it was
read under the judge-subject cap (256 MiB + 4096), and the judge and court
commands read cases, judgements and rulings under ``--max-size`` 256 MiB: a case
between the two was decoded by one reader and refused by the next.  Now the
subject, case, judgement and ruling caps and the ``--max-size`` default of every
``judge``, ``court``, ``dispute`` and ``chain challenge`` command are
``por.protocol.limits.DOCUMENT_MAX_SIZE``.
"""

from __future__ import annotations

import argparse
import inspect
from pathlib import Path

import pytest

from por.bundle import DEFAULT_BUNDLE_MAX_SIZE
from por.cli.app import build_parser, main
from por.cli.common import DEFAULT_MAX_SIZE, DOCUMENT_MAX_SIZE, PROOF_MAX_SIZE, bundle_cap
from por.court import verify as court_verify
from por.court.case import CASE_MAX_SIZE
from por.locked_judges import verify as judge_verify
from por.locked_judges.subjects import SUBJECT_MAX_SIZE
from por.protocol import limits


def _subparsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
                ) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    found = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _subparsers(sub, (*path, name))
    return found


def test_one_constant_caps_every_court_and_judge_document() -> None:
    assert limits.DOCUMENT_MAX_SIZE == DEFAULT_BUNDLE_MAX_SIZE + 4096 == DOCUMENT_MAX_SIZE
    assert SUBJECT_MAX_SIZE == CASE_MAX_SIZE == court_verify.DEFAULT_MAX_SIZE \
        == DOCUMENT_MAX_SIZE
    for function in (judge_verify.decode_judgement, judge_verify.verify_judgement,
                     court_verify.decode_court, court_verify.verify_court):
        assert inspect.signature(function).parameters["max_size"].default \
            == DOCUMENT_MAX_SIZE, function.__name__
    assert bundle_cap(DOCUMENT_MAX_SIZE) == DEFAULT_MAX_SIZE == DEFAULT_BUNDLE_MAX_SIZE
    assert bundle_cap(10) == 10


def test_every_judge_and_court_command_defaults_to_the_document_cap() -> None:
    defaults = {}
    for path, parser in _subparsers(build_parser()):
        for action in parser._actions:
            if "--max-size" in action.option_strings:
                defaults[" ".join(path)] = action.default
    documents = {name: cap for name, cap in defaults.items()
                 if name.split()[0] in ("judge", "court", "dispute")
                 or name == "chain challenge"}
    assert {"court rule", "court verify", "dispute open", "judge verify", "judge batch",
            "chain challenge"} <= set(documents)
    assert set(documents.values()) == {DOCUMENT_MAX_SIZE}, documents
    proofs = {name: cap for name, cap in defaults.items()
              if name in ("check-proof", "chain settle", "chain commit")}
    assert set(proofs.values()) == {PROOF_MAX_SIZE}, proofs  # SPEC §10.7
    others = {name: cap for name, cap in defaults.items()
              if name not in documents and name not in proofs}
    assert set(others.values()) == {DEFAULT_MAX_SIZE}, others


@pytest.mark.parametrize("command", ["court", "judge"])
def test_a_ruling_or_judgement_at_the_cap_is_read_one_past_it_is_not(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """At the boundary: ``DOCUMENT_MAX_SIZE`` bytes are decoded (and refused for
    what they are, not their size: a run of zero bytes), one more byte is
    ``io.too_large``.  The old 64 MiB ruling cap refused both."""
    for size, too_large in ((DOCUMENT_MAX_SIZE, False), (DOCUMENT_MAX_SIZE + 1, True)):
        path = tmp_path / f"document-{size}.cbor"
        with path.open("wb") as handle:  # sparse: nothing on disk
            handle.truncate(size)
        code = main([command, "verify", str(path)])
        err = capsys.readouterr().err
        assert code in (1, 2), err
        assert ("too_large" in err) is too_large, err
        path.unlink()
