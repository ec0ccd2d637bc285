"""The rendered course: `make site` (book/build.py) built and read in headless Chromium.

To keep the cost small it executes two lessons (02 with its transcript stepper, 06 with its cost
explorer) and shows the others unexecuted, then opens the pages from disk with every request that
is not a file refused and recorded: pages load with no failed request and no console error, the
figures and lesson 06's charts are drawn, the widgets show their static view, links between pages
lead to pages that exist, the guides are pages, and the exercises are the students' copies (no
solution, no hidden test).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from test_browser import ARTIFACTS, browser_page, browser_test

from book import build

ROOT = build.ROOT
EXECUTED = {"02", "06"}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    index = build.build(tmp_path_factory.mktemp("site") / "site", executed=EXECUTED)
    return index.parent


def hidden_lines() -> list[str]:
    """Lines only the instructor's copy has: inside solution and hidden-test blocks."""
    lines = []
    for path in ROOT.glob("solutions/*/*.ipynb"):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            for block in re.findall(r"### BEGIN (?:SOLUTION|HIDDEN TESTS)\n(.*?)### END",
                                    "".join(cell["source"]), re.S):
                lines += [line.strip() for line in block.splitlines() if len(line.strip()) > 20]
    return lines


@pytest.mark.slow
def test_the_site_has_every_page_and_no_instructor_text(site):
    pages = {path.relative_to(site).as_posix() for path in site.rglob("*.html")}
    wanted = {"index.html", "book/glossary.html", "docs/self-learners.html",
              "docs/instructors.html", "CONTRIBUTING.html", "bench/README.html"}
    wanted |= {f"lessons/{path.stem}.html" for path in ROOT.glob("lessons/*.ipynb")}
    wanted |= {f"exercises/{path.parent.name}/{path.stem}.html"
               for path in ROOT.glob("exercises/*/*.ipynb")}
    assert wanted <= pages, sorted(wanted - pages)
    secrets = hidden_lines()
    assert secrets, "found no solution or hidden-test lines in solutions/ to look for"
    for page in (site / "exercises").rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        leaked = [line for line in secrets if line in text]
        assert not leaked, f"{page.name} shows instructor text: {leaked[:3]}"
        assert "BEGIN SOLUTION" not in text and "HIDDEN TESTS" not in text
    executed = (site / "lessons" / "02_one_tool.html").read_text(encoding="utf-8")
    assert "alk-transcript-static" in executed and "application/vnd.jupyter.widget" not in executed


@browser_test
def test_the_site_reads_offline_in_a_browser(site):
    refused, failed, errors = [], [], []
    with browser_page(width=1300, height=900) as page:
        def offline(route):
            if route.request.url.startswith(("file:", "data:")):
                route.continue_()
            else:
                refused.append(route.request.url)
                route.abort()

        page.route("**/*", offline)
        page.on("requestfailed", lambda request: failed.append(request.url))
        page.on("console", lambda message: errors.append(message.text)
                if message.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))

        page.goto((site / "index.html").as_uri())
        figures = page.locator("img[src$='.svg']")
        assert figures.count() == 2
        for number in range(2):  # drawn: loaded, and the width of the text column or so
            assert page.evaluate("img => img.complete && img.naturalWidth > 600",
                                 figures.nth(number).element_handle())
        page.screenshot(path=str(ARTIFACTS / "site_index.png"))
        assert_links_exist(page, site)

        page.get_by_role("link", name="02 One tool").first.click()
        page.wait_for_url("**/lessons/02_one_tool.html")
        stepper = page.locator(".alk-transcript-static")
        assert stepper.locator("details").count() == 2 and stepper.is_visible()
        assert "call 1, tool_choice=auto" in stepper.inner_text()
        assert_links_exist(page, site)

        page.locator("a[href$='01_message_ordering.html']").last.click()
        page.wait_for_url("**/exercises/01_message_ordering/01_message_ordering.html")
        assert "append_round" in page.locator("main").inner_text()

        page.goto((site / "lessons" / "06_cost.html").as_uri())
        plot = page.locator(".alk-cost-static svg").bounding_box()
        assert plot and plot["width"] > 300 and plot["height"] > 150, plot
        charts = page.locator(".cell_output img[src$='.svg']")  # the lesson's pygal charts
        assert charts.count() == 2  # the budget plots; the four bills became an exercise
        for number in range(2):
            assert page.evaluate("img => img.complete && img.naturalWidth >= 700",
                                 charts.nth(number).element_handle())

        page.get_by_role("link", name="Glossary").first.click()
        page.wait_for_url("**/book/glossary.html")
        assert page.locator("h2", has_text="closing call").count() == 1
        page.screenshot(path=str(ARTIFACTS / "site_glossary.png"))

        guides = {"docs/self-learners.html": "Learning with the kit", "CONTRIBUTING.html":
                  "Contributing", "docs/instructors.html": "The instructor", "bench/README.html":
                  "Benchmarks"}  # the guides, with their links between pages
        for guide, title in guides.items():
            page.goto((site / guide).as_uri())
            assert page.title().startswith(title), (guide, page.title())
            assert_links_exist(page, site)
        assert page.locator("h2", has_text="The whole suite: make test").count() == 1
    assert not refused, f"the site asked the network for {refused}"
    assert not failed, f"requests failed: {failed}"
    assert not errors, f"console errors: {errors}"


def assert_links_exist(page, site: Path) -> None:
    """Every link on the page to another page of the site leads to a file that exists."""
    hrefs = page.evaluate("() => [...document.querySelectorAll('a[href]')].map(a => a.href)")
    local = [urlparse(href) for href in hrefs if href.startswith("file:")]
    missing = sorted({unquote(url.path) for url in local if not Path(unquote(url.path)).exists()})
    assert local and not missing, f"{page.url}: links to missing files {missing}"
    assert all(Path(unquote(url.path)).is_relative_to(site) for url in local)
