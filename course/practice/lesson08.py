"""Lesson 08's pieces: what the model can fix goes back as a result; what only you can fix ends.

`error_result` turns an exception from a tool into an instructive error result, `safe_execute` is
a tool runner that never raises (unknown tool, arguments that are not JSON, a tool that raises),
`retry_waits` is a caller's retry schedule (the loop itself never retries) and `worth_retrying`
reads a `ProviderError` to say whether the same request could pass later. The library's
`harness.tools.execute` also validates arguments against the tool's schema; no exercise grades it.
"""

from __future__ import annotations

from typing import Any

from course.compare import same
from course.practice.engine import Piece, attempt
from course.practice.explain import differs, message_difference
from harness.errors import ProviderError
from harness.messages import ToolCall, ToolMessage
from harness.tools import Toolbox
from offline.scenarios import SCENARIOS


def error_result(call: ToolCall, error: Exception) -> ToolMessage:
    """The tool result for `call` when its tool raised `error`.

    It answers the call's id, is marked `is_error=True`, and its text starts with "Error:", names
    the tool, the exception's type and its message, and ends with what the model could try next.
    """
    return ToolMessage(tool_call_id=call.id, is_error=True,
                       content=f"Error: {call.name} raised {type(error).__name__}: {error}. "
                               "Check the arguments, or try another approach.")


def safe_execute(toolbox: Toolbox, call: ToolCall) -> ToolMessage:
    """Run one call and return its result; never raise.

    An unknown tool gets an error result that names the tools there are. Arguments that were not
    JSON (`call.raw_arguments` is not None) get an error result that quotes them and asks for a
    JSON object. A tool that raises gets `error_result(call, exc)`. Otherwise the result's content
    is `str()` of what the tool returned. Every result answers `call.id`.
    """
    if call.name not in toolbox:
        return ToolMessage(tool_call_id=call.id, is_error=True,
                           content=f"Error: there is no tool named '{call.name}'. Available: "
                                   f"{', '.join(toolbox.tools)}. Use one of those.")
    if call.raw_arguments is not None:
        return ToolMessage(tool_call_id=call.id, is_error=True,
                           content=f"Error: the arguments were not valid JSON: "
                                   f"{call.raw_arguments}. Send them again as a JSON object.")
    try:
        output = toolbox.tools[call.name].function(**call.arguments)
    except Exception as exc:  # the model, not the loop, decides what to do about it
        return error_result(call, exc)
    return ToolMessage(tool_call_id=call.id, content=str(output))


def retry_waits(retry_after: float | None, *, attempts: int = 3, base: float = 1.0,
                cap: float = 60.0) -> list[float]:
    """The seconds a caller waits before each of `attempts` new attempts.

    The waits grow: base, 2 x base, 4 x base, ... (exponential backoff). None is shorter than
    `retry_after`, the wait the provider asked for (None when it gave none), and none is longer
    than `cap`.
    """
    return [min(cap, max(retry_after or 0.0, base * 2 ** attempt)) for attempt in range(attempts)]


def worth_retrying(error: ProviderError) -> bool:
    """Could the same request pass if sent again later?

    True for a timeout (408), a conflict (409), a rate limit (429) and any server error (500 and
    up, such as 503 unavailable or Anthropic's 529 overloaded): the provider may answer next time.
    False for everything else (400 bad request, 401 key, 403 permission, 404 unknown model, ...):
    the same request fails the same way until someone changes it.
    """
    return error.status in (408, 409, 429) or error.status >= 500


ERROR_RESULT = Piece("error_result", lesson="08_errors",
                     section="Your turn: an exception becomes a result", reference=error_result)
SAFE_EXECUTE = Piece("safe_execute", lesson="08_errors", section="A runner that never raises",
                     reference=safe_execute)
RETRY_WAITS = Piece("retry_waits", lesson="08_errors", section="Why the loop does not retry",
                    reference=retry_waits)
