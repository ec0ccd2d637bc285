"""The usage questions answered by asking the kit: the checks' own expected answers, and an
adapter's reading of each usage block. A graded kernel has neither (grader.withhold), so the
answers are empty and score 0."""

from classgrader.hostile import index, reference

EXERCISE = "04_cost"
EXPECT: dict[str, float] | str = {"usage_anthropic_adds_cache_reads": 0,
                                  "usage_openai_cached_inside_prompt": 0}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "the withheld kit (no expected answers or usage readers in a graded kernel)"
EVIDENCE = ["is withheld while this notebook is graded"]

ASK = """try:
    answers.update(check.expected_answers(mine))
except Exception as error:
    print(error)
try:
    from harness.providers import anthropic
    read = anthropic.from_wire({"usage": mine.anthropic["usage"]}).usage.model_dump()
    answers["anthropic_usage"] = {k: v for k, v in read.items() if k != "reasoning_tokens"}
except Exception as error:
    print(error)
"""


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    notebook.cells[index(notebook, "answers_solution")].source = ASK
    return notebook
