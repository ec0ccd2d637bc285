# Entry points for people, the rest for instructors and maintainers.
#   make lab    set up (first time only) and open JupyterLab on your copies of the lessons
#   make fresh NOTEBOOK=03_the_loop   set your copy of one notebook aside, take a fresh one
#   make check NOTEBOOK=02_early_exit  before handing in: run your copy from the top, list which
#                      graded cells pass on the public cases
#   make setup  set up only: the environment students and instructors use (no tests run)
#   make setup-grader  set up only, for instructors: the kit with the class grader's extra
#                      (nbgrader, Dask, bubblewrap; requirements/grader.txt), not the test stack
#   make test   set up (first time only) and run the whole test suite
#   make site   execute every lesson offline and render the course as a static site (build/site)
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
UV_VERSION := 0.13.8

.PHONY: setup setup-grader lab fresh check test chromium lint bench cassettes exercises answers site clean

$(BIN)/uv:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

# Stamp files so a second `make` does not reinstall; they depend on the lock files.
# Modules are compiled to bytecode at install time, as pip does and uv does not by default: where
# PYTHONDONTWRITEBYTECODE is set (as on the machines this kit is built on) no .pyc is written, and
# every kernel would compile IPython, pydantic and the kit from source each time it starts
# (measured: 1.15 s to start a kernel instead of 0.58 s, and lessons' imports twice as slow).
INSTALL := VIRTUAL_ENV=$(VENV) $(BIN)/uv pip install --quiet --compile-bytecode
COMPILE_KIT := $(BIN)/python -m compileall -q harness offline course grader book bench

$(VENV)/.lab: $(BIN)/uv requirements/lab.txt pyproject.toml
	$(INSTALL) -r requirements/lab.txt -e .
	$(COMPILE_KIT)
	touch $@

$(VENV)/.test: $(BIN)/uv requirements/test.txt pyproject.toml
	$(INSTALL) -r requirements/test.txt -e .
	$(COMPILE_KIT)
	touch $@ $(VENV)/.lab $(VENV)/.grader

$(VENV)/.grader: $(BIN)/uv requirements/grader.txt pyproject.toml
	$(INSTALL) -r requirements/grader.txt -e .
	$(COMPILE_KIT)
	touch $@ $(VENV)/.lab

setup: $(VENV)/.lab
	@echo "ready: .venv holds the kit, JupyterLab and nbgrader; 'make lab' opens the lessons"

# The instructor's class grader: its own extra, pinned by requirements/grader.txt (compiled with
# the test lock as constraints, so both pin the same versions), without the test stack.
setup-grader: $(VENV)/.grader
	@echo "ready: .venv holds the kit, nbgrader and the class grader; run 'export PATH=\$$PWD/.venv/bin:\$$PATH' then 'python -m grader --help'"

# The students' JupyterLab (etc/jupyter: no instructor tools, instructor files hidden), rooted
# in my_work/ (git-ignored), which holds the student's own copies of lessons/ and exercises/, made
# on the first run and never overwritten, so a `git pull` cannot collide with their work; it
# opens on lessons/. `make fresh NOTEBOOK=03_the_loop` sets one copy aside and takes a new one.
# JupyterLab refuses to start as root unless told; containers and CI machines often are root.
lab: $(VENV)/.lab
	$(BIN)/python -m course copies
	JUPYTER_CONFIG_PATH=$(CURDIR)/etc/jupyter $(BIN)/jupyter lab \
		--ServerApp.root_dir=$(CURDIR)/my_work --LabApp.default_url=/lab/tree/lessons \
		$$([ "$$(id -u)" = 0 ] && echo --allow-root)

fresh: $(VENV)/.lab
	$(BIN)/python -m course copies --fresh $(NOTEBOOK)

# From JupyterLab's terminal (File > New > Terminal, in my_work/): make -C .. check NOTEBOOK=...
check: $(VENV)/.lab
	$(BIN)/python -m course check $(NOTEBOOK)

# The browser test drives Debian's chromium; install it when we may (root with apt-get).
chromium:
	@command -v chromium >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null \
		|| (echo "installing chromium for the browser test" && apt-get update -qq \
		    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

# Two pytest-xdist workers (tests that share work stay in one worker: tests/conftest.py).
TEST_WORKERS ?= 2
test: $(VENV)/.test chromium
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

lint: $(VENV)/.test
	$(BIN)/ruff check harness offline course grader tests bench book

bench: $(VENV)/.test
	$(BIN)/python -m bench

# Regenerate every cassette from the emulator (deterministic: a second run changes no byte).
cassettes: $(VENV)/.lab
	$(BIN)/python -m course record --all --emulator --force

# Regenerate lessons/answers/ (the worked answer to each your-turn piece) from course.practice.
answers: $(VENV)/.lab
	$(BIN)/python -c "from course.practice import write_answers; write_answers()"

# The course as a static site: every lesson executed offline, Sphinx + MyST-NB (book/conf.py).
site: $(VENV)/.test
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python -m book.build

# Regenerate exercises/ from solutions/ with nbgrader.
exercises: $(VENV)/.lab
	PATH=$(CURDIR)/$(BIN):$$PATH $(BIN)/python -m grader release

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
