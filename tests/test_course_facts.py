"""What the course says, checked against what the kit does (issue 27's review, item by item).

Each test holds one statement of a lesson, an answer or the glossary to the behaviour it
describes: the number of exits a replay shows, what `max_turns` counts, where a reminder travels
on each wire format, the budget meter's exit. Where a statement cannot be run (a source's claim),
the test holds the text to the fix, so the old error cannot come back unnoticed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from book import vocabulary
from harness import RepeatReminder, Toolbox, loop, providers, run
from offline import ScriptedModel, Step
from offline.emulator import Emulator
from offline.scenarios import SCENARIOS, get_forecast

ROOT = Path(__file__).resolve().parent.parent
NUMBERS = {"five": 5, "six": 6, "seven": 7}


def cells(lesson: str) -> list[str]:
    notebook = json.loads((ROOT / "lessons" / f"{lesson}.ipynb").read_text())
    return ["".join(cell["source"]) for cell in notebook["cells"]]


def text(lesson: str) -> str:
    return "\n".join(cells(lesson))


def test_lesson_11_counts_the_exits_its_replay_shows():
    said = re.search(r"(\w+) exits appear", text("11_traces")).group(1).lower()
    shown = {scenario.expected_exit for scenario in SCENARIOS.values()}
    assert NUMBERS[said] == len(shown), (said, sorted(e.value for e in shown))


def test_max_turns_counts_model_calls_and_runs_tools_on_one_turn_fewer():
    # Lesson 05 and the glossary: max_turns=10 runs tools on nine turns, then the closing call;
    # Gymnasia's ten tool rounds are max_turns=11 in the kit's units.
    def restless(sent, number):
        return Step.call("get_forecast", city=f"town {number}", day="tomorrow")

    for max_turns, rounds in ((10, 9), (11, 10)):
        result = run(ScriptedModel(restless), Toolbox.of(get_forecast), [], max_turns=max_turns)
        ran = [m for m in result.messages if m.role == "tool" and not m.is_error]
        assert (result.turns, len(ran)) == (max_turns + 1, rounds)
    assert "runs the tools of nine of\nthem" in (ROOT / "book/glossary.md").read_text()
    assert "`max_turns=11`" in text("05_stopping")
    assert "nobody will read their results" not in (ROOT / "lessons/answers/03_exercises.md"
                                                    ).read_text()


def test_lesson_05_sizes_the_turn_cap_that_lesson_11_says_it_sized():
    assert "Lesson 5 sized a first turn cap" in text("11_traces")
    sized = text("05_stopping")
    assert "between 4 and 9 turns" in sized and "95th percentile is 12" in sized
    assert "a cap of 25" in sized


@pytest.mark.parametrize(("provider", "shared"), [("anthropic", True), ("gemini", True),
                                                    ("openai_chat", False),
                                                    ("openai_responses", False)])
def test_a_reminder_shares_the_results_user_message_only_on_anthropic_and_gemini(provider,
                                                                                 shared):
    # Lesson 07, question 3: in the neutral transcript the reminder is a message of its own; on
    # Anthropic and Gemini the adapter puts it in the user message that carries the results.
    doom = SCENARIOS["refund_doom_loop"]
    emulator = Emulator(doom.model(provider))
    model = providers.get(provider, client=httpx.Client(transport=emulator))
    doom.run(model, detector=None, reminder=RepeatReminder(), token_budget=4_500, max_turns=12)
    request = emulator.exchanges[3].request  # call 4: the first reminder went out with it
    transcript = request.get("messages") or request.get("input") or request.get("contents")
    last = transcript[-1]
    wire = json.dumps(last)
    assert ("same arguments" in wire) and (
        ("tool_result" in wire or "functionResponse" in wire) == shared), wire[:300]
    assert "Anthropic and Gemini" in cells("07_no_progress")[-1]


def test_lesson_09_no_longer_says_the_order_of_a_replys_calls_means_nothing():
    lesson = text("09_parallel_tools")
    assert "write the config, then run the tests" in lesson
    for wrong in ("order carries no meaning", "order means nothing", "is not an instruction"):
        assert wrong not in lesson, wrong


def test_lesson_10_ties_the_forgetful_model_to_the_postmortem_not_to_responses():
    lesson = text("10_four_providers")
    assert "postmortem" in lesson
    for cell in cells("10_four_providers"):
        if "forgetful" in cell:
            assert "Claude Code" in cell, cell[:200]
    assert "it becomes forgetful and repetitive" not in lesson


def test_answers_10_question_3_lists_the_gains_of_going_stateless_as_gains():
    question = next(c for c in cells("10_four_providers") if c.startswith("## Exercises"))
    assert "two things you gain, and one you give up" in question
    answer = (ROOT / "lessons/answers/10_exercises.md").read_text().split("3. ", 1)[1]
    assert answer.startswith("You gain") and "give up: the smaller requests" in answer


def test_lesson_11_gives_the_agents_sdks_max_turns_handler():
    lesson = text("11_traces")
    assert "MaxTurnsExceeded" in lesson and 'error_handlers={"max_turns": ...}' in lesson


def test_lesson_12_files_the_budget_stop_as_token_cap_not_error():
    lesson = text("12_live")
    assert "live.run_within" in lesson and "`token_cap` exit" in lesson
    assert "the run ends with the `error` exit and says why" not in lesson


def test_the_texts_the_loop_sends_use_the_glossarys_words():
    words = vocabulary.avoided()
    for sent in (loop.NOT_EXECUTED, loop.CLOSING_INSTRUCTION):
        assert not vocabulary.misuses("loop", sent, words), sent
    assert "append_round" in (ROOT / "book/glossary.md").read_text()


def test_student_text_names_its_sources_instead_of_pointing_at_the_course_files():
    for path in sorted((ROOT / "lessons").glob("*.ipynb")):
        for phrase in ("source material", "seed 0", "could not be checked offline",
                       "could not be verified offline"):
            assert phrase not in path.read_text(), f"{path.name}: {phrase!r}"


def test_lesson_08_says_its_closing_paragraph_once():
    last = cells("08_errors")[-1]
    assert last.count("**Graded next:**") == 1
