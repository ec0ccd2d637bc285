"""Taking a loop live (course.live), with no network at all: the emulator is served on loopback
as if it were the provider's real host, reached through the base-URL override with a key set, as
lesson 12 reaches it. A wrong key, a rate limit and a budget that stops the run included."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from course import live
from harness import (
    ProviderError,
    Toolbox,
    UserMessage,
    providers,
)
from harness.loop import run
from harness.providers.catalog import KEY_VARIABLES
from harness.trace import Exit
from offline import (
    ScriptedModel,
    Step,
    guard,
)
from offline.cassettes import CASSETTES, read_interactions
from offline.emulator import Emulator, serve
from offline.errors import CassetteError
from offline.replay import replay_file

ROOT = Path(__file__).resolve().parent.parent
KEY = "sk-live-test-0123456789abcdef"  # a fake key: the emulator accepts it, nobody else would
KEY_NAMES = sorted(KEY_VARIABLES)
PATHS = {"openai_chat": "/v1", "openai_responses": "/v1", "anthropic": "/v1",
         "gemini": "/v1beta"}
TASK = [UserMessage(content="Picnic tomorrow: Lisbon or Porto? Check both forecasts.")]
TOOLS = Toolbox.of(live.get_forecast)


@pytest.fixture
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in KEY_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv(live.BASE_URL_VARIABLE, raising=False)


@contextlib.contextmanager
def as_real_host(monkeypatch: pytest.MonkeyPatch, provider: str, emulator: Emulator,
                 key: str = KEY) -> Iterator[live.Target]:
    """The emulator on loopback, reached the live way: a key in the environment, base URL set."""
    variable = providers.PROVIDERS[provider].key_variables[0]
    with serve(emulator) as url:
        monkeypatch.setenv(variable, key)
        monkeypatch.setenv(live.BASE_URL_VARIABLE, url + PATHS[provider])
        yield live.connect(provider)


def plan(target: live.Target, dollars: float = 0.05) -> live.Budget:
    return live.plan_budget(target.options["model"], dollars, prefix=200,
                            max_output_tokens=target.options["max_output_tokens"])


# ---- choosing where runs go --------------------------------------------------------------

def test_without_a_key_the_emulator_answers_on_loopback(no_keys):
    target = live.connect("gemini")
    assert (target.provider, target.key) == ("gemini", None)
    assert target.base_url.startswith("http://127.0.0.1:") and target.base_url.endswith("/v1beta")
    assert target.summary.startswith("No API key") and "nothing leaves this machine" in \
        target.summary
    with httpx.Client() as client:
        reply = target.adapter(client).complete(TASK, tools=TOOLS.specs)
    assert [c.name for c in reply.message.tool_calls] == ["get_forecast", "get_forecast"]


def test_the_preferred_provider_wins_and_any_other_key_is_used_next(no_keys, monkeypatch):
    monkeypatch.setenv("GOOGLE_API_KEY", KEY)
    target = live.connect("anthropic")
    assert (target.provider, target.key, target.host) == (
        "gemini", KEY, "generativelanguage.googleapis.com")
    assert target.options == {"model": "gemini-2.5-flash", "max_output_tokens": 2000}
    assert KEY not in repr(target)  # a printed target must not show the key
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY + "x")
    assert live.connect("anthropic").provider == "anthropic"


def test_an_unknown_provider_is_named_with_the_four_to_choose_from(no_keys):
    with pytest.raises(ValueError, match="unknown provider 'claude'; choose one of: openai_chat"):
        live.connect("claude")


# ---- live, end to end, against the emulator as the real host -------------------------------

@pytest.mark.parametrize("provider", list(providers.PROVIDERS))
def test_a_live_run_is_recorded_scrubbed_in_the_folder_and_replays(no_keys, monkeypatch,
                                                                      tmp_path, provider):
    emulator = Emulator(live.stand_in(), api_key=KEY)
    with as_real_host(monkeypatch, provider, emulator) as target:
        budget = plan(target)
        with live.recording(target, "first", folder=tmp_path) as adapter:
            result = run(live.Metered(adapter, budget), TOOLS, TASK, max_turns=budget.max_turns)
        assert result.status is Exit.DONE and len(emulator.exchanges) == 2
        assert [p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file()] == [
            Path(provider, "first.yaml")]
        text = (tmp_path / provider / "first.yaml").read_text()
        assert KEY not in text and "authorization" not in text.lower()
        assert [i["status"] for i in read_interactions(tmp_path / provider / "first.yaml")] == [
            200, 200]
        with replay_file(tmp_path / provider / "first.yaml", provider=provider,
                         base_url=target.base_url, **target.options) as recorded:
            again = run(recorded, TOOLS, TASK, max_turns=budget.max_turns)
        assert again.messages == result.messages and len(emulator.exchanges) == 2


def test_a_wrong_key_ends_the_run_with_the_real_401_recorded(no_keys, monkeypatch, tmp_path):
    emulator = Emulator(live.stand_in(), api_key="sk-the-right-one-0123456789")
    with as_real_host(monkeypatch, "anthropic", emulator, key=KEY) as target, \
            live.recording(target, "wrong_key", folder=tmp_path) as adapter:
        result = run(live.Metered(adapter, plan(target)), TOOLS, TASK)
    assert result.status is Exit.ERROR and result.error.status == 401
    assert result.error.error_type == "authentication_error"
    (exchange,) = read_interactions(tmp_path / "anthropic" / "wrong_key.yaml")
    assert exchange["status"] == 401
    assert KEY not in (tmp_path / "anthropic" / "wrong_key.yaml").read_text()


def test_a_rate_limit_ends_the_run_with_the_wait_the_provider_asked_for(no_keys, monkeypatch,
                                                                        tmp_path):
    limited = ScriptedModel([Step(error=ProviderError(429, "rate_limit_error", "slow down",
                                                      retry_after=30.0))])
    with as_real_host(monkeypatch, "openai_chat", Emulator(limited, api_key=KEY)) as target, \
            live.recording(target, "limited", folder=tmp_path) as adapter:
        result = run(live.Metered(adapter, plan(target)), TOOLS, TASK)
    assert result.status is Exit.ERROR
    assert (result.error.status, result.error.retry_after) == (429, 30.0)
    assert read_interactions(tmp_path / "openai_chat" / "limited.yaml")[0]["status"] == 429


def test_the_planned_turns_stop_a_model_that_never_stops(no_keys, monkeypatch, tmp_path):
    forever = ScriptedModel(lambda messages, number: Step.call(
        "get_forecast", city=f"City {number}", day="tomorrow"))
    with as_real_host(monkeypatch, "gemini", Emulator(forever, api_key=KEY)) as target, \
            live.recording(target, "forever", folder=tmp_path) as adapter:
        budget = plan(target)
        metered = live.Metered(adapter, budget)
        result = run(metered, TOOLS, TASK, max_turns=budget.max_turns)
    assert budget.max_turns >= 3
    assert result.status is Exit.TURN_CAP and result.turns == budget.max_turns + 1
    assert 0 < metered.spent <= budget.worst_case <= budget.dollars


def test_the_meter_refuses_a_call_the_dollars_left_may_not_cover(no_keys, monkeypatch, tmp_path):
    def novel(city: str, day: str) -> str:
        """A tool far wordier than the plan assumed: 150,000 tokens."""
        return "sunny " * 100_000

    forever = ScriptedModel(lambda messages, number: Step.call("novel", city="Lisbon",
                                                               day="today"))
    emulator = Emulator(forever, api_key=KEY)
    with as_real_host(monkeypatch, "openai_responses", emulator) as target, \
            live.recording(target, "wordy", folder=tmp_path) as adapter:
        budget = plan(target)
        metered = live.Metered(adapter, budget)
        result = run(metered, Toolbox.of(novel), TASK, max_turns=budget.max_turns)
    assert result.status is Exit.ERROR and result.error.status == 402
    assert result.detail.startswith("budget meter HTTP 402 budget: call 2 not sent")
    assert metered.calls == len(emulator.exchanges) == 1 < budget.max_turns
    assert 0 < metered.spent <= budget.dollars


def test_with_the_spending_cap_the_budget_ends_the_run_as_token_cap_not_error(
        no_keys, monkeypatch, tmp_path):
    # The dollars are a cap the caller set: the run ends with the cost cap's exit, nothing is
    # refused, and a dashboard of exits (lesson 11) counts it where caps go, not as an error.
    def novel(city: str, day: str) -> str:
        """A tool far wordier than the plan assumed: 150,000 tokens."""
        return "sunny " * 100_000

    forever = ScriptedModel(lambda messages, number: Step.call("novel", city="Lisbon",
                                                               day="today"))
    emulator = Emulator(forever, api_key=KEY)
    with as_real_host(monkeypatch, "openai_responses", emulator) as target, \
            live.recording(target, "wordy", folder=tmp_path) as adapter:
        budget = plan(target)
        metered = live.Metered(adapter, budget)
        result = live.run_within(metered, Toolbox.of(novel), TASK, max_turns=budget.max_turns)
    assert result.status is Exit.TOKEN_CAP and result.error is None
    assert result.detail.startswith("budget: call 2 not sent: it may cost $")
    assert metered.calls == len(emulator.exchanges) == 1 < budget.max_turns
    assert result.messages[-1].role == "tool"  # every call of the run has its result


def test_within_the_budget_run_within_is_the_kits_loop(no_keys, monkeypatch, tmp_path):
    emulator = Emulator(live.stand_in(), api_key=KEY)
    with as_real_host(monkeypatch, "anthropic", emulator) as target, \
            live.recording(target, "plain", folder=tmp_path) as adapter:
        budget = plan(target)
        hooked = live.run_within(live.Metered(adapter, budget), TOOLS, TASK,
                                 max_turns=budget.max_turns)
    plain = run(live.stand_in(), TOOLS, TASK, max_turns=budget.max_turns)
    assert (hooked.status, hooked.answer) == (plain.status, plain.answer)
    assert [m.role for m in hooked.messages] == [m.role for m in plain.messages]


# ---- the budget arithmetic -----------------------------------------------------------------

def test_plan_budget_prices_the_worst_case_from_the_price_table():
    # gpt-5-mini: $0.25/M in, $2.00/M out. Call k sends at most 1.5 x (100 + (k-1) x 1,500)
    # tokens plus a 400-token preamble, and gets 1,000 back: $0.0021375 for call 1, 0.0027 for
    # call 2, 0.0032625 for call 3, 0.003825 for call 4: $0.01 pays for 3 calls (0.0081), not 4.
    planned = live.plan_budget("gpt-5-mini", 0.01, prefix=100, max_output_tokens=1000)
    assert planned.max_turns == 2  # three calls: two turns and the closing call
    assert planned.worst_case == pytest.approx(0.0081)
    assert planned.worst_call(100) == pytest.approx(0.0021375)


def test_plan_budget_refuses_what_it_cannot_plan():
    with pytest.raises(ValueError, match=r"no price for 'gpt-9'.*harness.providers.catalog.PRICES"):
        live.plan_budget("gpt-9", 1.0, prefix=100, max_output_tokens=1000)
    with pytest.raises(ValueError, match=r"\$0.001 pays for 0 call\(s\) of claude-sonnet-4-6"):
        live.plan_budget("claude-sonnet-4-6", 0.001, prefix=100, max_output_tokens=1000)
    assert live.plan_budget("gpt-5-mini", 100.0, prefix=100, max_output_tokens=100,
                            at_most=7).max_turns == 7


# ---- the learner's folder ------------------------------------------------------------------

def test_recordings_never_overwrite_unless_told(no_keys, tmp_path):
    target = live.connect("anthropic")
    for attempt in (1, 2):
        if attempt == 2:
            with pytest.raises(CassetteError, match="exists: choose another name, or pass "
                                                    "force=True"), \
                    live.recording(target, "same", folder=tmp_path):
                pass
        with live.recording(target, "same", folder=tmp_path, force=attempt == 2) as adapter:
            adapter.complete(TASK, tools=TOOLS.specs)
    assert len(read_interactions(tmp_path / "anthropic" / "same.yaml")) == 1


def test_recordings_never_go_into_the_course_cassettes(no_keys):
    target = live.connect("anthropic")
    with pytest.raises(CassetteError, match="inside the course's cassettes"), \
            live.recording(target, "umbrella", folder=CASSETTES, force=True):
        pass
    assert not list(CASSETTES.rglob("*.recording.yaml"))


def test_a_run_that_raises_leaves_no_file(no_keys, tmp_path):
    target = live.connect("anthropic")
    with pytest.raises(RuntimeError), live.recording(target, "broken", folder=tmp_path) as model:
        model.complete(TASK, tools=TOOLS.specs)
        raise RuntimeError("the learner's loop crashed")
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_the_learners_folder_is_ignored_by_git():
    paths = ["my_work/lessons/my_runs/gemini/run.yaml", "my_work/lessons/my_runs/my_loop.py",
             "lessons/my_runs/my_loop.py"]
    found = subprocess.run(["git", "check-ignore", *paths], cwd=ROOT, capture_output=True,
                           text=True)
    assert found.stdout.split() == paths, "add /my_work/ to .gitignore"
    assert live.RUNS.name == "my_runs" and live.RUNS.parent.parent.name == "my_work"


def test_the_learners_loop_is_loaded_from_their_file(tmp_path):
    good = tmp_path / "my_loop.py"
    good.write_text("def run_agent(model, toolbox, messages, max_turns=10):\n"
                    "    return 'done', 'hi', list(messages)\n")
    assert live.load_loop(good)(None, None, [], max_turns=1) == ("done", "hi", [])
    bad = tmp_path / "other.py"
    bad.write_text("def agent(): pass\n")
    with pytest.raises(ValueError, match=r"other.py has no function run_agent"):
        live.load_loop(bad)


def test_the_guard_opens_only_the_chosen_host_and_only_inside_the_block(no_keys, monkeypatch,
                                                                         tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    target = live.connect("openai_chat")
    assert target.host == "api.openai.com"
    seen = []
    monkeypatch.setattr(guard, "allow_host", lambda host: seen.append(host) or
                        contextlib.nullcontext())
    with live.recording(target, "opened", folder=tmp_path):
        pass
    assert seen == ["api.openai.com"]
