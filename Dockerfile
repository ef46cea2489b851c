# groundview: one image for the web app and the Celery workers (see compose.yaml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    # Models come from installed packages only, never from the network.
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    # Any cache the model libraries write goes where the app user may write.
    HF_HOME=/app/var/hf

WORKDIR /app

# The CPU build of torch first, so nothing below pulls the multi-GB CUDA one. Override with
# --build-arg TORCH_INDEX_URL=... (a mirror of PyTorch's CPU index); `make image` passes the Makefile's.
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
RUN pip install torch==2.13.0 --index-url "$TORCH_INDEX_URL"

# Dependencies in their own layer: they change far less often than the code.
COPY pyproject.toml README.md ./
RUN mkdir groundview && touch groundview/__init__.py \
    && pip install -e . \
    && rm -rf groundview

COPY . .
RUN DEBUG=0 SECRET_KEY=collectstatic-only python manage.py collectstatic --no-input \
    && useradd --system --uid 1000 --home-dir /app groundview \
    && mkdir -p /app/var \
    && chown -R groundview /app/var

USER groundview
EXPOSE 8000
# Liveness of the web process: /healthz needs no Host, database or broker (compose overrides it
# for the worker, and turns it off for one-off containers).
HEALTHCHECK --interval=15s --timeout=10s --start-period=20s --retries=5 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=5)"]
CMD ["groundview", "serve", "--host", "0.0.0.0", "--port", "8000", "--no-migrate", "--no-collectstatic"]
