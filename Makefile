# The two commands of the README: `make run` and `make test`.
PY ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
# Every package of `.[dev]`, pinned with hashes; pyproject.toml keeps the lower bounds.
LOCK := requirements.lock
UV_VERSION := 0.13.9
PIP := $(VENV)/bin/pip -q --disable-pip-version-check
COMPILE = $(VENV)/bin/uv pip compile pyproject.toml --extra dev --generate-hashes --universal --python-version 3.11 -q \
	--custom-compile-command 'make lock'

.PHONY: run test lint db-up bench clean lock lock-check web web-check chromium docs

# The explorer (web/): Node >= 20 and npm build it; the e2e test drives Debian's chromium.
NODE_MAJOR := $(shell node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
NODE_HELP := the explorer needs Node >= 20 with npm (found: $(NODE_MAJOR)). Debian 13: apt-get install nodejs npm; \
Debian 12 ships Node 18, so install Node 20+ from NodeSource or nodejs.org, then run make again
WEB_SOURCES := $(shell find web/src -type f -not -path 'web/src/gql/*' 2>/dev/null) web/index.html \
	web/vite.config.ts web/codegen.ts web/tsconfig.app.json web/package.json schema.graphql
CHROMIUM ?= /usr/bin/chromium

$(STAMP): pyproject.toml $(LOCK)
	@echo "[worldmem] creating $(VENV) and installing the locked dependencies ($(LOCK))"
	$(PY) -m venv $(VENV)
	$(PIP) install -U pip
	$(PIP) install --require-hashes -r $(LOCK)
	$(PIP) install --no-deps --no-build-isolation -e .
	@touch $(STAMP)

# Regenerate the lock after a change of dependencies in pyproject.toml (keeps unchanged pins).
lock: $(STAMP)
	$(PIP) install uv==$(UV_VERSION)
	$(COMPILE) -o $(LOCK)

# Fails when pyproject.toml asks for something the lock does not satisfy (CI runs it).
lock-check: $(STAMP)
	$(PIP) install uv==$(UV_VERSION)
	cp $(LOCK) $(VENV)/lock-check.txt
	$(COMPILE) -o $(VENV)/lock-check.txt
	diff -u $(LOCK) $(VENV)/lock-check.txt

db-up: $(STAMP)
	$(VENV)/bin/worldmem db up

web-check:
	@if [ "$(NODE_MAJOR)" -lt 20 ]; then echo "[worldmem] $(NODE_HELP)"; exit 1; fi

web/node_modules/.package-lock.json: web/package-lock.json
	@$(MAKE) --no-print-directory web-check
	@echo "[worldmem] installing the explorer's packages (npm ci)"
	cd web && npm ci --no-audit --no-fund

web/dist/index.html: web/node_modules/.package-lock.json $(WEB_SOURCES)
	@echo "[worldmem] building the explorer (graphql-codegen, vue-tsc, vite build)"
	cd web && npm run build
	@touch $@

web: web/dist/index.html

chromium:
	@if [ ! -x "$(CHROMIUM)" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "[worldmem] installing Debian's chromium for the explorer's end-to-end test"; \
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-noto-color-emoji \
			|| { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium fonts-noto-color-emoji; }; \
		else echo "[worldmem] the end-to-end test needs $(CHROMIUM): sudo apt-get install chromium"; exit 1; fi; \
	fi

run: db-up
	@if [ "$(NODE_MAJOR)" -ge 20 ]; then $(MAKE) --no-print-directory web; \
	else echo "[worldmem] not building the explorer: $(NODE_HELP). Serving GraphQL only."; fi
	$(VENV)/bin/worldmem demo
	@echo "[worldmem] explorer: $$($(VENV)/bin/python -c 'from graph.settings import get_settings as g; s = g(); print(f"http://{s.host}:{s.port}/")') (log in with: $(VENV)/bin/worldmem token create --owner demo)"
	$(VENV)/bin/worldmem serve

test: db-up web chromium
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	cd web && npx vitest run
	$(VENV)/bin/pytest

# The documentation site (mkdocs.yml, docs/) into site/; warnings are errors, as in CI.
docs: $(STAMP)
	$(VENV)/bin/mkdocs build --strict

bench: db-up
	$(VENV)/bin/python -m bench.seed --if-missing
	$(VENV)/bin/python -m bench.run
	$(VENV)/bin/python -m bench.context_bench
	$(VENV)/bin/python -m bench.curator_bench

clean:
	rm -rf $(VENV) web/node_modules web/dist site
