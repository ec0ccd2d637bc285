# expect: for retry-after 7.5 s yours gives [1.0, 2.0, 4.0], the reference [7.5, 7.5, 7.5]
def retry_waits(retry_after, *, attempts=3, base=1.0, cap=60.0):
    return [min(cap, base * 2 ** attempt) for attempt in range(attempts)]
