"""The loop's own cost per model call, with the ScriptedModel and 25 calls.

Each run makes 25 model calls (24 tool rounds, then an answer). The loop's overhead is the run's
wall time minus the time spent inside the model and the tools, divided by the number of calls.
Reports the median of many runs, so one slow run does not move the figure.
"""

from __future__ import annotations

import statistics
import time

from harness import SystemMessage, Toolbox, UserMessage, run
from offline import ScriptedModel, Step
from offline.scenarios import get_forecast

CALLS = 25
RUNS = 200


def one_run() -> tuple[float, float]:
    steps = [Step.call("get_forecast", city="Lisbon", day=f"day {i}") for i in range(CALLS - 1)]
    model = ScriptedModel([*steps, Step.say("done")])
    prompt = [SystemMessage(content="You are a travel assistant."),
              UserMessage(content="Forecasts for the next 24 days, please.")]
    started = time.perf_counter()
    result = run(model, Toolbox.of(get_forecast), prompt, max_turns=CALLS, detector=None)
    total = time.perf_counter() - started
    assert result.turns == CALLS and result.status.value == "done"
    inside_model = sum(record.seconds for record in result.calls)
    return total, total - inside_model


def main() -> None:
    one_run()  # warm imports and caches
    samples = [one_run() for _ in range(RUNS)]
    total = statistics.median(s[0] for s in samples)
    loop_only = statistics.median(s[1] for s in samples)
    print(f"runs: {RUNS}, calls per run: {CALLS}")
    print(f"whole run (loop + scripted model + tools): {total * 1e3:.2f} ms, "
          f"{total / CALLS * 1e6:.0f} us per call")
    print(f"loop overhead outside the model (tools, bookkeeping, trace): "
          f"{loop_only / CALLS * 1e6:.0f} us per call")


if __name__ == "__main__":
    main()
