"""gc_paused restores the collector's previous state, also on error."""

from __future__ import annotations

import gc

import pytest

from por.gcpause import gc_paused


def test_pauses_and_restores() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_restores_after_an_exception() -> None:
    with pytest.raises(ValueError), gc_paused():
        raise ValueError
    assert gc.isenabled()


def test_keeps_a_disabled_collector_disabled() -> None:
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_check_bundle_leaves_the_collector_enabled() -> None:
    from verifier import check_bundle

    check_bundle(b"\xa0")
    assert gc.isenabled()
