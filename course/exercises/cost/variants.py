"""Per-student numbers for the cost exercise: two usage blocks shaped like real replies.

The numbers come from a hash of the assignment and the student id, so each student reads
different values and a neighbour's answers are worth nothing. While nbgrader autogrades, the
notebook runs in `autograded/<student_id>/<assignment>/`: the id is taken from there and the id a
student typed is ignored, so typing someone else's id does not help. Outside autograding the typed
id is used. The answers follow the neutral `Usage` rule: input counts every input token, cache
reads and writes included. The blocks have the shape of real replies but the numbers are made
up here, not measured from a provider. This module makes the questions only: the right answers
are in the checks (`course.exercises.cost.usage.expected_answers`), which graded kernels do not
get, since the setup cell imports this module and must hand out no answer.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from course.exercises.identity import autograde_identity
from harness.providers.catalog import PRICES
from offline.scenarios import SCENARIOS

ASSIGNMENT = "04_cost"
ANTHROPIC_MODEL = "claude-sonnet-4-6"
OPENAI_MODEL = "gpt-5"


@dataclass(frozen=True)
class UsageQuestions:
    """One student's two replies, the prices, and the ids they were made from."""

    student_id: str
    assignment: str
    typed_id: str
    anthropic: dict[str, Any]
    """An Anthropic Messages response body (its usage reports cache reads apart)."""
    openai: dict[str, Any]
    """An OpenAI Chat Completions response body (its prompt_tokens include cached ones)."""
    anthropic_prices: dict[str, float]
    openai_prices: dict[str, float]

    def show(self) -> None:
        """Print the two replies and the prices, as the exercise asks the student to read them."""
        print(f"Usage blocks for student {self.student_id!r} ({self.assignment})\n")
        print(f"Anthropic Messages reply, {ANTHROPIC_MODEL}, prices in $ per million tokens: "
              f"{self.anthropic_prices}")
        print(json.dumps(self.anthropic, indent=2))
        print(f"\nOpenAI Chat Completions reply, {OPENAI_MODEL}, prices in $ per million "
              f"tokens: {self.openai_prices}")
        print(json.dumps(self.openai, indent=2))


def for_student(student_id: str, assignment: str = ASSIGNMENT, *,
                path: str | os.PathLike[str] | None = None) -> UsageQuestions:
    """The questions of the student being graded (from the autograde folder), or of `student_id`.

    Example:
        >>> q = for_student("ada", path="/home/ada/04_cost")
        >>> q.student_id, q.anthropic["usage"]["cache_creation_input_tokens"] > 0
        ('ada', True)
    """
    identity = autograde_identity(path)
    true_id, true_assignment = identity if identity else (str(student_id).strip(), assignment)
    return questions_of(true_id, true_assignment, typed_id=str(student_id).strip())


def questions_of(student_id: str, assignment: str = ASSIGNMENT, *,
                 typed_id: str | None = None) -> UsageQuestions:
    """The questions of exactly this student id, wherever the code runs."""
    rng = random.Random(hashlib.sha256(f"{assignment}/{student_id}".encode()).hexdigest())
    return UsageQuestions(student_id, assignment, student_id if typed_id is None else typed_id,
                          _anthropic(rng), _openai(rng), PRICES[ANTHROPIC_MODEL].as_dict(),
                          PRICES[OPENAI_MODEL].as_dict())


def _anthropic(rng: random.Random) -> dict[str, Any]:
    token = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz123456789")
                    for _ in range(24))
    # A turn of an agent loop with the adapter's automatic breakpoint: the transcript so far is
    # read from the cache, the last round is written to it, a few tokens are neither.
    written = rng.randint(200, 3_000)
    return {"id": f"msg_01{token}", "type": "message", "role": "assistant",
            "model": "claude-sonnet-4-6",
            "content": [{"type": "text", "text": SCENARIOS["bench_press"].steps[-1].text}],
            "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": rng.randint(3, 40),
                      "cache_creation_input_tokens": written,
                      "cache_read_input_tokens": rng.randint(4_000, 60_000),
                      "cache_creation": {"ephemeral_5m_input_tokens": written,
                                         "ephemeral_1h_input_tokens": 0},
                      "output_tokens": rng.randint(150, 1_200),
                      "service_tier": "standard"}}


def _openai(rng: random.Random) -> dict[str, Any]:
    prompt = rng.randint(5_000, 60_000)
    cached = rng.randint(8, (prompt - 1_000) // 128) * 128
    completion = rng.randint(200, 2_000)
    reasoning = rng.randint(0, completion * 6 // 10)
    token = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
                    for _ in range(29))
    return {"id": f"chatcmpl-{token}", "object": "chat.completion",
            "created": 1_767_225_600 + rng.randint(0, 10_000_000), "model": "gpt-5-2025-08-07",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant",
                                     "content": SCENARIOS["two_cities"].steps[-1].text,
                                     "refusal": None, "annotations": []}}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                      "total_tokens": prompt + completion,
                      "prompt_tokens_details": {"cached_tokens": cached, "audio_tokens": 0},
                      "completion_tokens_details": {"reasoning_tokens": reasoning,
                                                    "audio_tokens": 0,
                                                    "accepted_prediction_tokens": 0,
                                                    "rejected_prediction_tokens": 0}}}
