"""Show a pygal chart in a notebook as plain SVG: no script, nothing fetched from the network.

pygal's default SVG loads its tooltip script from kozea.github.io and writes the tooltips'
settings into an inline script. The lessons' charts need neither, so `plain_svg` renders without
both, at the chart's own width and height: JupyterLab and the rendered course show the same
picture, offline. The lesson builds the chart; this module does not import pygal, and draws
nothing itself (the cost explorer's chart is drawn in course/widgets.py).
"""

from __future__ import annotations

import re
from typing import Any

# pygal escapes every "<" inside its inline script, so the match ends at that script's own end.
_SCRIPT = re.compile(r"<script\b.*?</script>", flags=re.S)


def plain_svg(chart: Any) -> Any:
    """`chart`, a pygal chart, as an `IPython.display.SVG`: its size fixed, and no script."""
    from IPython.display import SVG

    return SVG(_SCRIPT.sub("", chart.render(js=[], explicit_size=True, is_unicode=True)))
