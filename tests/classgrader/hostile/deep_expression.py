"""The reference solution, with a helper in the solution cell whose body is one expression of
1,000 terms: Python compiles and runs it (full marks), but a recursive walk of its syntax tree
runs out of stack, and the near-copy finder's did, ending the run with no summary, report or
copies.csv. The finder walks with a stack of its own; the run ends as usual."""

from classgrader.hostile import append, reference

EXERCISE = "03_no_progress"
EXPECT: dict[str, float] = {}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "the near-copy finder (it walks syntax trees without recursion)"

HELPER = "def _thousand(x):\n    return x + " + " + ".join(["1"] * 999) + "\n"


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    append(notebook, "call_key_solution", HELPER)
    return notebook
