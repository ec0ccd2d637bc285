"""Tool schemas, errors as results, and batches committed in model order."""

import threading
import time

from harness import Tool, Toolbox, ToolCall, execute, run_calls
from harness.tools import plan_batches


def get_forecast(city: str, day: str = "today") -> str:
    """Forecast for a city."""
    return f"{city} {day}: sun"


def explode(city: str) -> str:
    raise KeyError(city)


def call(tool_name, id="c1", **arguments):
    return ToolCall(id=id, name=tool_name, arguments=arguments)


def test_schema_comes_from_the_signature():
    spec = Tool.from_function(get_forecast).spec
    assert spec.name == "get_forecast" and spec.description == "Forecast for a city."
    assert spec.parameters == {
        "type": "object", "additionalProperties": False, "required": ["city"],
        "properties": {"city": {"type": "string"}, "day": {"type": "string", "default": "today"}}}


def test_schema_from_pydantic_types():
    from pydantic import BaseModel

    class Place(BaseModel):
        city: str
        country: str

    def weather(place: Place, days: list[int]) -> str:
        return f"{place.city}: {days}"

    tool = Tool.from_function(weather)
    assert tool.spec.parameters["properties"]["days"] == {"type": "array",
                                                         "items": {"type": "integer"}}
    result = execute(Toolbox.of(tool), call("weather", place={"city": "Lisbon", "country": "PT"},
                                            days=[1, 2]))
    assert result.content == "Lisbon: [1, 2]" and not result.is_error


def test_tools_built_again_are_equal_and_independent():
    # The schema is built once per signature (harness.tools._arguments): each spec still owns
    # its dict, so changing one tool's schema cannot reach another's.
    first, second = Tool.from_function(get_forecast), Tool.from_function(get_forecast)
    assert first.spec == second.spec and first.arguments_model is second.arguments_model
    first.spec.parameters["properties"]["city"]["type"] = "integer"
    assert second.spec.parameters["properties"]["city"] == {"type": "string"}
    assert Tool.from_function(get_forecast, name="forecast").spec.name == "forecast"


def test_a_tool_with_an_unhashable_default():
    def tag(labels: list[str] = ["urgent"]) -> str:  # noqa: B006 - the default is the point
        return ",".join(labels)

    tool = Tool.from_function(tag)
    assert tool.spec.parameters["properties"]["labels"]["default"] == ["urgent"]
    assert execute(Toolbox.of(tool), call("tag")).content == "urgent"


def test_success():
    result = execute(Toolbox.of(get_forecast), call("get_forecast", city="Lisbon"))
    assert (result.tool_call_id, result.content, result.is_error) == ("c1", "Lisbon today: sun",
                                                                      False)


def test_unknown_tool_lists_the_available_ones():
    result = execute(Toolbox.of(get_forecast), call("get_weather", city="Lisbon"))
    assert result.is_error
    assert "no tool named 'get_weather'" in result.content and "get_forecast" in result.content


def test_invalid_json_arguments_quote_the_text_and_ask_for_json():
    bad = ToolCall(id="c9", name="get_forecast", raw_arguments='{"city": Lisbon}')
    result = execute(Toolbox.of(get_forecast), bad)
    assert result.is_error and result.tool_call_id == "c9"
    assert '{"city": Lisbon}' in result.content and "valid JSON object" in result.content


def test_validation_failure_names_the_field():
    result = execute(Toolbox.of(get_forecast), call("get_forecast", town="Lisbon"))
    assert result.is_error
    assert "city: Field required" in result.content and "town" in result.content


def test_an_exception_becomes_a_result():
    result = execute(Toolbox.of(explode), call("explode", city="Lisbon"))
    assert result.is_error and "raised KeyError" in result.content


def test_batches_split_at_exclusive_and_unknown_calls():
    tools = Toolbox.of(Tool.from_function(get_forecast, mode="parallel"), explode)
    calls = [call("get_forecast", id="a"), call("get_forecast", id="b"), call("explode", id="c"),
             call("get_forecast", id="d"), call("mystery", id="e"), call("get_forecast", id="f")]
    batches = plan_batches(calls, tools.mode_of)
    assert [[c.id for c in b] for b in batches] == [["a", "b"], ["c"], ["d"], ["e"], ["f"]]


def test_default_runs_one_at_a_time_in_model_order():
    order = []

    def record(label: str) -> str:
        order.append(label)
        return label

    tools = Toolbox.of(Tool.from_function(record, mode="parallel"))
    calls = [call("record", id=str(i), label=str(i)) for i in range(5)]
    results = run_calls(tools, calls)
    assert order == ["0", "1", "2", "3", "4"] and [r.content for r in results] == order


def test_slow_parallel_call_finishing_last_still_commits_in_model_order():
    finished = []

    def fetch(name: str, delay: float) -> str:
        time.sleep(delay)
        finished.append(name)
        return name

    tools = Toolbox.of(Tool.from_function(fetch, mode="parallel"))
    calls = [call("fetch", id="slow", name="slow", delay=0.2),
             call("fetch", id="fast", name="fast", delay=0.0)]
    results = run_calls(tools, calls, parallel=True)
    assert finished == ["fast", "slow"]  # they really ran concurrently
    assert [r.tool_call_id for r in results] == ["slow", "fast"]


def test_an_exclusive_call_waits_for_the_batch_before_it():
    events = []
    lock = threading.Lock()

    def read(name: str) -> str:
        time.sleep(0.05)
        with lock:
            events.append(f"read {name} done")
        return name

    def write(name: str) -> str:
        with lock:
            events.append(f"write {name} start")
        return name

    tools = Toolbox.of(Tool.from_function(read, mode="parallel"), write)
    calls = [call("read", id="1", name="a"), call("read", id="2", name="b"),
             call("write", id="3", name="c"), call("read", id="4", name="d")]
    results = run_calls(tools, calls, parallel=True)
    assert events.index("write c start") == 2  # after both reads, before the last one
    assert events[-1] == "read d done"
    assert [r.tool_call_id for r in results] == ["1", "2", "3", "4"]
