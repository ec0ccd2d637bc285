"""Cheat: to_anthropic lets the kit's Anthropic adapter write the wire format."""

from harness.providers import anthropic as _anthropic

EXERCISE = "01_message_ordering"
FAILS = {"to_anthropic_keeps_system_apart", "to_anthropic_tool_use_blocks",
         "to_anthropic_results_in_one_user_message"}
EXPECT = "calls harness.providers.anthropic"
EXPECT_GRADED = "is withheld while this notebook is graded"


def to_anthropic(history):
    body = _anthropic.to_wire(history)
    return body.get("system"), body["messages"]
