"""The class grader: grade a whole class with the real nbgrader, in parallel, for instructors.

Students never import this package; the exercises' locked cells import only `course.exercises`
(the checks). Run it as `python -m grader autograde "*"` from the course directory, and
`python -m grader release` to regenerate `exercises/` from `solutions/`. Dask is an optional
extra (`pip install -e ".[grader]"`). Nothing is imported here: each command imports what it
needs, and a kernel forked by the grader sees no grader module it did not ask for.
"""
