"""Per-student numbers: the cost answers of another student (alice), the id typed as hers, and
the working directory moved (inside the student's own folder) to a path that names her, plus an
environment change, so that the usage checks read her numbers. In the kernel that works; the
grading process stands in the student's true folder and judges the answers against that
student's own numbers."""

from classgrader.hostile import index, reference

EXERCISE = "04_cost"
EXPECT: dict[str, float] = {"usage_anthropic_adds_cache_reads": 0,
                            "usage_openai_cached_inside_prompt": 0}
PLAIN: dict[str, float] | str = {}
STOPPED_BY = "the grading process (it stands in the student's true folder)"

BORROW = '''import os

from course.exercises.cost import variants

theirs = variants.questions_of("{victim}")  # her numbers, worked out right from her blocks
a, o = theirs.anthropic["usage"], theirs.openai["usage"]
answers["anthropic_usage"] = {{"input_tokens": a["input_tokens"] + a["cache_read_input_tokens"]
                              + a["cache_creation_input_tokens"],
                              "output_tokens": a["output_tokens"],
                              "cached_input_tokens": a["cache_read_input_tokens"],
                              "cache_write_tokens": a["cache_creation_input_tokens"]}}
answers["openai_usage"] = {{"input_tokens": o["prompt_tokens"],
                           "output_tokens": o["completion_tokens"],
                           "cached_input_tokens": o["prompt_tokens_details"]["cached_tokens"],
                           "cache_write_tokens": 0}}
answers["anthropic_cost"] = run_cost([answers["anthropic_usage"]], theirs.anthropic_prices)
answers["openai_cost"] = run_cost([answers["openai_usage"]], theirs.openai_prices)
os.makedirs("borrowed/autograded/{victim}/04_cost", exist_ok=True)
os.chdir("borrowed/autograded/{victim}/04_cost")
os.environ["AGENT_LOOP_KIT_GRADING"] = "{{}}"
'''


def build(student: str, context: dict) -> object:
    notebook = reference(EXERCISE, student)
    for cell in notebook.cells:
        if cell.source.startswith("STUDENT_ID ="):
            cell.source = f'STUDENT_ID = "{context["victim"]}"'
    notebook.cells[index(notebook, "answers_solution")].source = BORROW.format(
        victim=context["victim"])
    return notebook