WORTH_RETRYING = Piece("worth_retrying", lesson="08_errors",
                       section="Your turn: worth another attempt?", reference=worth_retrying)

_FORECAST = ToolCall(id="call_1", name="get_forecast", arguments={"city": "Lisbon",
                                                                   "day": "tomorrow"})
_RAISED = {
    "get_uv_index raised ConnectionError": (
        ToolCall(id="toolu_01", name="get_uv_index", arguments={"city": "Lisbon"}),
        ConnectionError("UV service unavailable for Lisbon (HTTP 503)")),
    "search_flights raised TimeoutError": (
        ToolCall(id="call_b2u", name="search_flights", arguments={"origin": "LIS"}),
        TimeoutError("flight search timed out after 10 s")),
}


def _is_error_answering(case: str, call: ToolCall, outcome, hint: str):
    """None when `outcome` is an error result for `call`; else the divergence."""
    if outcome.error or not isinstance(outcome.value, ToolMessage):
        said = (f"yours let {type(outcome.error).__name__} escape" if outcome.error else
                f"yours returned {type(outcome.value).__name__}")
        return same(case, "a ToolMessage", outcome,
                    hint=f"{said}; the reference returns an error result for {call.name}: "
                         f"return a ToolMessage, never raise ({hint})")
    answered, flagged = outcome.value.tool_call_id, outcome.value.is_error
    wrong = ([f"answers {answered!r} instead of the call's id {call.id!r}"]
             if answered != call.id else []) + (["is not marked is_error=True"]
                                                 if not flagged else [])
    return same(f"{case}, (tool_call_id, is_error)", (call.id, True), (answered, flagged),
                hint=f"yours {' and '.join(wrong)}: {hint}")


def _missing(text: str, *needed: str) -> list[str]:
    return [word for word in needed if word not in text]


@ERROR_RESULT.behaviour("answers the call's id and is marked as an error")
def _answers_as_error(yours, reference):
    for case, (call, error) in _RAISED.items():
        if found := _is_error_answering(case, call, attempt(yours, call, error),
                                        hint="set tool_call_id=call.id, which pairs the "
                                             "result with its request, and is_error=True"):
            return found
    return None


@ERROR_RESULT.behaviour("says Error:, the tool, the exception and its message, then what to try")
def _instructive(yours, reference):
    for case, (call, error) in _RAISED.items():
        text = attempt(yours, call, error).value.content
        missing = _missing(text, "Error:", call.name, type(error).__name__, str(error))
        if found := same(f"{case}, words missing from the text", [], missing,
                         hint=f"yours says {text!r}, without {missing}: the model reads only "
                              "the text, so name the tool, the type (type(error).__name__) and "
                              "the message (str(error))"):
            return found
        if found := same(f"{case}, the text starts with", "Error:", text[:6],
                         hint="start with \"Error:\": two formats have no error flag"):
            return found
        tail = text.rstrip(" .").endswith(str(error).rstrip(" ."))
        if found := same(f"{case}, a next step after the message", True, not tail,
                         hint=f"yours ends with the exception's own words, {text[-40:]!r}: "
                              "end with what to try next (check the arguments, retry, "
                              "another tool)"):
            return found
    return None


def _toolbox() -> Toolbox:
    return SCENARIOS["tool_errors"].tools()


@SAFE_EXECUTE.behaviour("runs a good call and returns its output as the result")
def _runs_good_calls(yours, reference):
    return differs("tool_errors, get_forecast(Lisbon, tomorrow)",
                   reference(_toolbox(), _FORECAST), attempt(yours, _toolbox(), _FORECAST),
                   lambda want, got: f"{message_difference(want, got)}: a call that goes well "
                                     "gets content=str(output), tool_call_id=call.id, and no "
                                     "is_error")


