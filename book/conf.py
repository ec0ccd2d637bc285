"""Sphinx configuration of the rendered course (`make site`; book/build.py prepares the sources).

Sphinx with MyST-NB renders the notebooks as they were executed by book/build.py (it executes
nothing itself), in the Jupyter Book look of sphinx-book-theme. Everything the pages load is in
the built folder: no widget JavaScript from a CDN (the widgets' static text/html is shown
instead), no fonts or scripts from elsewhere, no launch or repository buttons.
"""

project = "agent-loop-kit"
author = "agent-loop-kit"
copyright = "agent-loop-kit contributors"
extensions = ["myst_nb"]
root_doc = "index"
exclude_patterns = ["**/.ipynb_checkpoints"]

# Render what book/build.py executed; never run a kernel from Sphinx.
nb_execution_mode = "off"
# A widget's view needs ipywidgets' JavaScript; the kit's widgets also offer text/html, which a
# page with no kernel shows. So: drop the widget view, load no widget script.
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
nb_ipywidgets_js = {}
nb_output_stderr = "show"
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]  # notebooks may start at ## after their # title

html_title = "agent-loop-kit: the agent loop, offline"
html_theme = "sphinx_book_theme"
html_theme_options = {
    "show_toc_level": 2,
    "use_download_button": False,
    "use_fullscreen_button": False,
    "search_bar_text": "Search the course",
}
# A mode stated in the page: pydata-sphinx-theme logs a console error when it finds none (file://).
html_context = {"default_mode": "light"}
html_show_sourcelink = False
html_copy_source = False
html_last_updated_fmt = None
