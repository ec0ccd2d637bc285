"""course.charts: a pygal chart shown as plain SVG, the same offline everywhere.

pygal is used in a child process only: importing it adds a finder to `sys.meta_path` whose
ImportWarning on later imports the suite would turn into errors (a kernel ignores it).
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ElementTree

CHART = """
import pygal
from course.charts import plain_svg

chart = pygal.Bar(width=500, height=240, title="exits")
chart.add("share of runs", [0.5, 0.25])
print(plain_svg(chart).data)
"""


def _python(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout


def test_plain_svg_shows_a_pygal_chart_at_its_size_with_no_script():
    svg = _python(CHART)
    root = ElementTree.fromstring(svg)
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("500", "240",
                                                                           "0 0 500 240")
    assert not [element for element in root.iter() if element.tag.endswith("script")]
    assert "kozea.github.io" not in svg and "window.pygal" not in svg
    bars = [e for e in root.iter() if "tooltip-trigger" in e.get("class", "").split()]
    assert len(bars) == 2 and "exits" in svg  # the chart itself is all there


def test_importing_the_module_loads_neither_pygal_nor_ipython():
    loaded = _python("import sys, course.charts; "
                     "print(*(name in sys.modules for name in ('pygal', 'IPython')))")
    assert loaded.split() == ["False", "False"]
