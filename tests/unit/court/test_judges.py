"""The seed's judge system (seed 003): names, prompts, LLMJudge and its fail-closed errors."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import subprocess
import sys

import pytest
from court_support import AT, COURT, Wire, case, completion, locks, vote
from setup_gate import needs

from por.court.config import iso_time
from por.court.errors import JUDGE_UNAVAILABLE, CourtError, ServiceError
from por.court.seed003 import (
    EVALUATION_TEMPLATE,
    EVALUATION_TEMPLATE_V2,
    SYSTEM_PROMPT,
    DisputeContext,
    Judge,
    JudgeVote,
    LLMJudge,
)
from por.court.seed003.llm_judge import EPOCH, seed_lock
from por.court.seed003.render import context_fields, fill, parse_court_vote, render_messages
from por.errors import PorError

needs_litellm = needs("llm", "litellm is not installed"
                      if importlib.util.find_spec("litellm") is None else None)


def test_the_seed_verification_line_imports_no_http_framework_and_no_llm_client() -> None:
    code = ("from por.court.seed003 import LLMJudge, DisputeContext, JudgeVote; import sys; "
            "print(sorted(m for m in ('fastapi', 'starlette', 'flask', 'litellm', 'aiohttp', "
            "'httpx', 'llama_cpp') if m in sys.modules)); print('OK')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.splitlines() == ["[]", "OK"]


def test_the_committed_prompt_files_are_the_seed_constants() -> None:
    assert (COURT / "prompts" / "system.md").read_text(encoding="utf-8") == SYSTEM_PROMPT
    assert (COURT / "prompts" / "template.md").read_text(encoding="utf-8") == EVALUATION_TEMPLATE
    assert (COURT / "prompts" / "template-v2.md").read_text(encoding="utf-8") == \
        EVALUATION_TEMPLATE_V2
    assert "Ambiguity in the specification favors the worker" in SYSTEM_PROMPT
    assert "No rebuttal" not in SYSTEM_PROMPT  # formatted in the template, not the prompt


def test_the_renderer_is_str_format_on_the_template_and_formats_a_missing_rebuttal() -> None:
    context = case(rebuttal=None).context()
    fields = context_fields(context)
    assert fill(EVALUATION_TEMPLATE, fields) == EVALUATION_TEMPLATE.format(**fields)
    rendered = fill(EVALUATION_TEMPLATE, fields)
    assert "=== REBUTTAL (Worker's response) ===\nNo rebuttal submitted\n" in rendered
    assert '{"worker_pct": <integer 0-100>, "reasoning": "<your explanation>"}' in rendered
    assert fill("{unknown} {{x}}", fields) == "{unknown} {x}"


def test_judge_is_an_abstract_async_interface() -> None:
    with pytest.raises(TypeError):
        Judge()  # type: ignore[abstract]
    assert asyncio.iscoroutinefunction(LLMJudge.evaluate)
    context = DisputeContext(task_spec="s", deliverables=["d"], claim="c", rebuttal=None,
                             task_title="t", reward=5)
    assert context.rebuttal is None and JudgeVote("judge-0", 50, "r", EPOCH).worker_pct == 50


@pytest.mark.parametrize(("content", "check_id"), [
    ('{"worker_pct": 70, "reasoning": "ok"}', None),
    ('{"worker_pct": 500, "reasoning": "x"}', "court.vote_range"),
    ('{"worker_pct": -1, "reasoning": "x"}', "court.vote_range"),
    ('{"worker_pct": 0.2, "reasoning": "x"}', "court.vote_range"),
    ('{"worker_pct": true, "reasoning": "x"}', "court.vote_range"),
    ('{"worker_pct": "70", "reasoning": "x"}', "court.vote_range"),
    ('{"worker_pct": 70}', "court.vote_parse"),
    ('{"worker_pct": 70, "reasoning": "x", "extra": 1}', "court.vote_parse"),
    ('{"worker_pct": 70, "reasoning": 3}', "court.vote_parse"),
    ("worker_pct: 70", "court.vote_parse"),
    ('[70, "x"]', "court.vote_parse"),
])
def test_the_parser_is_the_validator(content: str, check_id: str | None) -> None:
    if check_id is None:
        assert parse_court_vote(content) == ("ok", 70)
    else:
        with pytest.raises(CourtError) as caught:
            parse_court_vote(content)
        assert caught.value.check_id == check_id


def _judge(script, index: int = 0, **kw):  # type: ignore[no-untyped-def]
    lock = locks()[index]
    wire = Wire(script)
    judge = LLMJudge(lock.judge_id, lock.model.model, lock.parameters["temperature"],
                     lock=lock, transport=wire, voted_at=iso_time(AT), **kw)
    return judge, wire


def test_a_vote_carries_the_callers_time_and_the_attempt_is_recorded() -> None:
    judge, wire = _judge(lambda j, a: (200, vote(80, "delivered")))
    got = asyncio.run(judge.evaluate(case().context()))
    assert got == JudgeVote("judge-0", 80, "delivered", "2026-01-01T00:00:00Z")
    assert [a.attempt for a in judge.attempts] == [1]
    assert wire.messages["judge-0"] == render_messages(locks()[0], case().context())
    sent = json.loads(judge.attempts[0].exchange.wire_request)
    assert sent["response_format"]["type"] == "json_object"


MARKER = "RAW-ANSWER-MARKER-1234"


@pytest.mark.parametrize(("answer", "reason"), [
    ((200, vote(500, MARKER)), "court.vote_range"),
    ((200, "not json " + MARKER), "court.vote_parse"),
    # The envelope before the hosted model check: a page that is no chat completion
    # names no model (issue 25 item 5: each kind of bad answer has its own id).
    ((200, b"<html>" + MARKER.encode()), "judgement.response_parse"),
    ((200, completion(vote(50), "another-snapshot")), "judgement.version_mismatch"),
    ((401, b'{"error": "' + MARKER.encode() + b'"}'), "judgement.auth"),
    ((404, b"{}"), "judgement.unavailable"),
])
def test_every_failure_is_judge_unavailable_naming_the_judge_never_the_response(
        answer: tuple[int, str | bytes], reason: str) -> None:
    judge, _ = _judge(lambda j, a: answer)
    with pytest.raises(ServiceError) as caught:
        asyncio.run(judge.evaluate(case().context()))
    exc = caught.value
    assert (exc.code, exc.status, exc.judge_id, exc.reason) == (
        JUDGE_UNAVAILABLE, 502, "judge-0", reason)
    assert exc.check_id == "court.judge_unavailable"
    assert "judge-0" in str(exc) and MARKER not in str(exc) and MARKER not in exc.diagnostics()
    assert len(judge.attempts) == 1  # fail_on kinds are never retried


def test_transient_errors_are_retried_by_the_lock_then_fail_closed() -> None:
    judge, _ = _judge(lambda j, a: (503, b"{}"))
    with pytest.raises(ServiceError) as caught:
        asyncio.run(judge.evaluate(case().context()))
    assert caught.value.reason == "judgement.server_error"
    assert [a.attempt for a in judge.attempts] == [1, 2]  # max_retries 1
    judge, _ = _judge(lambda j, a: (503, b"{}") if a == 1 else (200, vote(40)))
    assert asyncio.run(judge.evaluate(case().context())).worker_pct == 40


def test_a_wire_that_breaks_the_lock_is_unavailable() -> None:
    lock = locks()[0]

    async def rewriting(manifest, messages, call_id):  # type: ignore[no-untyped-def]
        exchange = await Wire(lambda j, a: (200, vote(90)))(manifest, messages, call_id)
        body = json.loads(exchange.wire_request)
        body["model"] = "gpt-4o"
        return type(exchange)(json.dumps(body).encode(), 200, exchange.response)

    judge = LLMJudge(lock.judge_id, lock.model.model, lock.parameters["temperature"], lock=lock,
                     transport=rewriting)
    with pytest.raises(ServiceError) as caught:
        asyncio.run(judge.evaluate(case().context()))
    assert caught.value.reason == "judgement.model_rewritten"


def test_the_seed_constructor_locks_itself_and_a_mismatch_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    judge = LLMJudge("judge-x", "openai/gpt-4o-2024-08-06", 0.2)
    assert judge.lock.model.profile == "openai-chat"
    assert judge.lock.parameters["temperature"] == "0.2"
    assert judge.lock.system_prompt.text == SYSTEM_PROMPT.encode()
    assert seed_lock("judge-x", "openai/gpt-4o-2024-08-06", 0.2) == judge.lock
    with pytest.raises(PorError) as caught:
        LLMJudge("judge-x", "openai/other", 0.2, lock=judge.lock)
    assert caught.value.check_id == "court.lock_mismatch"


@needs_litellm
def test_the_seed_routes_send_nothing_without_a_credential_or_a_route(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    judge = LLMJudge("judge-x", "openai/gpt-4o-2024-08-06", 0.2)
    # The seed route of openai/ is OpenAI's endpoint with OPENAI_API_KEY; unset, the
    # transcript server answers 401 itself: nothing leaves the machine.
    with pytest.raises(ServiceError) as unset:
        asyncio.run(judge.evaluate(case().context()))
    assert unset.value.reason == "judgement.auth"
    bare = LLMJudge("judge-y", "hosted_vllm/local-model", 0.2)
    assert bare.lock.model.profile is None  # openai-compatible: no public endpoint
    with pytest.raises(ServiceError) as unrouted:
        asyncio.run(bare.evaluate(case().context()))
    assert unrouted.value.reason == "court.no_route"


def test_completion_helper_names_the_locked_model() -> None:
    assert json.loads(completion(vote(1), "m"))["model"] == "m"
