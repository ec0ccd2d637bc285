# expect: yours says $374.4, the reference $0.0003744, a million times more
"""Forgets that prices are dollars per million tokens."""


def cache_saving(usage, price):
    write = price.input if price.cache_write is None else price.cache_write
    return (usage.cached_input_tokens * (price.input - price.cached_input)
            - usage.cache_write_tokens * (write - price.input))
