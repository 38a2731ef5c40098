"""``por verify`` over archives: serial, ``--jobs``, Dask; order, summary digest.

The summary digest (SPEC §6.4) must not depend on where the checks ran: the
same inputs give the same ``--json`` document serially, in a process pool and
on a real local Dask cluster started here on 127.0.0.1.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bundle_edits import recommit
from cli_support import GARBAGE, built_bytes, hand_bytes, tampered

from por.bundle import Bundle
from por.cli import main
from por.encoding import encode
from por.schemas import ReasoningStep
from verifier.archive import SUMMARY_SCHEMA, summary_digest


def archive(write: Callable[[str, bytes], str], tmp_path: Path) -> list[str]:
    """Good, tampered, garbage and missing inputs, interleaved."""
    good = built_bytes()
    return [
        write("a.cbor", good),
        write("b.cbor", tampered(hand_bytes())),
        str(tmp_path / "missing.cbor"),
        write("c.cbor", GARBAGE),
        write("d.cbor", good),
        str(tmp_path / "also-missing.cbor"),
    ]


def verify_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["verify", "--json", *argv])
    return code, json.loads(capsys.readouterr().out)


def test_summary_digest_is_the_hash_of_the_canonical_summary() -> None:
    root = bytes(range(32))
    rows = [("a", "verified", None, root), ("b", "rejected", "codec.trailing_bytes", None)]
    expected = hashlib.sha256(encode({"schema": SUMMARY_SCHEMA, "results": [
        {"input": "a", "status": "verified", "por_root": root},
        {"input": "b", "status": "rejected", "check_id": "codec.trailing_bytes"},
    ]})).digest()
    assert summary_digest(rows) == expected
    # Order is part of the summary: a permuted archive is another archive.
    assert summary_digest(list(reversed(rows))) != expected


def test_serial_and_pool_give_the_same_document(
        write: Callable[[str, bytes], str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    paths = archive(write, tmp_path)
    serial_code, serial = verify_json(capsys, *paths)
    pool_code, pool = verify_json(capsys, "--jobs", "2", *paths)
    assert serial_code == pool_code == 2
    assert pool == serial
    assert [r["input"] for r in serial["results"]] == paths
    assert [r["exit_code"] for r in serial["results"]] == [0, 1, 2, 1, 0, 2]
    assert serial["summary"]["count"] == 6
    assert (serial["summary"]["verified"], serial["summary"]["rejected"],
            serial["summary"]["error"]) == (2, 2, 2)


def test_text_lines_keep_input_order_with_jobs(
        write: Callable[[str, bytes], str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    paths = archive(write, tmp_path)
    assert main(["verify", "--jobs", "2", "--progress", *paths]) == 2
    captured = capsys.readouterr()
    *lines, summary = captured.out.splitlines()
    assert [line.split(" ")[1].rstrip(":") for line in lines] == paths
    assert [line.split(" ")[0] for line in lines] == ["OK", "FAIL", "ERROR", "FAIL", "OK",
                                                      "ERROR"]
    assert summary.startswith("summary: 6 inputs, 2 verified, 2 rejected, 2 no verdict; digest ")
    progress = [line for line in captured.err.splitlines() if line.startswith("[")]
    assert [line.split(" ")[0] for line in progress] == [f"[{k}/6]" for k in range(1, 7)]


def test_challenges_are_written_from_pool_results(
        write: Callable[[str, bytes], str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    # Consistent commitments (forms included) around a forged step: replay fails, a
    # proof is won.  (The hand-made trace's step has no chain form: form.none, no proof.)
    honest = Bundle.from_cbor(built_bytes())
    forged = ReasoningStep.from_cbor(honest.steps[-1]).model_copy(
        update={"description": "forged"}).to_cbor()
    bad = write("bad.cbor", recommit(honest, steps=[*honest.steps[:-1], forged]).to_cbor())
    serial_dir, pool_dir = tmp_path / "serial", tmp_path / "pool"
    assert main(["verify", "-q", "--challenges", str(serial_dir), bad]) == 1
    assert main(["verify", "-q", "--jobs", "2", "--challenges", str(pool_dir), bad, bad]) == 1
    serial_files = sorted(p.name for p in serial_dir.iterdir())
    assert serial_files
    assert sorted(p.name for p in pool_dir.iterdir()) == serial_files


def test_jobs_and_executor_exclude_each_other(valid: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--jobs", "2", "--executor", "tcp://127.0.0.1:1", valid]) == 2
    assert "usage.options" in capsys.readouterr().err


def test_unreachable_scheduler_is_no_verdict(valid: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    assert main(["verify", "--executor", "tcp://127.0.0.1:9", valid]) == 2
    assert "archive.executor_unavailable" in capsys.readouterr().err


def test_dask_cluster_gives_the_serial_document(
        write: Callable[[str, bytes], str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    distributed = pytest.importorskip("distributed")
    paths = archive(write, tmp_path)
    serial_code, serial = verify_json(capsys, *paths)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address="127.0.0.1:0") as cluster:
        dask_code, on_dask = verify_json(capsys, "--executor", cluster.scheduler_address,
                                         *paths)
    assert dask_code == serial_code
    assert on_dask == serial
