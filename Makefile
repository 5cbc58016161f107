# Two entry points for a fresh machine (see README.md):
#   make run   - set up the environment and open Hexfray on the demo battle
#   make test  - set up the environment and run every check and test
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck imports pytest package-test bench screenshot build measure clean

$(STAMP): requirements.txt requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

# On a Linux desktop, first name any system library Qt's window needs that is missing.
run: $(STAMP)
	$(PY) packaging/check_qt_libs.py
	$(PY) main.py

lint: $(STAMP)
	$(PY) -m ruff check .

typecheck: $(STAMP)
	$(PY) -m mypy

imports: $(STAMP)
	$(VENV)/bin/lint-imports

# One worker per core (pytest-xdist); the longest tests are split into one item per
# matchup so that the workers share them out.
pytest: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -n auto --dist worksteal

package-test: $(STAMP)
	PY=$(PY) bash packaging/ci_build_and_selftest.sh

build: $(STAMP)
	$(PY) packaging/build.py

measure: $(STAMP)
	$(PY) packaging/measure.py

# The bundle is built first so that the pytest checks of the frozen app run too.
test: lint typecheck imports package-test pytest

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) main.py --benchmark

screenshot: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) main.py --screenshot docs/screenshot.png

clean:
	rm -rf $(VENV) build dist
