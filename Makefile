# s3connect: the one entry point. `make test` and `make demo` work from a fresh clone.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install up down status test unit demo lint bench clean

$(STAMP): pyproject.toml stack/kafka-pom.xml stack/spark-pom.xml stack/fetch_jars.py
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,local]'
	$(PY) stack/fetch_jars.py
	touch $(STAMP)

## install: the virtualenv, the package, and the JVM jars (fetched once from Maven Central)
install: $(STAMP)

## up / down / status: the local Kafka broker and S3 server
up: install
	$(PY) stack/stack.py up
down:
	@test -x $(PY) && $(PY) stack/stack.py down || true
status:
	$(PY) stack/stack.py status

## test: install, lint (ruff, mypy, the layer contracts), start the stack, run the whole suite,
## stop the stack; fails on any failure
test: lint
	$(PY) stack/stack.py up
	$(PY) -m pytest tests; rc=$$?; $(PY) stack/stack.py down; exit $$rc

## unit: the fast tests that need no stack
unit: install
	$(PY) -m pytest -q -m "not integration" tests

## demo: produce sample events, run the sink and source end to end, print what happened
demo: install
	$(PY) stack/stack.py up
	$(PY) stack/demo.py; rc=$$?; $(PY) stack/stack.py down; exit $$rc

## lint: ruff, ruff format --check, mypy, and the import contracts of pyproject.toml (layers)
lint: install
	$(VENV)/bin/ruff check src tests stack bench notebooks
	$(VENV)/bin/ruff format --check src tests stack bench notebooks
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-logo

bench: install
	$(PY) stack/stack.py up
	$(PY) bench/run.py $(BENCH_ARGS) && $(PY) bench/source.py; rc=$$?; $(PY) stack/stack.py down; exit $$rc

clean: down
	rm -rf .stack
