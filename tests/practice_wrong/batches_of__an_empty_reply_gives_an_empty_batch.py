# expect: yours makes 1 batch(es), the reference 0
def batches_of(calls, mode_of):
    batches = [[]]
    for call in calls:
        last = batches[-1]
        if not last:
            last.append(call)
        elif mode_of(call) == "parallel" and all(mode_of(c) == "parallel" for c in last):
            last.append(call)
        else:
            batches.append([call])
    return batches
