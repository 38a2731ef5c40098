"""The court's input form (``COURT.yaml``, SPEC §16.4) and its committed rule.

```yaml
court: por-court/1
panel: 3            # N, odd
commit_first: true  # optional (SPEC §16.9): each seat answers the question first
canaries: true      # optional (SPEC §16.10): planted-injection canaries per seat
canary_policy:      # optional (SPEC §16.10, with canaries): a seat with more than
  max_flips: 0      #   max_flips (0..2) flipped canaries has its vote discounted
run: 1              # optional (SPEC §16.11): the pre-registered run number (default 1)
quorum: 3           # optional; a majority of N up to N (default N)
appeal_quorum: 5    # optional; a majority of 2N+1 up to 2N+1 (default 2N+1)
judges:             # N seats, or 2N+1 for a court with an appeal panel
  - judge-0.yaml    # a judge config (por judge lock's input) or a locked .cbor manifest
  - judge: judge-1.yaml          # a seat with its own route (SPEC §16.4)
    api_base: https://api.anthropic.com
    credential_env: ANTHROPIC_API_KEY   # the variable's NAME, never its value
    ca_bundle: certs/ca.pem             # optional; relative to the court file
```
Paths are relative to the court file.  Time is never read here: ``ruled_at``
is the caller's ``--at``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from por.court.aggregate import check_panel
from por.court.errors import CourtError
from por.court.phases import BLIND, CANARY
from por.court.records import MAX_KEPT_FLIPS, MAX_SEATS, CanaryPolicy, CourtRule
from por.errors import PorError, value_error_text
from por.locked_judges.config import parse_config_text
from por.locked_judges.routes import Route, route_from_mapping

COURT_FORMAT = "por-court/1"
RULE: Literal["upper-median/1"] = "upper-median/1"
#: Optional court-file switches (SPEC §16.9, §16.10), off by default.
SWITCHES = ("commit_first", "canaries")


def iso_time(unix: int) -> str:
    """ISO 8601 UTC text of Unix seconds (the committed form of ``--at``)."""
    return datetime.fromtimestamp(unix, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_court(data: bytes) -> tuple[dict[str, int], list[str], list[Route | None]]:
    """(panel, quorum, appeal_quorum), the judge paths and each seat's own route
    (``None``: the command's default route) of a court file."""
    try:
        value: dict[str, Any] = parse_config_text(data)
    except PorError as exc:
        raise CourtError("court.config", f"court file: {exc.message}") from None
    if value.get("court") != COURT_FORMAT:
        raise CourtError("court.config", "not a court file", expected=COURT_FORMAT,
                         actual=str(value.get("court"))[:40])
    unknown = sorted(set(value) - {"court", "panel", "quorum", "appeal_quorum", "judges",
                                   "run", "canary_policy", *SWITCHES})
    if unknown:
        raise CourtError("court.config", f"unknown court options: {', '.join(unknown)}")
    panel = value.get("panel")
    judges = value.get("judges")
    if isinstance(panel, bool) or not isinstance(panel, int):
        raise CourtError("court.config", "panel must be an integer")
    if not isinstance(judges, list) or not 1 <= len(judges) <= MAX_SEATS:
        raise CourtError("court.config", f"judges must be a list of 1..{MAX_SEATS} seats")
    paths, routes = zip(*[_seat(entry, i) for i, entry in enumerate(judges)], strict=True)
    numbers = {"panel": panel, "quorum": value.get("quorum", panel),
               "appeal_quorum": value.get("appeal_quorum", 2 * panel + 1),
               "run": value.get("run", 1)}
    for name, number in numbers.items():
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise CourtError("court.config", f"{name} must be a positive integer")
    for name in SWITCHES:
        if not isinstance(value.get(name, False), bool):
            raise CourtError("court.config", f"{name} must be true or false")
        numbers[name] = int(value.get(name, False))
    if "canary_policy" in value:
        numbers["canary_max_flips"] = _canary_policy(value["canary_policy"],
                                                     numbers["canaries"])
    try:  # before any judge file is read (bounded work)
        check_panel(panel, numbers["quorum"])
        check_panel(2 * panel + 1, numbers["appeal_quorum"])
    except ValueError as exc:
        raise CourtError("court.config", str(exc)) from None
    if len(judges) not in (panel, 2 * panel + 1):
        raise CourtError("court.config", "judges are the panel, or the panel and its appeal "
                         "seats", expected=f"{panel} or {2 * panel + 1}", actual=len(judges))
    return numbers, list(paths), list(routes)


def _canary_policy(policy: Any, canaries: int) -> int:
    """``canary_policy: {max_flips: N}``: N in 0..2, only with ``canaries: true``."""
    if not isinstance(policy, dict) or set(policy) != {"max_flips"}:
        raise CourtError("court.config", "canary_policy is a mapping with max_flips only")
    flips = policy["max_flips"]
    if isinstance(flips, bool) or not isinstance(flips, int) \
            or not 0 <= flips <= MAX_KEPT_FLIPS:
        raise CourtError("court.config", f"canary_policy.max_flips must be 0..{MAX_KEPT_FLIPS}")
    if not canaries:
        raise CourtError("court.config", "canary_policy needs canaries: true")
    return flips


def _seat(entry: Any, seat: int) -> tuple[str, Route | None]:
    """A seat's judge path and own route (``court.config``, ``court.route``)."""
    if isinstance(entry, str):
        return entry, None
    if not isinstance(entry, dict) or not isinstance(entry.get("judge"), str):
        raise CourtError("court.config", f"seat {seat} is a judge path or a mapping with "
                         "judge: PATH and a route")
    route = {k: v for k, v in entry.items() if k != "judge"}

    def fail(message: str, **values: Any) -> CourtError:
        return CourtError("court.route", message, **values)

    return entry["judge"], route_from_mapping(route, fail, f"seat {seat}")


def court_rule(numbers: dict[str, int], seats: int, at: int) -> CourtRule:
    """The committed ``por.CourtRule/1`` (``court.config`` if out of range)."""
    try:
        return CourtRule(rule=RULE, panel=numbers["panel"], quorum=numbers["quorum"],
                         appeal_quorum=numbers["appeal_quorum"], seats=seats,
                         ruled_at=iso_time(at),
                         commit_first=BLIND if numbers.get("commit_first") else None,
                         canaries=CANARY if numbers.get("canaries") else None,
                         run=numbers.get("run", 1),
                         canary_policy=None if "canary_max_flips" not in numbers
                         else CanaryPolicy(max_flips=numbers["canary_max_flips"]))
    except ValueError as exc:
        raise CourtError("court.config",
                         f"court rule out of range: {value_error_text(exc)}") from None


__all__ = ["COURT_FORMAT", "RULE", "SWITCHES", "court_rule", "iso_time", "parse_court"]
