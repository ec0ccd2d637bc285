# expect: yours says $0.0, the reference $-0.001263
# expect: write premium cost $0.001263
"""Counts only the reads' discount: Anthropic's cache writes cost 1.25x the input price."""


def cache_saving(usage, price):
    return usage.cached_input_tokens * (price.input - price.cached_input) / 1_000_000
