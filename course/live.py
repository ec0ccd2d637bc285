"""Taking a loop live: one provider, a budget fixed before the first call, recordings of your own.

`connect` picks the provider: the one asked for if its key is set, else the first with a key.
With no key at all it serves the emulator on loopback, answering from `stand_in()`, so the same
code runs offline. `plan_budget` turns dollars into `max_turns` from the price table before the
first call; `Metered` adds up what each call cost, and `SpendingCap`, a hook on the loop's
`before_call`, ends the run with the `token_cap` exit (the kit's cost cap) before a call the
dollars left may not cover. `Metered` still refuses such a call itself (HTTP 402, nothing sent)
for a loop without that hook. `recording` records runs into the learner's folder (`RUNS`,
git-ignored), never into `cassettes/`, scrubbed as `offline.record` scrubs, and refuses to
overwrite unless told.

It does not retry, stream, or choose a model for you beyond a cheap default; the network guard
stays on and only the chosen provider's host is opened, only while a recording block runs.
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import importlib
import importlib.util
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from harness import providers
from harness.cost import Price, run_cost
from harness.errors import ProviderError
from harness.hooks import Moment, Stop, from_options, run_hooked
from harness.messages import Message, Model, Reply, ToolMessage, ToolSpec
from harness.providers._http import default_client
from harness.providers.catalog import KEY_VARIABLES, PRICES
from harness.tools import Toolbox
from harness.trace import Exit, RunResult
from offline import guard
from offline.cassettes import CASSETTES, use
from offline.dictform import to_dicts
from offline.errors import CassetteError
from offline.record import check_scrubbed, key_for
from offline.scripted import ScriptedModel, Step
from offline.tokens import count_tokens

RUNS = Path(os.environ.get("AGENT_LOOP_KIT_RUNS")
            or Path(__file__).resolve().parent.parent / "my_work" / "lessons" / "my_runs")
"""Beside the student's copy of lesson 12 (course.copies), git-ignored like all of my_work/."""
BASE_URL_VARIABLE = "AGENT_LOOP_KIT_BASE_URL"  # another endpoint for the chosen provider
# Real tokenizers cut JSON finer than characters / 4, and providers add their own tool preamble:
# the worst case counts half as many tokens again, plus this many.
PREAMBLE_TOKENS = 400
_servers = contextlib.ExitStack()
atexit.register(_servers.close)


@dataclass(frozen=True)
class Target:
    """Where runs go: a provider, its model, its key (None: the emulator answers) and base URL."""

    provider: str
    base_url: str
    key: str | None = field(repr=False)  # never printed: notebook outputs get shared
    options: dict[str, Any] = field(default_factory=dict)
    """Adapter options (model, max_output_tokens): replaying a recording needs the same ones."""

    @property
    def host(self) -> str:
        return urlsplit(self.base_url).hostname or ""

    @property
    def summary(self) -> str:
        if self.key is None:
            names = ", ".join(sorted(KEY_VARIABLES))
            return (f"No API key ({names}): running on the emulator on loopback, "
                    f"{self.provider} wire format; nothing leaves this machine.")
        return f"Live: {self.provider}, model {self.options['model']}, at {self.base_url}."

    def adapter(self, client: httpx.Client) -> Any:
        from offline.emulator import OFFLINE_KEY

        return providers.get(self.provider, client=client, base_url=self.base_url,
                             api_key=self.key or OFFLINE_KEY, **self.options)

    def opened(self) -> contextlib.AbstractContextManager[None]:
        """The guard opened for this one host, and only with a key: the emulator is on loopback,
        which the guard never closes."""
        return guard.allow_host(self.host) if self.key else contextlib.nullcontext()


