"""nbgrader's warnings in a shard's log, per submission and cell, in plain words with what to do.

A shard's `nbgrader autograde` logs what it met as it goes ("Attribute 'checksum' for cell X has
changed!"), naming each submission by its path before its warnings. `findings(log)` reads the log
once, keeps the submission each line belongs to, and turns each warning an instructor can act on
into a finding (plain data: it crosses from the shard to the batch). Warnings of no use to the
instructor (a missing cell id nbformat adds, --force replacing earlier output) are left out;
lateness is read from the gradebook instead (`grader.merge`), and a notebook handed in under
another name is found before grading (`grader.intake`). Nothing here grades.
"""

from __future__ import annotations

import re
from typing import Any

WHERE = re.compile(r"/(?:submitted|autograded)/([^/\s]+)/([^/\s]+)/(?:([^/\s]+)\.ipynb)?")
WARNINGS: list[tuple[str, re.Pattern[str], str]] = [
    ("edited cell", re.compile(r"Attribute '(?P<what>\w+)' for cell (?P<cell>\S+) has changed"),
     "the read-only cell {cell} was edited (its {what} changed): nbgrader graded the released "
     "cell instead, so the edit earned nothing. Nothing to do, unless you want a word with the "
     "student"),
    ("deleted cell", re.compile(r"Missing grade cell (?P<cell>\S+) encountered"),
     "the graded cell {cell} was deleted (or its id changed): it was put back from the "
     "gradebook and graded. Nothing to do"),
    ("unknown cell", re.compile(r"Cell '(?P<cell>[^']+)' does not exist in the database"),
     "the notebook holds a cell with the nbgrader id {cell}, which this assignment does not "
     "have (copied in from another notebook, or its metadata edited): it was not graded. Open "
     "the notebook if the student's answer may be in it"),
]


def findings(log: str) -> dict[str, list[dict[str, Any]]]:
    """{"STUDENT.ASSIGNMENT": [{"kind", "notebook", "cell", "what"}, ...]} from a shard's log,
    each warning once per submission and cell."""
    found: dict[str, list[dict[str, Any]]] = {}
    key, notebook = "", ""
    for line in log.splitlines():
        if match := WHERE.search(line):
            key, notebook = f"{match.group(1)}.{match.group(2)}", match.group(3) or notebook
        if "WARNING" not in line or not key:
            continue
        for kind, pattern, words in WARNINGS:
            if hit := pattern.search(line):
                item = {"kind": kind, "notebook": notebook, "cell": hit.group("cell"),
                        "what": words.format(**hit.groupdict())}
                if item not in found.setdefault(key, []):
                    found[key].append(item)
    return found
