# expect: yours gives [120.0, 120.0, 120.0], the reference [60.0, 60.0, 60.0]
def retry_waits(retry_after, *, attempts=3, base=1.0, cap=60.0):
    return [max(retry_after or 0.0, base * 2 ** attempt) for attempt in range(attempts)]
