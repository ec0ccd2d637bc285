"""Lesson 07's pieces: noticing repetition without the graded detector.

Exercise 3 grades `call_key` and the no-progress detector, so they are not pieces here: the lesson
uses the library's `call_key` and sends you to the exercise for both. The pieces are smaller and
different: `first_repeat` finds the first call that repeats any earlier one, `nudge_for` is the
reminder policy (what to say at the 3rd, 5th and 8th identical call in a row), and `edit_note` is
the per-file edit counter that catches ten different edits to one file, which no exact check sees.
"""

from __future__ import annotations

import json
from typing import Any

from course.compare import same
from course.practice.engine import Piece, attempt
from course.practice.explain import differs, extra_and_missing
from harness.messages import ToolCall
from harness.progress import call_key


def first_repeat(calls: list[ToolCall]) -> int | None:
    """The number (from 1) of the first call that is the same request as any earlier call.

    Two calls are the same request when their `call_key(call.name, call.arguments)` is equal, so
    key order does not matter. The earlier call may be anywhere before, not only just before.
    None when every call is new.
    """
    seen = set()
    for number, call in enumerate(calls, start=1):
        key = call_key(call.name, call.arguments)
        if key in seen:
            return number
        seen.add(key)
    return None


def nudge_for(count: int, name: str, arguments: dict[str, Any]) -> str | None:
    """The note for the model when `name(arguments)` has just been called `count` times in a row.

    None except at the 3rd, 5th and 8th identical call. At the 3rd, a short nudge that names the
    tool. At the 5th and 8th, a firmer reminder that names the tool, its arguments and the count.
    """
    if count == 3:
        return f"You have called {name} with the same arguments 3 times in a row. " \
               "Read its last result before calling it again."
    if count in (5, 8):
        return f"Reminder: {name}({json.dumps(arguments, sort_keys=True)}) has been called " \
               f"{count} times in a row and its result will not change. Use what you have, " \
               "change the arguments, try another tool, or answer."
    return None


def edit_note(counts: dict[str, int], name: str, arguments: dict[str, Any], *,
              limit: int = 4) -> str | None:
    """Count one tool call if it edits a file; a note for the model once a file passes `limit`.

    An edit is a call to `edit_file`; its `path` argument names the file. `counts` maps each path
    to its edits so far and is updated in place; other tools are not counted. Return a note that
    names the file and its number of edits when that number is above `limit`, else None.
    """
    if name != "edit_file":
        return None
    path = arguments["path"]
    counts[path] = counts.get(path, 0) + 1
    if counts[path] <= limit:
        return None
    return f"You have edited {path} {counts[path]} times. If the change is not working, step " \
           "back: reread the error, or try a different approach."


FIRST_REPEAT = Piece("first_repeat", lesson="07_no_progress", section="Your turn: the first repeat",
                     reference=first_repeat)
NUDGE_FOR = Piece("nudge_for", lesson="07_no_progress", section="Nudge, or stop?",
                  reference=nudge_for)
EDIT_NOTE = Piece("edit_note", lesson="07_no_progress", section="Ten different edits to one file",
                  reference=edit_note)


def _calls(*requests: tuple[str, dict[str, Any]]) -> list[ToolCall]:
    return [ToolCall(id=f"call_{n}", name=name, arguments=arguments)
            for n, (name, arguments) in enumerate(requests, start=1)]


_SEARCH = ("search_tickets", {"query": "refund delay", "limit": 5})
_SEARCH_REORDERED = ("search_tickets", {"limit": 5, "query": "refund delay"})
_ORDER, _SHIPMENT = ("get_order", {"order_id": 123}), ("get_shipment", {"order_id": 123})
_BACK_TO_BACK = {
    "refund_doom_loop's calls": _calls(_SEARCH, _SEARCH, _SEARCH),
    "the same search, keys in another order": _calls(_SEARCH, _SEARCH_REORDERED),
}
_FURTHER_BACK = {
    "order_shipment_cycle's calls": _calls(_ORDER, _SHIPMENT, _ORDER, _SHIPMENT),
    "a search, two orders, the first order again": _calls(
        _SEARCH, _ORDER, ("get_order", {"order_id": 124}), _ORDER),
}
_ALL_NEW = {
    "no calls": [],
    "three different searches": _calls(_SEARCH, ("search_tickets", {"query": "refund delays"}),
                                       ("search_tickets", {"query": "refund delay", "limit": 6})),
}


