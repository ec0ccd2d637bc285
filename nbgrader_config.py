"""nbgrader settings for the kit's exercises; the repository root is the course directory.

`solutions/` holds the source notebooks (the only hand-edited copy) and `exercises/` the release
that `python -m grader release` regenerates. The gradebook (gradebook.db) and the
submitted/, autograded/ and feedback/ folders are created here when an instructor grades, and are
ignored by git.
"""

import warnings

from sqlalchemy.exc import SAWarning

c = get_config()  # noqa: F821 (nbgrader injects get_config when it loads this file)

# nbgrader 0.9.6 adds a new submission to the gradebook in a way SQLAlchemy 2 warns about
# ("Object of type <SubmittedAssignment> not in session, add operation ... will not proceed") on
# every autograde. The rows are added correctly all the same; the warning is nbgrader's, not a
# problem with the course, so it is not shown.
warnings.filterwarnings("ignore", category=SAWarning, message=r".*not in session")

c.CourseDirectory.course_id = "agent-loop-kit"
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "exercises"

# A test cell a student deleted (or stripped of its metadata) would silently score 0 as "needs
# manual grade"; put it back from the gradebook and grade it.
c.OverwriteCells.add_missing_cells = True
# nbgrader's OverwriteCells, minus its false "checksum has changed" alarm for every locked cell
# with hidden tests (grader/nbgrader_plugins.py says why); real edits are still reported.
c.Autograde.sanitize_preprocessors = [
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.DeduplicateIds",
    "nbgrader.preprocessors.OverwriteKernelspec",
    "grader.nbgrader_plugins.RestoreLockedCells",
    "nbgrader.preprocessors.CheckCellMetadata",
]
# Plain `nbgrader autograde`, and formgrader's per-submission "Autograde" button, refuse in this
# course with a message pointing to `python -m grader autograde`: they would run students' code
# unsandboxed, as the instructor, and replace the class grader's grades. The class grader's own
# shards allow it (their kernels are sandboxed); so may you, for code you trust, with
# --PlainAutograde.allowed=True.
c.Autograde.exporter_class = "grader.nbgrader_plugins.PlainAutograde"
# Kernels whose kernelspec supports it (ipykernel's does) talk to nbgrader over encrypted ZeroMQ,
# so no kernel prints "running over TCP without encryption"; the class grader's sandboxed kernels
# use unix sockets instead ("required" would refuse them).
c.KernelManager.transport_encryption = "auto"

# Seconds per cell. The checks stop a student's endless loop themselves after 5 s and report it;
# this is the backstop for anything else.
c.Execute.timeout = 60

# Feedback shows the student's notebook as graded, minus the hidden tests. The checks render
# failures without a traceback, so no hidden line is quoted in an error either.
# Long check messages wrap instead of running off the right edge. No output or markdown cell can
# run a script in the page (the class grader already made them inert; this is for any other way).
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "grader.nbgrader_plugins.SanitizeOutputs",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
    "grader.nbgrader_plugins.WrapLongLines",
    "grader.nbgrader_plugins.ClearHiddenTestsInFeedback",
]
