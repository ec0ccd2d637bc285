# expect: yours has compute_record:bench (0.15 s long) at [0.0, 0.2], the reference at [0.0, 0.15]
def timeline_of(batches, seconds):
    timeline, start = {}, 0.0
    for batch in batches:
        end = start + max(seconds[call.id] for call in batch)
        for call in batch:
            timeline[call.id] = (start, end)
        start = end
    return timeline
