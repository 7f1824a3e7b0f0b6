# kvguide: two set-up commands on a fresh machine (README): `make serve` and `make test`.
# Everything they need (venv with pinned packages, npm packages from the lock, Debian's
# chromium for the browser tests) is installed by the targets below.

PYTHON  ?= python3
VENV    := .venv
PY      := $(VENV)/bin/python
PIP     := $(VENV)/bin/pip
MKDOCS  := NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs
HOST    ?= 127.0.0.1:8000

.PHONY: all venv node_modules system-packages chromium cjk-fonts web-assets site serve lint wrap test test-core bench behaviour catalog clean

all: site

venv: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q -c constraints.txt --upgrade pip
	$(PIP) install -q -c constraints.txt -e '.[test,docs,catalog]'
	touch $@

node_modules: node_modules/.installed
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Debian's chromium drives the browser tests (Playwright's own download cannot work offline), and a CJK
# font makes Chinese pages render glyphs, not empty boxes. One apt-get run installs whichever is missing
# (two at once would wait on dpkg's lock).
APT_MISSING = $(strip $(if $(shell command -v chromium),,chromium) \
                      $(if $(shell fc-list :lang=zh 2>/dev/null),,fonts-noto-cjk))

system-packages:
	@$(if $(APT_MISSING),apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(APT_MISSING) >/dev/null,true)

chromium cjk-fonts: system-packages

# Static checks: ruff (lint and import order) and mypy --strict on every Python tree but tests/, zero findings.
lint: venv
	$(VENV)/bin/ruff check calc kvguide_macros tests scripts bench hooks.py
	$(VENV)/bin/ruff format --check -q calc
	$(PY) scripts/wrap_long_lines.py --check calc
	@mkdir -p build/mypy && ln -sfn ../../calc build/mypy/kvcalc
	$(VENV)/bin/mypy -p kvcalc
	$(VENV)/bin/mypy

# The core's layout at 100 columns: ruff format, then the comments, docstrings and string literals it leaves
# longer (scripts/wrap_long_lines.py; a file is written only if its syntax tree is unchanged).
wrap: venv
	$(VENV)/bin/ruff format -q calc
	$(PY) scripts/wrap_long_lines.py calc

# The core as a py3-none-any wheel and the self-hosted Pyodide runtime, into docs/assets/.
web-assets: venv node_modules
	$(PY) scripts/build_web_assets.py

site: web-assets
	$(MKDOCS) build --strict

# mkdocs serve builds the site itself (strict, like `make site`): building it first as well built it twice.
serve: web-assets
	$(MKDOCS) serve --strict --dev-addr $(HOST)

# Tests run in TEST_WORKERS processes (pytest-xdist), a test module to a process (its module fixtures,
# such as a site build, are made once): the browser tests keep both cores of these machines busy.
TEST_WORKERS ?= 2
PYTEST  := $(PY) -m pytest -n $(TEST_WORKERS) --dist loadscope

# Every test: unit, property, vLLM's own cases, docs build, Pyodide under Node, real browser.
# The set-up runs in two parallel stages, as the installs wait on the network and lint and the site
# build each use one core: on a fresh clone about 25 s less than one step after another.
SETUP_MAKE := $(MAKE) --no-print-directory --output-sync=target
test:
	$(SETUP_MAKE) -j3 venv node_modules system-packages
	$(SETUP_MAKE) -j2 lint site
	$(PYTEST)

# The Pyodide and trimmed-stdlib tests need the web assets (the runtime copy, the wheel, the trimmed zip).
test-core:
	$(SETUP_MAKE) -j2 venv node_modules
	$(SETUP_MAKE) -j2 lint web-assets
	$(PYTEST) tests --ignore=tests/browser -q

bench: venv site
	$(PY) bench/core_bench.py
	$(PY) bench/web_bench.py
	$(PY) bench/page_size_bench.py

# Re-record what the core answers for the behaviour corpus (tests/test_behaviour.py); read
# `$(PY) scripts/record_behaviour.py --diff` first: the changed cases are the review of the change.
behaviour: venv
	$(PY) scripts/record_behaviour.py

catalog: venv
	HF_HUB_OFFLINE=1 TRANSFORMERS_VERBOSITY=error $(PY) scripts/build_catalog.py

clean:
	rm -rf site build dist *.egg-info docs/assets/pyodide docs/assets/wheels
