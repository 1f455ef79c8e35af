# The two commands of the README: `make run` and `make test`.
PY ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: run test lint db-up bench clean

$(STAMP): pyproject.toml
	@echo "[worldmem] creating $(VENV) and installing dependencies"
	$(PY) -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check -U pip
	$(VENV)/bin/pip install -q --disable-pip-version-check -e '.[dev]'
	@touch $(STAMP)

db-up: $(STAMP)
	$(VENV)/bin/worldmem db up

run: db-up
	$(VENV)/bin/worldmem demo
	$(VENV)/bin/worldmem serve

test: db-up
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest

bench: db-up
	$(VENV)/bin/python -m bench.seed --if-missing
	$(VENV)/bin/python -m bench.run
	$(VENV)/bin/python -m bench.context_bench
	$(VENV)/bin/python -m bench.curator_bench

clean:
	rm -rf $(VENV)
