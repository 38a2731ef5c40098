"""Every market of the corpus on full-size pages (issue 23 item 2).

``fixtures/markets/pages.py`` wraps each item's committed body in the
surroundings of a real page or payload (50-200 KB, decoys a sloppy locator
would catch).  ``fixtures/markets/pages.sha256`` pins each generated page's
SHA-256 and size, so the pages are fixtures in effect without being in git;
a deliberate change of the generator regenerates the list:
``python tests/unit/test_full_pages.py``.  Each market and each counterfactual
is then built into a bundle, verified by ``verifier.check_bundle`` and must give
the human verdict of its ``expected.json`` / ``counterfactual_expected.json``.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from por.bundle import build  # noqa: E402
from por.scenarios import ExpectedVerdict, list_scenarios, load_scenario  # noqa: E402
from por.schemas import EvidenceBundle, PromptSpec, load_json  # noqa: E402
from verifier import check_bundle  # noqa: E402

MARKETS = ROOT / "fixtures" / "markets"
PINS = MARKETS / "pages.sha256"


def _pages() -> ModuleType:
    spec = importlib.util.spec_from_file_location("market_pages", MARKETS / "pages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PAGES = _pages()


def cases() -> list[tuple[str, str]]:
    """(scenario, "evidence" | "counterfactual") for every committed evidence file."""
    found = []
    for name in list_scenarios():
        found.append((name, "evidence"))
        if (MARKETS / name / "counterfactual_evidence.json").is_file():
            found.append((name, "counterfactual"))
    return found


def inputs(name: str, which: str) -> tuple[PromptSpec, EvidenceBundle, ExpectedVerdict]:
    scenario = load_scenario(name)
    if which == "evidence":
        return scenario.prompt_spec, scenario.evidence, scenario.expected
    folder = MARKETS / name
    evidence = EvidenceBundle.from_json_obj(
        load_json((folder / "counterfactual_evidence.json").read_bytes()))
    expected = ExpectedVerdict.model_validate(
        load_json((folder / "counterfactual_expected.json").read_bytes()), strict=True)
    return scenario.prompt_spec, evidence, expected


def full_size(spec: PromptSpec, evidence: EvidenceBundle) -> EvidenceBundle:
    """The evidence with every 2xx item's body replaced by its full-size page."""
    items = []
    for item in evidence.items:
        if 200 <= item.retrieval_receipt.status_code <= 299:
            items.append(item.model_copy(update={"content": _page(
                spec.market.market_id, item.evidence_id, item.content_type, item.content)}))
        else:
            items.append(item)
    return evidence.model_copy(update={"items": items})


@functools.cache
def _page(market_id: str, evidence_id: str, content_type: str, body: bytes) -> bytes:
    page: bytes = PAGES.full_body(market_id, evidence_id, content_type, body)
    return page


def listing() -> str:
    lines = []
    for name, which in cases():
        spec, evidence, _ = inputs(name, which)
        for item in full_size(spec, evidence).items:
            lines.append(f"{hashlib.sha256(item.content).hexdigest()}  {len(item.content):6d}  "
                         f"{name}/{which}/{item.evidence_id}\n")
    return "# SHA-256, size in bytes and item of every full-size corpus page\n" + "".join(lines)


def test_pages_are_the_pinned_ones() -> None:
    expected = PINS.read_text(encoding="utf-8").splitlines()
    actual = listing().splitlines()
    differ = [pair for pair in zip(expected, actual, strict=False) if pair[0] != pair[1]]
    assert len(expected) == len(actual) and not differ, differ[:1]


def test_pages_are_full_size_and_keep_the_content() -> None:
    sizes = []
    for name, which in cases():
        spec, evidence, _ = inputs(name, which)
        for small, big in zip(evidence.items, full_size(spec, evidence).items, strict=True):
            if big.content is small.content:
                continue  # an error page (non-2xx) stays as committed
            sizes.append(len(big.content))
            if small.content_type != "application/json":  # JSON is re-serialised
                assert PAGES.essential(small.content_type, small.content) in big.content
    assert len(sizes) >= 60
    assert all(PAGES.MIN_SIZE <= size <= PAGES.MAX_SIZE for size in sizes), sizes


@pytest.mark.parametrize(("name", "which"), cases(), ids=lambda v: v)
def test_market_resolves_on_full_size_pages(name: str, which: str) -> None:
    spec, evidence, expected = inputs(name, which)
    result = build(spec, full_size(spec, evidence))
    report = check_bundle(result.data)
    assert report.ok, report.first_failure
    verdict = result.verdict
    assert (verdict.outcome, verdict.resolution_rule_id, verdict.confidence_bps) == (
        expected.outcome, expected.resolution_rule_id, expected.confidence_bps)


def test_a_sloppy_locator_catches_a_decoy() -> None:
    """Canary: 47's first locator took the first score on the page; the full page
    puts a look-alike score board first, so that locator no longer decides YES."""
    spec, evidence, _ = inputs("47-entertainment-critics-percent", "evidence")
    data = spec.to_json_obj()
    data["data_requirements"][0]["expected_fields"][0]["regex"] = 'tomatometerscore="([^"]*)"'
    sloppy = PromptSpec.from_json_obj(data)
    assert build(sloppy, evidence).verdict.outcome == "YES"  # the trimmed page
    assert build(sloppy, full_size(spec, evidence)).verdict.outcome == "INVALID"


def test_wide_locators_fit_the_regex_budget_of_a_full_page() -> None:
    """52's natural status locator (cost 6, with the winner's 6) fit the trimmed page and
    not the full one at 10 units per byte; at 72 (SPEC §17.5) it resolves on both, and
    six decoys of cost 11 before them (8 fields, SPEC §4.2's cap: 78 per byte) exceed
    the full page's budget: they leave the winner's locator within it and refuse the
    status one."""
    spec, evidence, _ = inputs("52-politics-election-winner-page", "evidence")
    assert build(spec, full_size(spec, evidence)).verdict.outcome == "YES"
    data = spec.to_json_obj()
    fields = data["data_requirements"][0]["expected_fields"]
    assert fields[1]["regex"] == '<p class="status">Status: ([A-Z]+)</p>'
    fields[0:0] = [{**fields[1], "key": f"decoy_{i}", "regex": f"(a[ab]{{9}}{i})"}
                   for i in range(6)]
    wide = PromptSpec.from_json_obj(data)
    assert build(wide, evidence).verdict.outcome == "YES"
    assert build(wide, full_size(spec, evidence)).verdict.outcome == "INVALID"


if __name__ == "__main__":
    PINS.write_text(listing(), encoding="utf-8")
    print(f"wrote {PINS.relative_to(ROOT)}")
