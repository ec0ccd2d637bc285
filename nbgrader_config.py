"""nbgrader settings for the kit's exercises; the repository root is the course directory.

`solutions/` holds the source notebooks (the only hand-edited copy) and `exercises/` the release
that `python -m grader release` regenerates. The gradebook (gradebook.db) and the
submitted/, autograded/ and feedback/ folders are created here when an instructor grades, and are
ignored by git.
"""

c = get_config()  # noqa: F821 (nbgrader injects get_config when it loads this file)

c.CourseDirectory.course_id = "agent-loop-kit"
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "exercises"

# A test cell a student deleted (or stripped of its metadata) would silently score 0 as "needs
# manual grade"; put it back from the gradebook and grade it.
c.OverwriteCells.add_missing_cells = True

# Seconds per cell. The checks stop a student's endless loop themselves after 5 s and report it;
# this is the backstop for anything else.
c.Execute.timeout = 60

# Feedback shows the student's notebook as graded, minus the hidden tests. The checks render
# failures without a traceback, so no hidden line is quoted in an error either.
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
    "nbgrader.preprocessors.ClearHiddenTests",
]
