# s3connect: the one entry point. `make test` and `make demo` work from a fresh clone.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The stack's S3 server: Versity's S3 gateway, built once from the Go module proxy into .deps/bin.
VERSITYGW_VERSION := v1.8.0
VERSITYGW := .deps/bin/versitygw
VERSITYGW_STAMP := .deps/bin/.versitygw-$(VERSITYGW_VERSION)
# The tests' class-data-sharing archive of a Spark driver (see stack/spark_archive.py).
SPARK_ARCHIVE := .deps/spark-cds.jsa

.PHONY: install up down status test unit demo lint bench clean jvm-jar

$(STAMP): pyproject.toml stack/kafka-pom.xml stack/connect-pom.xml stack/spark-pom.xml stack/fetch_jars.py \
		$(wildcard jvm/src/s3connect/jvm/*.java)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,local]'
	$(PY) stack/fetch_jars.py
	touch $(STAMP)

# Optional: without it the tests run as they are, only their JVMs start slower.
$(SPARK_ARCHIVE): $(STAMP) stack/spark_archive.py
	-$(PY) stack/spark_archive.py

# Go's module and build caches live in a temporary folder removed afterwards (nothing in ~/go);
# -modcacherw makes the module cache removable.
$(VERSITYGW_STAMP):
	@command -v go >/dev/null || { echo "versitygw: needs the Go toolchain (go) on PATH"; exit 1; }
	mkdir -p .deps/bin
	tmp=$$(mktemp -d) && trap 'chmod -R u+w "$$tmp" 2>/dev/null; rm -rf "$$tmp"' EXIT && \
	  GOBIN=$(CURDIR)/.deps/bin GOPATH=$$tmp/gopath GOMODCACHE=$$tmp/mod GOCACHE=$$tmp/cache \
	  GOFLAGS=-modcacherw GOTOOLCHAIN=local \
	  go install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION)
	rm -f .deps/bin/.versitygw-*
	touch $(VERSITYGW_STAMP)

## install: the virtualenv, the package, the JVM jars (fetched once from Maven Central), the
## S3 server versitygw (built once with `go install`) and the tests' Spark class archive
install: $(STAMP) $(VERSITYGW_STAMP) $(SPARK_ARCHIVE)
	@test -x $(VERSITYGW) || { rm -f $(VERSITYGW_STAMP); $(MAKE) --no-print-directory $(VERSITYGW_STAMP); }

## jvm-jar: the sink's JVM line function for the bundle (dist/s3connect-jvm.jar)
jvm-jar: install
	mkdir -p dist && cp .deps/spark-jars/s3connect-jvm.jar dist/

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
