# expect: batch 1 is ['read_history:bench', 'compute_record:bench', 'save_goal:bench'] in yours
def batches_of(calls, mode_of):
    batches, current = [], []
    for call in calls:
        current.append(call)
        if mode_of(call) != "parallel":
            batches.append(current)
            current = []
    if current:
        batches.append(current)
    return batches