def _show_call(call: ToolCall) -> str:
    return f"{call.name}({json.dumps(call.arguments, sort_keys=True)})"


def _repeat_hint(calls: list[ToolCall], advice: str):
    """What yours said against what the reference said, with the calls they point at."""
    def earlier(number: int) -> int | None:
        key = call_key(calls[number - 1].name, calls[number - 1].arguments)
        return next((n for n in range(1, number)
                     if call_key(calls[n - 1].name, calls[n - 1].arguments) == key), None)

    def hint(want, got) -> str:
        if isinstance(got, int) and 1 <= got <= len(calls):
            this = calls[got - 1]
            alike = [n for n in range(1, got) if calls[n - 1].name == this.name
                     and set(calls[n - 1].arguments) == set(this.arguments)]
            if alike and earlier(got) is None:
                return (f"yours says call {got} repeats an earlier call; the reference says "
                        f"{want}. Call {got} is {_show_call(this)} and call {alike[-1]} "
                        f"{_show_call(calls[alike[-1] - 1])}: the same names, other values, "
                        f"so a new request; {advice}")
        if isinstance(want, int) and got == want - 1:
            return (f"yours says call {got}, the reference call {want}: the same call counted "
                    "from 0; number the calls from 1")
        if got is None and isinstance(want, int):
            return (f"yours says None, the reference call {want}: {_show_call(calls[want - 1])} "
                    f"is the same request as call {earlier(want)}, "
                    f"{_show_call(calls[earlier(want) - 1])}; {advice}")
        if isinstance(got, int) and 1 <= got <= len(calls):
            same_name = [n for n in range(1, got) if calls[n - 1].name == calls[got - 1].name]
            before = f" than call {same_name[-1]}'s {_show_call(calls[same_name[-1] - 1])}" \
                if same_name else ""
            return (f"yours says call {got}, the reference {want}: call {got}, "
                    f"{_show_call(calls[got - 1])}, asks for something other{before}; {advice}")
        return f"yours says {got!r}, the reference {want!r}: {advice}"
    return hint


def _first_repeat_on(cases: dict[str, list[ToolCall]], hint: str):
    def probe(yours, reference):
        for case, calls in cases.items():
            if found := differs(f"{case}, the call number", reference(list(calls)),
                                attempt(yours, list(calls)), _repeat_hint(calls, hint)):
                return found
        return None
    return probe


FIRST_REPEAT.behaviour("finds a repeat of the call just before, whatever the key order")(
    _first_repeat_on(_BACK_TO_BACK, "compare call_key(call.name, call.arguments), which sorts "
                                    "the keys, not the arguments as written"))
FIRST_REPEAT.behaviour("finds a repeat of any earlier call, not only the one just before")(
    _first_repeat_on(_FURTHER_BACK, "remember every key seen so far (a set), not only the last"))
FIRST_REPEAT.behaviour("says None when every call is new")(
    _first_repeat_on(_ALL_NEW, "two calls are the same request only when the name and every "
                               "argument's value agree: a different value is a new request"))


_ARGUMENTS = {"query": "refund delay", "limit": 5}


@NUDGE_FOR.behaviour("speaks only at the 3rd, 5th and 8th identical call")
def _speaks_at_three_five_eight(yours, reference):
    for count in range(1, 13):
        outcome = attempt(yours, count, "search_tickets", dict(_ARGUMENTS))
        said = outcome if outcome.error else bool(outcome.value)
        want = bool(reference(count, "search_tickets", dict(_ARGUMENTS)))
        if found := same(f"identical call number {count}, a note or None", want, said,
                         hint=f"at the {count}th identical call yours "
                              f"{'returns a note' if said else 'returns None'}, the reference "
                              f"{'a note' if want else 'None'}: a text at 3, 5 and 8, None at "
                              "every other count"):
            return found
    return None


