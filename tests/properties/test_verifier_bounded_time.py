"""Hostile PromptSpecs whose verification once took minutes to hours (the findings of
the review that wrote ``test_verifier_robustness.py``: unbounded regex and json_path
work, SPEC §12.1, §17.5): each is now rejected quickly.  The alarm is a hang guard two
orders of magnitude above the measured time, not a benchmark.
"""

from __future__ import annotations

import hashlib
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from test_verifier_robustness import GEN, base_bundle

from por.bundle import Bundle
from por.encoding import decode, encode
from verifier import check_bundle

#: Hang guard for the bounded-time tests (they run in well under a second).
HANG_GUARD_SECONDS = 30.0


class _Slow(BaseException):
    """Raised by the alarm; a BaseException so that fail-closed handlers
    (``except Exception``) cannot turn it into a report."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Fail the test if the body runs longer than ``seconds`` (SIGALRM, main thread;
    delivered between bytecodes, so after the C call running at the time)."""
    def _raise(signum: int, frame: Any) -> None:
        raise _Slow

    previous = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except _Slow:
        pytest.fail(f"check_bundle took longer than {seconds} s")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _hostile(name: str, fields: list[dict[str, Any]], contents: list[bytes]) -> bytes:
    """Scenario ``name`` with the fields of requirement 0 replaced and its first item
    repeated once per content (stale trace: a verifier must reject it, quickly)."""
    bundle = Bundle.from_cbor(base_bundle(name))
    spec = decode(bundle.prompt_spec)
    spec["data_requirements"][0]["expected_fields"] = fields
    item = decode(bundle.evidence[0])
    items = [encode({**item, "evidence_id": f"ev-{n}", "content": content})
             for n, content in enumerate(contents)]
    return GEN.rebuild(bundle, prompt_spec=encode(spec), evidence=items)  # type: ignore[no-any-return]


def _ab_text(size: int, seed: int) -> bytes:
    """``size`` pseudo-random letters a/b (SHA-256 stream, deterministic)."""
    stream = b"".join(hashlib.sha256(b"%d/%d" % (seed, n)).digest() for n in range(size // 32))
    return bytes(97 + (byte & 1) for byte in stream)


#: Over the caps of SPEC §12.1 (256 characters, counted repetitions <= 64): before
#: 955d10e, 0.4 ms per evidence character and 3 s of compiling respectively.
SLOW_SEARCH_REGEX = "(" + "(?:[ab]{0,9}){99}" * 25 + "a{30})"
SLOW_COMPILE_REGEX = "(" + "[ab]{0,999}" * 16 + "c)"
#: Within the caps: 36 characters, 204 RE2 instructions, ~3 s per MiB of a/b text.
#: 64 distinct such fields cost ~3 min per MiB without the per-requirement budget
#: (now 8 at most, the field cap of SPEC §4.2; the budget still binds).
BUDGET_REGEX = "((?:[ab]{0,7}){8}a(?:[ab]{0,7}){6}"


def _slow_search() -> bytes:
    return _hostile("14-html-regex", [{"key": "unemployment_rate", "kind": "numeric",
                                       "regex": SLOW_SEARCH_REGEX}],
                    [_ab_text(4096, n) for n in range(4)])


def _slow_compile() -> bytes:
    return _hostile("14-html-regex", [{"key": f"k{n}", "kind": "numeric",
                                       "regex": SLOW_COMPILE_REGEX[:-1] + f"{n})"}
                                      for n in range(8)], [b"x"])  # 8: the field cap


def _long_json_path() -> bytes:
    return _hostile("01-boolean-observed", [{"key": "shipping", "kind": "boolean",
                                             "json_path": "$" + ".a" * 250_000}], [b"{}"] * 40)


def _budget() -> bytes:
    return _hostile("14-html-regex", [{"key": f"k{n}", "kind": "text",
                                       "regex": BUDGET_REGEX + chr(0x3400 + n) + ")"}
                                      for n in range(8)], [_ab_text(1 << 15, 7)])


def _unicode_compile() -> bytes:
    # 8 distinct 252-char patterns (the field cap); each \pL is hundreds of RE2
    # instructions.
    return _hostile("14-html-regex", [{"key": f"k{n}", "kind": "text",
                                       "regex": "(" + "\\pL" * 83 + chr(0x5000 + n) + ")"}
                                      for n in range(8)], [b"x"])


@pytest.mark.parametrize(("make", "size"), [
    pytest.param(_slow_search, 40_000, id="regex-search-over-cap"),
    pytest.param(_slow_compile, 20_000, id="regex-compile-over-cap"),
    pytest.param(_long_json_path, 600_000, id="json-path-over-cap"),
    pytest.param(_budget, 60_000, id="regex-requirement-budget"),
    pytest.param(_unicode_compile, 60_000, id="regex-unicode-compile"),
])
def test_verification_time_is_bounded(make: Any, size: int) -> None:
    """Each of these took minutes to hours before the caps (SPEC §12.1); the alarm is
    a hang guard two orders of magnitude above the measured time, not a benchmark
    (speed is measured in bench/, never asserted)."""
    data = make()
    assert len(data) < size
    with time_limit(HANG_GUARD_SECONDS):
        report = check_bundle(data)
    assert report.status == "rejected"


def test_oversized_patterns_fail_in_the_cheap_probe() -> None:
    """The unicode-compile finding: the 83 x \\pL pattern (~100k RE2 instructions) is
    refused on its text (SPEC §12.1.2: Unicode classes are outside the subset),
    before any engine sees it."""
    from por.auditor import claim_extraction as ce
    from por.auditor.regex_plan import REGEX_SYNTAX

    pattern = "(" + "\\pL" * 83 + "x)"
    assert ce.regex_plan((pattern,)) == (REGEX_SYNTAX,)
