"""The emulator's prompt cache: how much of a request was read from a cache, or written to one.

Two rules, as the providers apply them, both over the request's blocks in cache order (tools,
then the system prompt, then the messages), each block written as compact JSON:

- `automatic` (OpenAI, Gemini's implicit cache): the longest prefix this request shares with any
  earlier request of the session is read, once it reaches the model's minimum, counted down to a
  whole number of `step`s (OpenAI caches in steps of 128 tokens). Nothing is reported as written.
- `at_breakpoints` (Anthropic): only a prefix that ends at a `cache_control` breakpoint is ever
  written. A request reads the longest written prefix it starts with, found at a block boundary
  at most 20 blocks before one of its breakpoints; what lies between that read and its last
  breakpoint is written. Below the model's minimum nothing is cached at all.

Tokens are `offline.tokens` characters / 4. Entries never expire (the real ones live 5 minutes or
an hour): the emulator has no clock, so a recording is the same on every run.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from offline.tokens import CHARS_PER_TOKEN

LOOKBACK = 20  # blocks the API looks back from a breakpoint for an earlier cache entry


class PromptCache:
    """The cache of one emulator session for one API."""

    def __init__(self) -> None:
        self._seen: list[str] = []       # every prompt sent (automatic caching)
        self._written: set[str] = set()  # prefixes written at breakpoints

    def automatic(self, blocks: Sequence[str], *, minimum: int, step: int = 1) -> int:
        """Tokens read from the cache for this prompt; the prompt is remembered for later ones.

        Example:
            >>> cache = PromptCache()
            >>> cache.automatic(["a" * 8000], minimum=1024, step=128)
            0
            >>> cache.automatic(["a" * 8000, "b"], minimum=1024, step=128)
            1920
        """
        text = "".join(blocks)
        shared = max((len(os.path.commonprefix([text, seen])) for seen in self._seen), default=0)
        self._seen.append(text)
        tokens = shared // CHARS_PER_TOKEN
        return 0 if tokens < minimum else tokens // step * step

    def at_breakpoints(self, blocks: Sequence[str], breakpoints: Sequence[int], *,
                       minimum: int) -> tuple[int, int]:
        """(tokens read, tokens written) for a prompt with breakpoints after these block indices.

        Example:
            >>> cache = PromptCache()
            >>> cache.at_breakpoints(["a" * 8000], [0], minimum=1024)
            (0, 2000)
            >>> cache.at_breakpoints(["a" * 8000, "b" * 400], [1], minimum=1024)
            (2000, 100)
        """
        ends, total = [], 0
        for block in blocks:
            total += len(block)
            ends.append(total)
        marks = sorted({b for b in breakpoints if 0 <= b < len(blocks)})
        text = "".join(blocks)
        if not marks or ends[marks[-1]] // CHARS_PER_TOKEN < minimum:
            return 0, 0
        read = 0
        for mark in marks:
            for index in range(mark, max(-1, mark - LOOKBACK), -1):
                if text[:ends[index]] in self._written:
                    read = max(read, ends[index])
                    break
        for mark in marks:
            if ends[mark] // CHARS_PER_TOKEN >= minimum:
                self._written.add(text[:ends[mark]])
        read_tokens = read // CHARS_PER_TOKEN
        return read_tokens, ends[marks[-1]] // CHARS_PER_TOKEN - read_tokens
