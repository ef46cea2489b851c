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

# The CPU build of torch first, so nothing below pulls the multi-GB CUDA one.
RUN pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu

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
CMD ["gunicorn", "groundview.wsgi", "--bind", "0.0.0.0:8000", "--workers", "2", "--access-logfile", "-"]