@NUDGE_FOR.behaviour("names the tool at the 3rd; its arguments and the count at the 5th and 8th")
def _names_what_repeats(yours, reference):
    for count in (3, 5, 8):
        outcome = attempt(yours, count, "get_order", {"order_id": 123})
        if outcome.error or not isinstance(outcome.value, str):
            return same(f"identical call number {count}", "a text", outcome,
                        hint="return the note as a str")
        needed = ["get_order"] + (["123", str(count)] if count > 3 else [])
        missing = [word for word in needed if word not in outcome.value]
        if found := same(f"identical call number {count}, words missing from the note", [],
                         missing, hint=f"yours, at the {count}th call, says {outcome.value!r}, "
                                       f"without {missing}: the model can only act on what the "
                                       "note names: the tool, and from the 5th its arguments "
                                       "and how often it repeated"):
            return found
    return None


_EDITS = [("edit_file", {"path": "src/refund.py", "text": f"attempt {n}"}) for n in range(1, 7)]
_SESSION = [_EDITS[0], ("run_tests", {}), ("edit_file", {"path": "README.md", "text": "x"}),
            *[step for edit in _EDITS[1:] for step in (edit, ("run_tests", {}))]]


def _replay_edits(function, limit: int):
    """Feed the session's calls one by one: (note, path, its count) per call, and the counts.
    An Outcome instead of the list when the function raised."""
    counts: dict[str, int] = {}
    notes = []
    for name, arguments in _SESSION:
        outcome = attempt(function, counts, name, dict(arguments), limit=limit)
        if outcome.error:
            return outcome, counts
        notes.append((outcome.value, arguments.get("path"), counts.get(arguments.get("path"))))
    return notes, counts


def _noted(notes: list[tuple[Any, ...]]) -> list[int]:
    return [number for number, (note, *_) in enumerate(notes, start=1) if note]


@EDIT_NOTE.behaviour("counts the edits of each file, and nothing else")
def _counts_per_file(yours, reference):
    _, mine = _replay_edits(reference, 4)
    seen, theirs = _replay_edits(yours, 4)
    if not isinstance(seen, list):
        return same("six edits of src/refund.py between test runs", "a note or None", seen,
                    hint="`path` is in the arguments; a call to another tool counts nothing")
    return differs("six edits of src/refund.py between test runs, counts after the last call",
                   mine, theirs, lambda want, got: extra_and_missing(
                       sorted(want.items()), sorted(got.items()),
                       extra="which the reference does not count: only edit_file counts, once "
                             "per call, under its `path`",
                       missing="each edit_file call adds one under its `path`"))


@EDIT_NOTE.behaviour("adds a note once a file is past the limit, naming the file and its edits")
def _notes_past_the_limit(yours, reference):
    for limit in (4, 2):
        mine, _ = _replay_edits(reference, limit)
        seen, _ = _replay_edits(yours, limit)
        if not isinstance(seen, list):
            return same(f"limit={limit}", "notes", seen, hint="the function raised")
        if found := differs(f"six edits of src/refund.py, limit={limit}, the calls that get a "
                            "note", _noted(mine), _noted(seen),
                            lambda want, got, limit=limit: (
                                f"with limit={limit} yours notes calls {got}, the reference "
                                f"{want}: a note from the edit that takes the file above "
                                f"{limit} edits on, using the `limit` you were given")):
            return found
        vague = [note for note, path, count in seen
                 if note and (path not in note or str(count) not in note)]
        if found := same(f"limit={limit}, notes that do not name the file and its edits", [],
                         vague, hint="say which file and how many edits: the model may be "
                                     "editing several files"):
            return found
    return None
