# expect: yours has read_history:squat (0.2 s long) at [0.2], the reference at [0.0]
def timeline_of(batches, seconds):
    timeline, now = {}, 0.0
    for batch in batches:
        for call in batch:
            timeline[call.id] = (now, now + seconds[call.id])
            now += seconds[call.id]
    return timeline
