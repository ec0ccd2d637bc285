"""No own work at all: every function of the capstone is a two-line wrapper around the library's
loop and summary, after blinding the checks' watch (one assignment to a private helper of
course.exercises.ownwork). In the kernel the watch sees nothing; but a graded kernel has no loop
to wrap: harness.loop.run and harness.trace.summarize are withheld there."""

from classgrader.hostile import index, reference

EXERCISE = "05_capstone"
EXPECT: dict[str, float] | str = "zero"
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "the withheld kit (graded kernels have no reference loop: grader.withhold)"
EVIDENCE = ["harness.loop.run is withheld while this notebook is graded"]

WRAPPERS = """import course.exercises.ownwork as _ownwork
import harness.loop
import harness.trace

_ownwork.reference_origin = lambda *args, **kwargs: None  # blind the identity check
_ownwork.Tripwire.__enter__ = lambda self: self  # and the tripwire


def run_agent(model, tools, messages, **options):
    return harness.loop.run(model, tools, messages, **options)


def summarize_exits(results):
    summary = harness.trace.summarize(results)
    return {s.value: {"share": summary.share[s], "top_tools": summary.top_tools[s]}
            for s in summary.share}


try:  # shows what the graded kernel says of the reference
    harness.loop.run(None, None, [])
except Exception as error:
    print(error)
"""


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    notebook.cells[index(notebook, "run_agent_solution")].source = WRAPPERS
    notebook.cells[index(notebook, "summarize_exits_solution")].source = "pass"
    return notebook
