"""The one checker of a recorded attempt sequence: locked judges and court seats.

A judgement bundle (SPEC §15.6 step 5) and a court bundle (SPEC §16.6) commit
every attempt of a call as a ``por.JudgeCall/1``.  Offline, each sequence of
one subject's (or one seat's) attempts is checked the same way, in this order
for each call:

1. attempts are numbered ``1..n`` (``judgement.attempt_gap``) and, when the
   caller passes its ``chain`` (SPEC §15.11), each names the run's
   pre-registration and links to the attempt before it with its claim level
   (``judgement.attempt_chain``, ``judgement.preregistration``,
   ``judgement.claim_level``);
2. the caller's identity checks (the subject or case the call names, the
   manifest digest);
3. the stored hashes: wire request, response, request hash rebuilt from the
   wire, messages re-rendered (``judgement.wire_hash``, ``response_hash``,
   ``request_hash``, ``messages_hash``);
4. the caller's response check (``por-judge/1`` replays its verdict);
5. the attempt re-classified from its bytes equals its recorded result
   (a vote that does not parse fails with the parser's check id;
   ``judgement.call_result``);
6. every attempt but the last is one the retry policy retries, within
   ``max_retries`` (``judgement.attempt_after_failure``, ``attempt_budget``).

The last attempt is returned; what it becomes (a judge vote, a court vote, a
failed subject) is the caller's.  Failures are raised through the caller's
``fail`` (each family keeps its error class; the check ids are these).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from por.errors import PorError
from por.locked_judges.attempts import Tried
from por.locked_judges.manifest import RetryPolicy
from por.locked_judges.outcome import NO_STATUS_KINDS, Classified, Exchange, sha256
from por.locked_judges.records import JudgeCall
from por.locked_judges.render import messages_hash
from por.locked_judges.wire import request_hash

#: ``fail(check_id, message, expected=..., actual=...)``: the family's error to raise.
Fail = Callable[..., PorError]
#: A check of one call that raises through ``fail``.
CallCheck = Callable[[JudgeCall], None]


def check_nothing(call: JudgeCall) -> None:
    """The hook of a family with no check at that step."""
    del call


def check_call_hashes(call: JudgeCall, messages: list[dict[str, str]], fail: Fail) -> None:
    """Step 3: the stored hashes rebuild from the stored bytes and the re-rendered prompt."""
    if sha256(call.wire_request) != call.wire_request_hash:
        raise fail("judgement.wire_hash", "wire request bytes do not match their hash",
                   expected=call.wire_request_hash, actual=sha256(call.wire_request))
    if sha256(call.response) != call.response_hash:
        raise fail("judgement.response_hash", "response bytes do not match their hash",
                   expected=call.response_hash, actual=sha256(call.response))
    if request_hash(call.wire_request) != call.request_hash:
        raise fail("judgement.request_hash", "request hash does not rebuild from the wire",
                   expected=call.request_hash, actual=request_hash(call.wire_request))
    if messages_hash(messages) != call.messages_hash:
        raise fail("judgement.messages_hash", "prompt does not re-render to the committed hash",
                   expected=call.messages_hash, actual=messages_hash(messages))


def check_attempts(calls: Sequence[JudgeCall], *, who: str, messages: list[dict[str, str]],
                   policy: RetryPolicy, classify: Callable[[Exchange], Classified],
                   fail: Fail, identity: CallCheck = check_nothing,
                   response: CallCheck = check_nothing,
                   credential_header: str | None = None,
                   chain: CallCheck = check_nothing) -> Tried:
    """Check one non-empty attempt sequence (steps 1-6 above); return its last attempt.

    ``who`` names the sequence in messages ("subject 3", "seat 1");
    ``credential_header`` is the lock's profile's: a recorded ``credential`` names
    it or fails ``judgement.credential_header`` (step 3); ``chain`` (a
    :class:`por.locked_judges.chain.ChainCheck`) is called on each attempt in order (step 1).
    """
    last: Tried | None = None
    for position, call in enumerate(calls):
        if call.attempt != position + 1:
            raise fail("judgement.attempt_gap", f"{who}: attempts are not 1..n",
                       expected=position + 1, actual=call.attempt)
        chain(call)
        identity(call)
        check_call_hashes(call, messages, fail)
        if call.credential is not None and credential_header is not None \
                and call.credential.split(":", 1)[0] != credential_header:
            raise fail("judgement.credential_header", f"{who} attempt {call.attempt} records "
                       "a credential in another header than its profile's",
                       expected=credential_header, actual=call.credential.split(":", 1)[0])
        response(call)
        exchange = Exchange(call.wire_request, call.status, call.response, call.error_kind)
        result = classify(exchange)
        if call.result == "vote" and result.vote is None:
            raise fail(result.check_id, f"{who} attempt {call.attempt} is recorded as a vote "
                       f"but is {result.kind}" + (f": {result.detail}" if result.detail else ""))
        if call.result == "error" and (result.vote is not None or result.kind != call.error_kind):
            raise fail("judgement.call_result", f"{who} attempt {call.attempt}: recorded "
                       "error kind does not follow from the wire bytes",
                       expected=result.kind or "vote", actual=call.error_kind)
        if call.status == 0 and call.error_kind not in NO_STATUS_KINDS:
            raise fail("judgement.call_result", "a call without a status is not a timeout")
        if position < len(calls) - 1:
            if result.kind not in policy.retry_on:
                raise fail("judgement.attempt_after_failure", f"{who}: attempt after a "
                           f"{result.kind or 'vote'} that does not allow a retry")
            if call.attempt > policy.max_retries:
                raise fail("judgement.attempt_budget", f"{who}: too many attempts",
                           expected=policy.max_retries + 1, actual=len(calls))
        last = Tried(call.attempt, exchange, result)
    if last is None:
        raise ValueError("check_attempts needs at least one call")  # callers check first
    return last


__all__ = ["CallCheck", "Fail", "check_attempts", "check_call_hashes", "check_nothing"]
