"""``por judge batch`` on both hosted providers' HTTPS stand-ins, then verify offline
(SPEC §15.4 profiles, routes, credentials).  Nothing here leaves 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from provider_support import (
    ANTHROPIC_ENV,
    ANTHROPIC_MODEL,
    OPENAI_ENV,
    OPENAI_MODEL,
    SECRET_ANTHROPIC,
    SECRET_OPENAI,
    files_holding,
    judge_config,
    market_answer,
)
from run_support import needs_litellm, scenario_bundles
from standins import StandIn, Tls, make_tls

from por.cli.app import main
from por.locked_judges import verify_judgement

pytestmark = needs_litellm
SECRETS = [SECRET_OPENAI, SECRET_ANTHROPIC]
#: provider name -> (profile, model, credential variable, secret)
PROVIDERS = {"openai": ("openai-chat", OPENAI_MODEL, OPENAI_ENV, SECRET_OPENAI),
             "anthropic": ("anthropic-messages", ANTHROPIC_MODEL, ANTHROPIC_ENV,
                           SECRET_ANTHROPIC)}


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> Tls:
    return make_tls(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    return scenario_bundles(tmp_path_factory.mktemp("bundles"), 2)


@pytest.fixture(autouse=True)
def credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(OPENAI_ENV, SECRET_OPENAI)
    monkeypatch.setenv(ANTHROPIC_ENV, SECRET_ANTHROPIC)


def _batch(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["judge", "batch", *args, "--json"])
    captured = capsys.readouterr()
    assert not any(s in captured.out + captured.err for s in SECRETS)
    return code, captured.out


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_batch_on_a_hosted_provider_over_https_then_verify_offline(
        provider: str, tls: Tls, bundles: list[str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    profile, model, env, secret = PROVIDERS[provider]
    config = judge_config(tmp_path, f"{provider}-judge", profile, court=False)
    out = tmp_path / "judged"
    with StandIn(provider, tls, key=secret, models=[model], answer=market_answer) as api:
        code, text = _batch([*bundles, "--judge-config", str(config), "--api-base",
                             api.api_base, "--credential-env", env, "--ca-bundle",
                             str(tls.ca), "-o", str(out)], capsys)
        assert code == 0, text
        seen = api.seen
    assert json.loads(text)["status"] == "complete"
    # The provider saw its own credential header, and no header of por's transcript server.
    for _, headers, body in seen:
        names = {n.lower() for n in headers}
        assert ("x-api-key" if provider == "anthropic" else "authorization") in names
        assert not {"x-por-secret", "x-por-call"} & names
        sent = json.loads(body)
        if provider == "anthropic":
            assert "response_format" not in sent and "seed" not in sent
            assert sent["system"][0]["type"] == "text"
        else:
            assert sent["response_format"]["type"] == "json_schema"
            assert not {"top_k", "min_p", "repeat_penalty"} & set(sent)
    summary = verify_judgement((out / "judgement.cbor").read_bytes())  # offline
    header = "x-api-key" if provider == "anthropic" else "authorization"
    assert {c.credential for c in summary.calls} == {f"{header}: <redacted:{env}>"}
    assert main(["judge", "verify", str(out / "judgement.cbor"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verified"] is True
    assert files_holding(tmp_path, SECRETS) == []


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_a_missing_credential_never_reaches_the_provider(  # noqa: PLR0917
        provider: str, tls: Tls, bundles: list[str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    profile, model, env, secret = PROVIDERS[provider]
    monkeypatch.delenv(env)
    config = judge_config(tmp_path, "j", profile, court=False)
    with StandIn(provider, tls, key=secret, models=[model], answer=market_answer) as api:
        code, text = _batch([bundles[0], "--judge-config", str(config), "--api-base",
                             api.api_base, "--credential-env", env, "--ca-bundle",
                             str(tls.ca), "-o", str(tmp_path / "o")], capsys)
        assert api.seen == []
    assert code == 2 and json.loads(text)["error"]["id"] == "judgement.auth"
    assert not (tmp_path / "o").exists()


def test_an_untrusted_certificate_is_an_unreachable_provider(
        tls: Tls, bundles: list[str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    config = judge_config(tmp_path, "j", "openai-chat", court=False)
    with StandIn("openai", tls, key=SECRET_OPENAI, models=[OPENAI_MODEL],
                 answer=market_answer) as api:  # the system store does not know the test CA
        code, text = _batch([bundles[0], "--judge-config", str(config), "--api-base",
                             api.api_base, "--credential-env", OPENAI_ENV, "-o",
                             str(tmp_path / "o")], capsys)
        assert api.seen == []
    assert code == 2 and json.loads(text)["error"]["id"] == "judgement.unavailable"


@pytest.mark.parametrize(("script", "check_id", "attempts"), [
    (["429"], None, 2),  # 429 with Retry-After, then an answer: a vote on attempt 2
    (["500"], None, 2),
    (["timeout"], None, 2),
    (["oversized"], "judgement.response_too_large", 1),
    (["429", "429", "429"], "judgement.rate_limited", 3),  # the lock's budget runs out
])
def test_provider_failures_are_clean_attempts(  # noqa: PLR0917
        script: list[str], check_id: str | None, attempts: int, tls: Tls,
        bundles: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = judge_config(tmp_path, "j", "openai-chat", court=False, mode="partial_save")
    out = tmp_path / "o"
    with StandIn("openai", tls, key=SECRET_OPENAI, models=[OPENAI_MODEL],
                 answer=market_answer, script=script) as api:
        code, text = _batch([bundles[0], "--judge-config", str(config), "--api-base",
                             api.api_base, "--credential-env", OPENAI_ENV, "--ca-bundle",
                             str(tls.ca), "-o", str(out)], capsys)
    assert code == 0, text
    report = json.loads(text)
    summary = verify_judgement((out / "judgement.cbor").read_bytes())
    assert len(summary.calls) == attempts
    if check_id is None:
        assert report["status"] == "complete"
    else:
        assert report["failed"][0]["check_id"] == check_id
    assert files_holding(tmp_path, SECRETS) == []


def test_a_lock_on_the_wrong_profile_is_refused_by_the_provider_and_by_judge_lock(
        tls: Tls, bundles: list[str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    # llama.cpp's samplers on the openai-chat profile: refused before any call.
    config = judge_config(tmp_path, "j", "openai-chat", court=False, parameters={
        "temperature": 0, "top_k": 1, "top_p": 1, "seed": 0, "max_tokens": 8})
    assert main(["judge", "lock", str(config), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["id"] == "lock.profile_parameter"
    # An openai-compatible lock sent to OpenAI: the API refuses top_k (400), a clean
    # invalid_response attempt, never a vote.
    compatible = judge_config(tmp_path, "k", "openai-compatible", court=False,
                              mode="partial_save")
    text = compatible.read_text().replace('"vllm/court-judge-2"', f'"openai/{OPENAI_MODEL}"')
    compatible.write_text(text.replace('"court-judge-2"', f'"{OPENAI_MODEL}"'))
    with StandIn("openai", tls, key=SECRET_OPENAI, models=[OPENAI_MODEL],
                 answer=market_answer) as api:
        code, out = _batch([bundles[0], "--judge-config", str(compatible), "--api-base",
                            api.api_base, "--credential-env", OPENAI_ENV, "--ca-bundle",
                            str(tls.ca), "-o", str(tmp_path / "o")], capsys)
        assert len(api.seen) == 1
    assert code == 0 and json.loads(out)["failed"][0]["check_id"] == "judgement.http_status"
    call = verify_judgement((tmp_path / "o" / "judgement.cbor").read_bytes()).calls[0]
    assert call.status == 400 and b"Unrecognized request argument supplied: min_p" in call.response


@pytest.mark.parametrize(("options", "check_id"), [
    (["--credential-env", OPENAI_ENV], "usage.judge"),  # qualifies --api-base only
    (["--api-base", "http://example.invalid/v1", "--credential-env", OPENAI_ENV],
     "usage.judge"),  # a credential over plain http beyond this machine
    (["--api-base", "https://example.invalid/v1", "--credential-env", "not a name"],
     "usage.judge"),
    (["--api-base", "https://example.invalid/v1", "--ca-bundle", "/nonexistent/ca.pem"],
     "usage.route"),
])
def test_route_options_are_checked_before_any_call(
        options: list[str], check_id: str, bundles: list[str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    config = judge_config(tmp_path, "j", "openai-chat", court=False)
    code, text = _batch([bundles[0], "--judge-config", str(config), *options, "-o",
                         str(tmp_path / "o")], capsys)
    assert code == 2 and json.loads(text)["error"]["id"] == check_id
