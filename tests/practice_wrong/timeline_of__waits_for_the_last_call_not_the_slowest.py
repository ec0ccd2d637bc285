# expect: yours has save_goal:bench (0.1 s long) at [0.15], the reference at [0.2]
def timeline_of(batches, seconds):
    timeline, start = {}, 0.0
    for batch in batches:
        for call in batch:
            timeline[call.id] = (start, start + seconds[call.id])
        start = timeline[batch[-1].id][1]
    return timeline
