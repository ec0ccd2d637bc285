"""Exercise 4, cost: `checks` grades the cost functions and the usage questions; `variants` gives
each student their own numbers."""

WITHHELD = (
    "harness.cost.cumulative_input",
    "harness.cost.first_turn_over_budget",
    "harness.cost.overrun_ratio",
    "harness.cost.run_cost",
    "harness.providers.anthropic._map_usage",
    "harness.providers.gemini._map_usage",
    "harness.providers.openai_chat._map_usage",
    "harness.providers.openai_responses._map_usage",
    "course.exercises.cost.usage.expected_answers",
)
"""What a graded kernel of this exercise does not get (`grader.withhold`): the cost arithmetic,
each adapter's reading of a usage block (which is the usage questions' answer), and the answers
the checks compare with."""