def connect(preferred: str, *, model: str | None = None, max_output_tokens: int = 2000,
            offline_model: Model | None = None) -> Target:
    """The provider to run on: `preferred` if its key is set, else the first with a key, else
    the emulator on loopback answering from `offline_model` (default: `stand_in()`)."""
    from offline.emulator import Emulator, serve

    providers.provider(preferred)  # a ValueError naming the providers, for a typo
    keyed = [preferred] + [p for p in providers.PROVIDERS if p != preferred]
    provider = next((p for p in keyed if key_for(p)), None)
    chosen = provider or preferred
    facts = providers.PROVIDERS[chosen]
    default_url = facts.base_url
    # A cheap model unless told otherwise, so that a lesson's runs cost cents.
    options = {"model": model or facts.live_model, "max_output_tokens": max_output_tokens}
    if provider is not None:
        base_url = os.environ.get(BASE_URL_VARIABLE) or default_url
        return Target(provider, base_url, key_for(provider), options)
    url = _servers.enter_context(serve(Emulator(offline_model or stand_in())))
    return Target(chosen, url + urlsplit(default_url).path, None, options)


@dataclass(frozen=True)
class Budget:
    """A run's hard limits, from dollars and the price table, fixed before the first call."""

    model: str
    dollars: float
    price: Price
    max_output_tokens: int
    max_turns: int
    worst_case: float
    """What `max_turns` turns and the closing call could cost at most."""

    def worst_call(self, input_tokens: int) -> float:
        """The most one call of this many input tokens (as the kit counts) could cost."""
        rate = max(self.price.input, self.price.cache_write or 0.0)  # a cache write costs more
        padded = input_tokens * 3 // 2 + PREAMBLE_TOKENS
        return (padded * rate + self.max_output_tokens * self.price.output) / 1_000_000


def plan_budget(model: str, dollars: float, *, prefix: int, max_output_tokens: int,
                result_tokens: int = 500, at_most: int = 20) -> Budget:
    """The most turns `dollars` pays for in the worst case: every reply as long as
    `max_output_tokens`, every turn's tool results `result_tokens` long, the closing call too."""
    if model not in PRICES:
        raise ValueError(f"no price for {model!r} in harness.providers.catalog.PRICES (it has "
                         f"{', '.join(PRICES)}): add its Price from the provider's pricing page.")
    price, growth = PRICES[model], max_output_tokens + result_tokens
    budget = Budget(model, dollars, price, max_output_tokens, max_turns=0, worst_case=0.0)

    def worst(calls: int) -> float:  # call k sends the prefix and k - 1 turns of growth
        return sum(budget.worst_call(prefix + k * growth) for k in range(calls))

    calls = 0
    while calls < at_most + 1 and worst(calls + 1) <= dollars:
        calls += 1
    if calls < 2:
        raise ValueError(f"${dollars:g} pays for {calls} call(s) of {model} in the worst case "
                         f"(${worst(2):.4f} for one turn and the closing call): raise the "
                         f"budget, lower max_output_tokens or shorten the prompt.")
    return dataclasses.replace(budget, max_turns=calls - 1, worst_case=worst(calls))


class Metered:
    """A model that adds up what each call cost and refuses, before sending, a call whose worst
    case the dollars left may not cover: a `ProviderError` with status 402, nothing sent. (With
    `SpendingCap` on the loop, the run stops first, with its own exit.)"""

    def __init__(self, model: Any, budget: Budget):
        self.model, self.budget, self.spent, self.calls = model, budget, 0.0, 0

    def over_budget(self, messages: Sequence[Message], tools: Sequence[ToolSpec]) -> str | None:
        """Why the next call may not be sent (its worst case against the dollars left), or None."""
        sent = count_tokens([to_dicts(list(messages)), [t.model_dump() for t in tools]])
        worst, left = self.budget.worst_call(sent), self.budget.dollars - self.spent
        if worst <= left:
            return None
        return (f"call {self.calls + 1} not sent: it may cost ${worst:.4f} and ${left:.4f} of "
                f"${self.budget.dollars:g} is left")

    def complete(self, messages: Sequence[Message], *, tools: Sequence[ToolSpec] = (),
                 tool_choice: Any = "auto") -> Reply:
        if why := self.over_budget(messages, tools):
            raise ProviderError(402, "budget", why, provider="budget meter")
        reply = self.model.complete(messages, tools=tools, tool_choice=tool_choice)
        self.calls += 1
        self.spent += run_cost([reply.usage], self.budget.price)
        return reply


