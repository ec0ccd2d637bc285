"""The course's machinery: what runs behind the lessons and the exercises.

Nobody is asked to read it.
`practice` checks each your-turn piece of a lesson at once; `exercises` holds the checks behind the
graded cells, one sub-package per exercise; `widgets` and `charts` draw in the notebooks; `live`
takes a loop to a real API in lesson 12; `cli` is `python -m course`. The instructors' class
grader is the `grader` package.
"""