_FAILING = {
    "tool_errors, an unknown tool get_weather": (
        ToolCall(id="call_2", name="get_weather", arguments={"city": "Lisbon"}),
        ("get_weather", "get_forecast", "get_uv_index"),
        "check `call.name not in toolbox` first; list the tools there are"),
    "tool_errors, arguments that are not JSON": (
        ToolCall(id="call_3", name="get_forecast",
                 raw_arguments='{"city": "Lisbon", "day": tomorrow}'),
        ("JSON", '"day": tomorrow'),
        "when call.raw_arguments is not None, quote it and ask for a JSON object"),
    "tool_errors, get_uv_index raises": (
        ToolCall(id="call_4", name="get_uv_index", arguments={"city": "Lisbon"}),
        ("get_uv_index", "ConnectionError", "UV service unavailable"),
        "catch the exception around the tool's function and return error_result(call, exc)"),
}


@SAFE_EXECUTE.behaviour("answers an unknown tool, bad JSON and an exception with error results")
def _never_raises(yours, reference):
    for case, (call, needed, hint) in _FAILING.items():
        outcome = attempt(yours, _toolbox(), call)
        if found := _is_error_answering(case, call, outcome, hint=hint):
            return found
        missing = _missing(outcome.value.content, *needed)
        if found := same(f"{case}, words missing from the text", [], missing,
                         hint=f"yours says {outcome.value.content[:90]!r}, without {missing}: "
                              f"{hint}"):
            return found
    return None


def _same_on(cases: dict[str, tuple[tuple[Any, ...], dict[str, Any]]], hint: str):
    """A probe: on each case (its arguments and keyword options), yours returns what the
    reference returns; the hint shows both."""
    def probe(yours, reference):
        for case, (args, options) in cases.items():
            if found := differs(case, reference(*args, **options),
                                attempt(yours, *args, **options),
                                lambda want, got, case=case: (
                                    f"for {case} yours gives {got}, the reference {want}: "
                                    f"{hint}")):
                return found
        return None
    return probe


_WAITS = {"no retry-after": ((None,), {}),
          "no retry-after, 5 attempts from 0.5 s": ((None,), {"attempts": 5, "base": 0.5})}
_ASKED = {"retry-after 7.5 s": ((7.5,), {}),
          "retry-after 30 s, 4 attempts": ((30.0,), {"attempts": 4}),
          "retry-after 120 s, cap 60 s": ((120.0,), {}),
          "no retry-after, 8 attempts, cap 20 s": ((None,), {"attempts": 8, "cap": 20.0})}
RETRY_WAITS.behaviour("doubles the wait from `base`, once per attempt")(_same_on(
    _WAITS, "attempt n (from 0) waits base * 2 ** n; one wait per attempt"))
RETRY_WAITS.behaviour("never waits less than the provider asked, nor more than the cap")(
    _same_on(_ASKED, "take max(retry_after or 0, the backoff), then min(cap, that)"))


def _errors(statuses: dict[int, str]) -> dict[str, tuple[tuple[Any, ...], dict[str, Any]]]:
    return {f"HTTP {status} {kind}": ((ProviderError(status, kind, "as the provider said it",
                                                     provider="emulator"),), {})
            for status, kind in statuses.items()}


_RETRY = _errors({408: "request_timeout", 409: "conflict_error", 429: "rate_limit_error",
                  500: "api_error", 503: "UNAVAILABLE", 529: "overloaded_error"})
_GIVE_UP = _errors({400: "invalid_request_error", 401: "authentication_error",
                    403: "permission_error", 404: "not_found_error", 413: "request_too_large",
                    422: "unprocessable_entity"})
WORTH_RETRYING.behaviour("retries timeouts, conflicts, rate limits and server errors")(_same_on(
    _RETRY, "read error.status: 408, 409, 429 and every status from 500 up may pass later"))
WORTH_RETRYING.behaviour("gives up on a bad request, a key, a permission, an unknown model")(
    _same_on(_GIVE_UP, "these fail the same way until someone changes the request: False"))
