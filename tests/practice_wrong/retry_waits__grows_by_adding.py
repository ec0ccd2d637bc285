# expect: yours gives [1.0, 2.0, 3.0], the reference [1.0, 2.0, 4.0]
def retry_waits(retry_after, *, attempts=3, base=1.0, cap=60.0):
    return [min(cap, max(retry_after or 0.0, base * (attempt + 1))) for attempt in range(attempts)]
