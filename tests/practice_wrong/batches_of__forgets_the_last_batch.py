# expect: yours leaves out ['read_history:bench', 'read_history:squat']
def batches_of(calls, mode_of):
    batches, current = [], []
    for call in calls:
        if mode_of(call) == "parallel":
            current.append(call)
            continue
        if current:
            batches.append(current)
            current = []
        batches.append([call])
    return batches
