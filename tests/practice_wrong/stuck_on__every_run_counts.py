# expect: 'get_forecast': 39
# expect: the reference {'search_tickets': 11, 'get_shipment': 3}
from collections import Counter


def stuck_on(results):
    return dict(Counter(r.tool_names[-1] for r in results if r.tool_names).most_common())
