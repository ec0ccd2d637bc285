"""The offline stand-ins: everything that plays the providers' part when no provider is called.

`ScriptedModel` answers from a script at the neutral level; `scenarios` are the thirteen runs every
lesson, exercise and test uses; `tokens` is the kit's token-count rule; `guard` blocks the network
where only replay is allowed; `cassettes` reads, matches (by `bodies`, the JSON meaning of a
request) and writes recordings, `replay` answers a provider adapter from one and `record` makes
them; `emulator` serves the four real wire formats from a script, in process or on loopback. The
library (`harness`) never imports this package: these stand in front of it.
"""

from offline.guard import block_network
from offline.scripted import ScriptedModel, Step

__all__ = [
    "ScriptedModel",
    "Step",
    "block_network",
]
