# expect: batch 2 is ['save_goal:bench', 'save_goal:squat'] in yours
# expect: ['save_goal:bench'] in the reference
def batches_of(calls, mode_of):
    batches = []
    for call in calls:
        if batches and mode_of(call) == mode_of(batches[-1][-1]):
            batches[-1].append(call)  # any call joins a batch of its own kind, saves too
        else:
            batches.append([call])
    return batches
