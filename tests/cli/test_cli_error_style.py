"""Issue 26 item 5: one error style, no validator text.

Every error line is ``por: <check id>: <one plain sentence>``; pydantic's
``[type=..., input_value=..., input_type=...]``, its "For further information
visit ..." link and "after validation" never reach a user, in text or in the
``por/error/1`` document.  Before: ``dispute open --claim ''`` and ``judge
lock`` of an out-of-range config printed the validator's text.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_signing_support import run

from por.cli.common import plain_message

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = str(ROOT / "fixtures" / "bundles" / "valid" / "01-boolean-observed.cbor")
JUDGES = ROOT / "fixtures" / "judges"
MARKET = ROOT / "fixtures" / "markets" / "01-boolean-observed"
PHRASES = ("type=", "input_value=", "input_type=", "For further inform", "errors.pydantic.dev",
           "after validation", "validation error for", "Extra inputs are not permitted",
           "Field required")


def _config(tmp_path: Path, old: str, new: str) -> str:
    shutil.copytree(JUDGES / "prompts", tmp_path / "prompts")
    text = (JUDGES / "por-judge-1.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "judge.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return str(path)


def _error_paths(tmp_path: Path) -> list[tuple[str, ...]]:
    spec = json.loads((MARKET / "prompt_spec.json").read_text(encoding="utf-8"))
    spec["market"]["market_id"] = ""
    bad_spec = tmp_path / "spec.json"
    bad_spec.write_text(json.dumps(spec), encoding="utf-8")
    garbage = tmp_path / "garbage.cbor"
    garbage.write_bytes(b"\xa1\x66schema\x60")
    return [
        ("dispute", "open", BUNDLE, "--leaf", "verdict", "--claim", "", "-o",
         str(tmp_path / "case.cbor")),
        ("judge", "lock", _config(tmp_path / "a", "judge_id: por-judge-1", 'judge_id: ""')),
        ("judge", "lock", _config(tmp_path / "b", "timeout_seconds: 30",
                                  "timeout_seconds: -5")),
        ("build", "--prompt-spec", str(bad_spec), "--evidence",
         str(MARKET / "evidence.json"), "-o", str(tmp_path / "b.cbor")),
        ("verify", str(garbage)),
        ("check-proof", str(garbage)),
        ("court", "verify", str(garbage)),
        ("judge", "verify", str(garbage)),
    ]


def test_no_validator_text_on_any_error_path(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for argv in _error_paths(tmp_path):
        for mode in ((), ("--json",)):
            code, out, err = run(capsys, *argv, *mode)
            assert code in {1, 2}, (argv, out, err)
            for phrase in PHRASES:
                assert phrase not in out + err, (argv, mode, out, err)
            if not mode and argv[0] not in {"verify", "check-proof"}:
                assert err.startswith("por: ") and len(err.strip().splitlines()) == 1, err


def test_plain_message_removes_the_validator_wording() -> None:
    text = ("claim: String should have at least 1 character [type=string_too_short, "
            "input_value='', input_type=str] For further information visit "
            "https://errors.pydantic.dev/2.14/v/string_too_short")
    assert plain_message(text) == "claim: String should have at least 1 character"
    assert plain_message("List should have at most 4194304 items after validation, not 5") \
        == "List should have at most 4194304 items, not 5"
    assert plain_message("cut off [type=x, input_value='a', For further inform") == "cut off"


def _more_error_paths(tmp_path: Path) -> list[tuple[str, ...]]:
    """One or more hostile or wrong inputs for every command (issue 26: every
    error path, not only those that were seen to leak)."""
    garbage = tmp_path / "garbage.cbor"
    garbage.write_bytes(b"\xa1\x66schema\x60")
    empty = tmp_path / "empty.cbor"
    empty.write_bytes(b"")
    evidence = json.loads((MARKET / "evidence.json").read_text(encoding="utf-8"))
    evidence["items"][0]["content_text"] = 12
    evidence["items"][0]["unexpected"] = [1, 2]
    bad_evidence = tmp_path / "evidence.json"
    bad_evidence.write_text(json.dumps(evidence), encoding="utf-8")
    spec = json.loads((MARKET / "prompt_spec.json").read_text(encoding="utf-8"))
    spec["data_requirements"] = "many"
    bad_spec = tmp_path / "spec2.json"
    bad_spec.write_text(json.dumps(spec), encoding="utf-8")
    key = tmp_path / "bad.key"
    key.write_text('{"schema": "por.PrivateKey/1", "scheme": 5, "secret_hex": []}\n',
                   encoding="utf-8")
    key.chmod(0o600)
    court = tmp_path / "court.yaml"
    court.write_text("court: por-court/1\npanel: '3'\njudges: {a: 1}\n", encoding="utf-8")
    out = str(tmp_path / "out.cbor")
    return [
        ("build", "--prompt-spec", str(MARKET / "prompt_spec.json"), "--evidence",
         str(bad_evidence), "-o", out),
        ("build", "--prompt-spec", str(bad_spec), "--evidence", str(MARKET / "evidence.json"),
         "-o", out),
        ("build", "--prompt-spec", str(MARKET / "prompt_spec.json"), "--evidence",
         str(MARKET / "evidence.json"), "--key", str(key), "-o", out),
        ("sign", BUNDLE, "--key", str(key), "-o", out),
        ("inspect", str(garbage)),
        ("explain", str(garbage)),
        ("attestation", str(garbage)),
        ("attestation", BUNDLE),
        ("verify", str(MARKET / "prompt_spec.json")),
        ("verify", "--key", str(key), BUNDLE),
        ("check-proof", str(empty)),
        ("check-proof", BUNDLE),
        ("challenge", BUNDLE, "--evidence", "no-such-id", "-o", out),
        ("challenge", str(garbage), "--verdict", "-o", out),
        ("dispute", "open", BUNDLE, "--leaf", "verdict", "--claim", "x" * 70000, "-o", out),
        ("dispute", "open", str(garbage), "--leaf", "verdict", "--claim", "x", "-o", out),
        ("court", "rule", CASE, "--court", str(court), "--at", "1", "--replay-from", CASE,
         "-o", str(tmp_path / "r")),
        ("court", "verify", str(empty)),
        ("judge", "batch", BUNDLE, "--judge-config", str(court), "-o", str(tmp_path / "j")),
        ("judge", "sign", str(garbage), "--key", str(key), "--at", "1", "-o", out),
        ("judge", "replay", str(garbage), "--judge-config", str(JUDGES / "por-judge-1.yaml"),
         "-o", str(tmp_path / "p")),
        ("judge", "lock", str(court)),
        ("schema", "NoSuchSchema"),
        ("keygen", "-o", "-"),
    ]


CASE = str(ROOT / "fixtures" / "court" / "valid" / "case.cbor")


def test_no_validator_text_on_more_error_paths(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    seen = set()
    for argv in _more_error_paths(tmp_path):
        seen.add(argv[0] if argv[0] not in {"judge", "court", "dispute"} else argv[:2])
        for mode in ((), ("--json",)):
            if mode and argv[0] == "schema":
                continue  # `por schema` has no --json
            code, out, err = run(capsys, *argv, *mode)
            assert code in {1, 2}, (argv, out, err)
            for phrase in PHRASES:
                assert phrase not in out + err, (argv, mode, out, err)
            if mode:
                json.loads(out)  # one JSON document on every error path
            elif argv[0] not in {"verify", "check-proof"}:
                assert err.startswith("por: ") and len(err.strip().splitlines()) == 1, err
    assert len(seen) >= 17


def test_no_validator_text_in_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (("verify", "--now", "abc", "x"), ("build", "--ttl", "0", "-o", "x"),
                 ("sign", "--chain-id", "-1", "x"), ("dispute", "open", "--reward", "x")):
        code, out, err = run(capsys, *argv, "--json")
        assert code == 2 and json.loads(out)["error"]["id"] == "usage.options"
        for phrase in PHRASES:
            assert phrase not in out + err, (argv, out, err)