class SpendingCap:
    """A hook for `harness.hooks.run_hooked`: before each model call, end the run with the
    `token_cap` exit when the meter says the dollars left may not cover it. A cap the caller set
    is a cap, not the provider refusing a send (`error`), and a dashboard counts it as one."""

    def __init__(self, meter: Metered, tools: Sequence[ToolSpec]):
        self.meter, self.tools = meter, tools

    def before_call(self, moment: Moment) -> Stop | None:
        why = self.meter.over_budget(moment.run.messages, self.tools)
        return Stop(Exit.TOKEN_CAP, f"budget: {why}") if why else None


def run_within(meter: Metered, tools: Toolbox, messages: Sequence[Message], *,
               max_turns: int) -> RunResult:
    """`harness.loop.run`, as its hooks (`from_options()`), with `SpendingCap` before them."""
    return run_hooked(meter, tools, messages, [SpendingCap(meter, tools.specs), *from_options()],
                      max_turns=max_turns)


@contextlib.contextmanager
def recording(target: Target, name: str, *, force: bool = False,
              folder: Path | None = None) -> Iterator[Any]:
    """Record every call made through the yielded adapter into `folder/<provider>/<name>.yaml`.

    The file appears only when the block ends without an exception and holds no key from the
    environment; an existing file is kept unless `force`."""
    path = (folder or RUNS) / target.provider / f"{name}.yaml"
    if path.resolve().is_relative_to(CASSETTES.resolve()):
        raise CassetteError(f"{path} is inside the course's cassettes/: record into your own "
                            f"folder ({RUNS}).")
    if path.exists() and not force:
        raise CassetteError(f"{path} exists: choose another name, or pass force=True to "
                            f"replace it.")
    scratch = path.with_suffix(".recording.yaml")
    scratch.parent.mkdir(parents=True, exist_ok=True)
    scratch.unlink(missing_ok=True)
    try:
        with target.opened(), default_client() as client, \
                use(scratch, record_mode="all"):
            yield target.adapter(client)
        if scratch.exists():  # vcrpy writes nothing when no call was made
            check_scrubbed(scratch)
            scratch.replace(path)
    except BaseException:
        scratch.unlink(missing_ok=True)
        raise


def load_loop(path: Path) -> Callable[..., Any]:
    """`run_agent` from a Python file of yours, e.g. `my_runs/my_loop.py`."""
    spec = importlib.util.spec_from_file_location(f"learner_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path} is not a Python file: save your loop as a .py file.")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not callable(getattr(module, "run_agent", None)):
        raise ValueError(f"{path} has no function run_agent(model, toolbox, messages, "
                         f"max_turns): define it there, or delete the file to use the worked loop.")
    return module.run_agent


def get_forecast(city: str, day: str) -> str:
    """The weather forecast for a city on a day ("today", "tomorrow" or a date)."""
    table = {"lisbon": "sunny, 24 C, wind 10 km/h", "porto": "cloudy, 19 C, showers after 3 pm"}
    return f"{city}, {day}: {table.get(city.lower(), 'no forecast for this city')}"


def stand_in() -> ScriptedModel:
    """What answers without a key: a script for the sample task (a picnic in Lisbon or Porto),
    that, like a live model, takes a different path on every other run."""
    runs = []

    def reply(messages: list[Message], number: int) -> Step:
        results = [m.content for m in messages if isinstance(m, ToolMessage)]
        if not any(m.role == "assistant" for m in messages):
            runs.append(number)
        both = len(runs) % 2  # odd runs ask for both forecasts at once, even runs one by one
        if not results and both:
            return Step.call_many(("get_forecast", {"city": "Lisbon", "day": "tomorrow"}),
                                  ("get_forecast", {"city": "Porto", "day": "tomorrow"}))
        if len(results) < 2 and not both:
            city = ("Lisbon", "Porto")[len(results)]
            return Step.call("get_forecast", city=city, day="tomorrow")
        if both:
            return Step.say(f"Lisbon. The forecasts: {results[0]}; {results[1]}.")
        return Step.say(f"Go to Lisbon ({results[0]}); Porto has {results[1].split(': ')[-1]}.")

    return ScriptedModel(reply, name="stand-in")
