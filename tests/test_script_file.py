"""Script files for `python -m course emulate`: YAML steps become `Step`s, and a script that does
not fit is refused with the file, the step and the field named."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.errors import ProviderError
from harness.messages import StopReason
from offline.script_file import ScriptFileError, load, parse

GOOD = """\
- text: Let me look it up.
  thinking: One city, one call.
  calls:
    - name: get_weather
      arguments: {city: Paris}
    - name: get_time
- error: {status: 429, message: slow down, retry_after: 20}
- text: Sunny, 22C in Paris.
  stop_reason: max_tokens
"""


def test_a_script_becomes_steps(tmp_path: Path) -> None:
    path = tmp_path / "script.yaml"
    path.write_text(GOOD)
    first, refusal, last = load(path)
    assert (first.text, first.thinking, first.stop_reason) == (
        "Let me look it up.", "One city, one call.", StopReason.TOOL_USE)
    assert [(c.name, c.arguments) for c in first.calls] == [
        ("get_weather", {"city": "Paris"}), ("get_time", {})]
    assert isinstance(refusal.error, ProviderError)
    assert (refusal.error.status, refusal.error.message, refusal.error.retry_after) == (
        429, "slow down", 20.0)
    assert (last.text, last.stop_reason) == ("Sunny, 22C in Paris.", StopReason.MAX_TOKENS)


@pytest.mark.parametrize(("data", "says"), [
    ({"text": "hi"}, "my.yaml: a script is a list of steps"),
    ([], "a script is a list of steps"),
    (["hi"], "my.yaml: step 1: a step is a mapping"),
    ([{"text": "ok"}, {"txt": "hi"}], "my.yaml: step 2: unknown field 'txt'; the fields are text"),
    ([{"thinking": "hm"}], "step 1: the step has no text, calls or error"),
    ([{"text": 12}], "step 1, field 'text': text (got a number)"),
    ([{"text": "x", "stop_reason": "done"}], "step 1, field 'stop_reason': 'done' is not one of"),
    ([{"calls": {"name": "f"}}], "step 1, field 'calls': a list of calls"),
    ([{"calls": [{"arguments": {}}]}], "step 1, field 'calls[0]': a call is a mapping with a"),
    ([{"calls": [{"name": "f", "arguments": [1]}]}],
     "step 1, field 'calls[0]', 'arguments': a mapping of argument names to values (got a list)"),
    ([{"error": {"status": "429"}}], "step 1, field 'error': a mapping with an HTTP `status`"),
    ([{"error": {"status": 429}, "text": "x"}], "step 1: a step with `error` refuses the call"),
])
def test_a_script_that_does_not_fit_is_refused_where_it_goes_wrong(data: object,
                                                                   says: str) -> None:
    with pytest.raises(ScriptFileError) as caught:
        parse(data, source="my.yaml")
    assert says in str(caught.value)


def test_a_file_that_is_missing_or_not_yaml_is_named(tmp_path: Path) -> None:
    with pytest.raises(ScriptFileError, match=r"nowhere\.yaml: cannot read the script"):
        load(tmp_path / "nowhere.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("- text: [unclosed\n")
    with pytest.raises(ScriptFileError, match=r"broken\.yaml: not valid YAML at line \d"):
        load(broken)
