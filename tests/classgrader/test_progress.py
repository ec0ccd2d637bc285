"""The progress line moves while nothing finishes: on a terminal it is redrawn on a clock of its
own, and its ETA, from the rate so far, grows while a notebook takes long instead of freezing."""

from __future__ import annotations

import io
import time

from grader.engine import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_line_is_redrawn_while_nothing_finishes(monkeypatch):
    monkeypatch.setattr(Progress, "TICK", 0.05)
    stream = Terminal()
    progress = Progress(4, stream=stream)
    progress.start()
    progress.update("shard", 1)
    time.sleep(1.2)  # one notebook in, the next one slow: no update comes
    progress.close()
    lines = [line for line in stream.getvalue().split("\r") if line]
    assert len(lines) >= 5, lines  # redrawn by the clock, not only at the update
    assert lines[-1].startswith("grading: 1/4") and "0:00:00 elapsed" not in lines[-1], lines
    assert len({line.split("] ")[1] for line in lines}) >= 2  # the clock moved on screen


def test_the_eta_grows_while_a_notebook_takes_long():
    progress = Progress(4, stream=Terminal(), quiet=True)
    progress.update("shard", 1)
    progress.started -= 10  # one notebook took 10 s
    early = progress.line()
    progress.started -= 50  # and the next one is still running a minute in
    late = progress.line()
    assert "ETA 0:00:30" in early and "ETA 0:03:00" in late, (early, late)


def test_a_file_gets_the_line_only_when_the_count_moves():
    stream = io.StringIO()
    progress = Progress(2, stream=stream, every=0)
    progress.start()  # no clock off a terminal: a log file gets no redraws
    progress.update("shard", 1)
    progress.update("shard", 2, final=True)
    progress.close()
    lines = stream.getvalue().splitlines()
    assert [line.split(" [")[0] for line in lines] == ["grading: 1/2", "grading: 2/2"], lines
