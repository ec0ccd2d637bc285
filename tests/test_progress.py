"""call_key and the no-progress detector, with the seed's patterns."""

import pytest

from harness import NoProgressDetector, RepeatReminder, call_key


def feed(detector, calls, errors=()):
    return [detector.observe(n, a, previous_was_error=i in errors)
            for i, (n, a) in enumerate(calls)]


def test_key_order_and_whitespace_do_not_matter():
    assert call_key("f", {"a": 1, "b": [1, 2]}) == call_key("f", {"b": [1, 2], "a": 1})
    assert call_key("f", '{ "b" : [1,2],\n "a":1 }') == call_key("f", {"a": 1, "b": [1, 2]})
    assert call_key("f", {"a": 1}) != call_key("g", {"a": 1})
    assert call_key("f", {"a": 1}) != call_key("f", {"a": "1"})


def test_exact_repeat_fires_on_the_second_call():
    calls = [("search_tickets", {"query": "refund delay"})] * 2
    assert feed(NoProgressDetector(), calls) == [False, True]


def test_different_arguments_are_progress():
    calls = [("get_forecast", {"city": c}) for c in ["Lisbon", "Porto", "Faro", "Braga"]]
    assert not any(feed(NoProgressDetector(), calls))


def test_retry_after_an_error_is_not_flagged():
    calls = [("search_flights", {"o": "LIS"})] * 2
    assert feed(NoProgressDetector(), calls, errors={1}) == [False, False]


def test_a_b_cycle_fills_the_window_on_the_sixth_call():
    calls = [("get_order", {"id": 123}), ("get_shipment", {"id": 123})] * 3
    assert feed(NoProgressDetector(), calls) == [False] * 5 + [True]


def test_a_b_c_cycle():
    calls = [("a", {}), ("b", {}), ("c", {})] * 2
    assert feed(NoProgressDetector(), calls) == [False] * 5 + [True]


def test_window_four_catches_a_b_sooner():
    calls = [("a", {}), ("b", {})] * 2
    assert feed(NoProgressDetector(window=4), calls) == [False, False, False, True]


def test_a_consecutive_only_check_would_miss_the_cycle_but_this_one_does_not():
    calls = [("a", {"x": 1}), ("b", {"x": 1}), ("a", {"x": 1}), ("b", {"x": 2}),
             ("a", {"x": 1}), ("b", {"x": 1})]
    assert not any(feed(NoProgressDetector(), calls))  # broken cycle: no false alarm


def test_window_must_hold_a_cycle():
    with pytest.raises(ValueError, match="window"):
        NoProgressDetector(window=3)


def test_reminders_at_three_five_and_eight():
    reminder = RepeatReminder()
    notes = [reminder.observe("ls", {"path": "."}) for _ in range(9)]
    assert [i + 1 for i, n in enumerate(notes) if n] == [3, 5, 8]
    reminder.reset()
    assert reminder.observe("ls", {"path": "."}) is None
