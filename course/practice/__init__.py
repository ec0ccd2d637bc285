"""Your-turn pieces: the lessons ask you to write each piece of the loop, and check it at once.

A lesson's *your-turn* cell gives a function's signature and contract and leaves the body to you.
The cell after it says `run_agent = check(run_agent)`. `check` finds the piece by the function's
name, runs your version and the reference on the lesson's cases, and prints one line per behaviour
that holds, or the first place where yours differs (scenario, call, message index, what the
reference did, what yours did, and the section of the lesson that explains it). It returns the
version the rest of the lesson should use: yours once every behaviour holds, the reference until
then, so a blank or wrong piece never stops the lesson.

Each lesson's pieces are defined in its own module (`course.practice.lesson03` ...): the reference
function, the section that explains it, and its behaviours. `answer(name)` is the worked answer's
source, and `write_answers()` writes every one into `lessons/answers/`, one file per piece, for
`%load`; `with_answers(notebook)` fills a lesson in with them. Pieces that a graded exercise
grades are not here: the lesson sends you to the exercise.

A your-turn cell starts with `%%your_turn` (registered by `%load_ext course.practice` in each
lesson's setup cell): a syntax error in it is reported in one line, the check falls back to the
reference, and Run All goes on.

This package scores nothing. Its checks are made of the same pieces as the exercises' graded
cells (`course.compare`: run both versions under a deadline, find the first difference, write the
divergence), without what only grading needs, so a lesson's check and an exercise's check speak
the same way.
"""

from course.practice.engine import (
    PIECES,
    Piece,
    answer,
    check,
    load_ipython_extension,
    pieces,
    with_answers,
    write_answers,
)

__all__ = ["PIECES", "Piece", "answer", "check", "load_ipython_extension", "pieces",
           "with_answers", "write_answers"]
