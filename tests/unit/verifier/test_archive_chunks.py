"""``check_many`` on an executor: chunks keep input order and the version check."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from bundle_edits import honest

from verifier import archive
from verifier.archive import CHUNK_BYTES, CHUNK_COUNT, ArchiveError, check_many
from verifier.options import VerifyOptions


def test_chunks_split_by_count_and_bytes() -> None:
    small = [bytes([i]) for i in range(CHUNK_COUNT * 2 + 3)]
    assert [len(c) for c in archive._chunks(small)] == [CHUNK_COUNT, CHUNK_COUNT, 3]
    big = b"x" * (CHUNK_BYTES - 10)
    assert [len(c) for c in archive._chunks([b"a", big, big, b"b"])] == [2, 2]
    huge = b"x" * (CHUNK_BYTES + 1)  # alone in its task, never refused
    assert [len(c) for c in archive._chunks([b"a", huge, b"b"])] == [1, 1, 1]
    assert list(archive._chunks([])) == []


@pytest.mark.parametrize("lean", [False, True])
def test_order_and_statuses_match_serial(lean: bool) -> None:
    good = honest("01-boolean-observed").to_cbor()
    inputs = [good if i % 3 else good[:-1] for i in range(CHUNK_COUNT * 2 + 5)]
    serial = [r.status for r in check_many(inputs, VerifyOptions())]
    with ThreadPoolExecutor(max_workers=2) as pool:
        pooled = list(check_many(inputs, VerifyOptions(), executor=pool, window=2, lean=lean))
    assert [r.status for r in pooled] == serial
    assert {type(r).__name__ for r in pooled if r.ok} == (
        {"LeanReport"} if lean else {"VerificationReport"})


def test_another_version_on_a_worker_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    def elsewhere(chunk: list[bytes], options: Any, lean: bool = False) -> tuple[str, list[Any]]:
        return "0.0.0-other", []

    monkeypatch.setattr(archive, "check_chunk", elsewhere)
    with ThreadPoolExecutor(max_workers=1) as pool, pytest.raises(ArchiveError) as info:
        list(check_many([b"x"], VerifyOptions(), executor=pool))
    assert info.value.check_id == "archive.version_mismatch"
