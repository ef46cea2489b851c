# groundview: `make run` for the dashboard on SQLite with demo data, `make test` for the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/groundview
TEST_BROKER_URL ?= redis://127.0.0.1:6379/15
# Where `make install` gets torch: empty = pip's own configuration (a machine with a local CPU wheel);
# https://download.pytorch.org/whl/cpu = PyTorch's CPU-only builds, for any other machine (PyPI's
# torch for Linux is the CUDA build). The Dockerfile uses PyTorch's CPU index by default.
TORCH_INDEX_URL ?=

.PHONY: install install-train run serve worker test lint format services browser migrate demo train-checker train-cross-encoder bench bench-pages clean image

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	# The pin first, so nothing below pulls the multi-GB CUDA build of torch.
	$(BIN)/pip install -q torch==2.13.0 $(if $(TORCH_INDEX_URL),--index-url $(TORCH_INDEX_URL))
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

# scikit-learn for the checker's fitting and evaluation scripts (the `train` extra).
TRAIN_STAMP := $(VENV)/.installed-train
install-train: $(TRAIN_STAMP)

$(TRAIN_STAMP): $(STAMP)
	$(BIN)/pip install -q -e '.[dev,train]'
	touch $(TRAIN_STAMP)

migrate: install
	$(BIN)/python manage.py migrate --no-input

demo: migrate
	$(BIN)/python manage.py load_demo
	-$(BIN)/python manage.py check_answers --only-unchecked
	$(BIN)/python manage.py ensure_admin

run: demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

# One worker against CELERY_BROKER_URL (and DATABASE_URL); without a broker, checks run in-process.
WORKER_CONCURRENCY ?= 1
worker: install
	@test -n "$$CELERY_BROKER_URL" || { echo "set CELERY_BROKER_URL (e.g. redis://127.0.0.1:6379/0) and DATABASE_URL; without a broker checks run in the web process" >&2; exit 1; }
	$(BIN)/celery -A groundview worker --loglevel=INFO --concurrency=$(WORKER_CONCURRENCY)

services:
	scripts/ensure-services

browser:
	scripts/ensure-chromium

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy groundview/grounding
	DATABASE_URL=$(TEST_DATABASE_URL) $(BIN)/python manage.py makemigrations --check --dry-run

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

test: install services browser lint
	DATABASE_URL=$(TEST_DATABASE_URL) GROUNDVIEW_TEST_BROKER_URL=$(TEST_BROKER_URL) \
		$(BIN)/pytest

# Each script prints its numbers; see README "Benchmarks". evaluate needs ../shared/data.
bench: install-train services
	$(BIN)/python bench/evaluate.py
	$(BIN)/python bench/cases.py
	$(BIN)/python bench/gaps.py
	$(BIN)/python bench/rules.py
	$(BIN)/python bench/latency.py
	$(BIN)/python bench/throughput.py
	$(BIN)/python bench/pages.py
	$(BIN)/python bench/api.py

# Review pages vs. a trivial view; seeds a PostgreSQL database gv_bench_pages once (~2 min).
bench-pages: install services
	$(BIN)/python bench/pages.py

# The deployable image (compose.yaml); torch from TORCH_INDEX_URL, or PyTorch's CPU index.
image:
	docker build $(if $(TORCH_INDEX_URL),--build-arg TORCH_INDEX_URL=$(TORCH_INDEX_URL)) -t groundview:latest .

clean:
	rm -rf $(VENV) var tests/artifacts

# Reproduces the shipped head (groundview/grounding/head.json) from ../shared/data: coverage features
# on WiCE-dev, BEGIN dev and SummEdits, 5-fold numbers printed (about 5 minutes on 2 cores).
train-checker: install-train
	$(BIN)/python -m groundview.grounding.fit_head --features-only

# The optional window cross-encoder (not shipped: it did not help on held-out data; see
# groundview/grounding/README.md): checkpoints in var/checker (resumable), then a stacked head beside it.
# Two epochs: about 2 hours on 2 CPU cores, 3.5 minutes on an H100 (CHECKER_DEVICE=cuda); the
# stacked head is then fitted on the CPU. A checkpoint of another recipe is refused: remove var/checker.
CHECKER_STEPS ?= 3800
CHECKER_DEVICE ?= auto
train-cross-encoder: install-train
	$(BIN)/python -m groundview.grounding.crosstrain --out var/checker --steps $(CHECKER_STEPS) \
		--device $(CHECKER_DEVICE) --ship var/checker/shipped
	$(BIN)/python -m groundview.grounding.fit_head --verifier var/checker/shipped \
		--out var/checker/head.json
