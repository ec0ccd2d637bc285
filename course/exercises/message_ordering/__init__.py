"""Exercise 1, message ordering: `checks` grades `append_round` and `to_anthropic`
(`anthropic_format`)."""

WITHHELD = (
    "harness.providers.anthropic",
    "offline.emulator.anthropic",
)
"""What a graded kernel of this exercise does not get (`grader.withhold`): the Anthropic adapter,
which writes exactly the messages `to_anthropic` must, and the emulator's Anthropic side, which
renders a turn's tool_use blocks."""
