"""Readiness checks: can this process do its job right now?

Each check returns None when fine, or a short reason. Reasons are shown to whoever asks /readyz, so
they name the failing dependency and the exception class only; the full error goes to the log.
"""

from __future__ import annotations

import logging
from pathlib import Path

from django.conf import settings
from django.db import connections

logger = logging.getLogger(__name__)

# A readiness probe that hangs is worse than one that fails: every dependency gets this long.
TIMEOUT_S = 2.0


def _failed(what: str, exc: BaseException) -> str:
    logger.warning("readiness: %s: %s", what, exc)
    return f"unreachable ({type(exc).__name__})"


def database() -> str | None:
    connection = connections["default"]
    try:
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "not ready", whatever its class
        # A persistent connection that broke stays "open" for Django; drop it so the next probe
        # reconnects instead of failing on the dead socket until CONN_MAX_AGE runs out.
        connection.close()
        return _failed("database", exc)
    return None


def broker() -> str | None:
    url = settings.CELERY_BROKER_URL
    if not url:
        return None  # eager mode: checks run in the web process, there is no broker to reach
    try:
        if url.startswith(("redis://", "rediss://")):
            import redis

            client = redis.Redis.from_url(
                url, socket_connect_timeout=TIMEOUT_S, socket_timeout=TIMEOUT_S
            )
            try:
                client.ping()
            finally:
                client.close()
        else:
            from kombu import Connection

            with Connection(url, connect_timeout=TIMEOUT_S) as conn:
                conn.ensure_connection(max_retries=1, timeout=TIMEOUT_S)
    except Exception as exc:
        return _failed("broker", exc)
    return None


def model() -> str | None:
    """The configured engine's files are all there. Nothing is loaded: torch in a request would
    cost seconds and hundreds of MB; workers load the engine when they start."""
    from groundview.answers.checks import engine_config
    from groundview.grounding.head import DEFAULT_HEAD
    from groundview.grounding.models import packaged_minilm_path
    from groundview.grounding.windows import DEFAULT_VERIFIER_DIR

    try:
        config = engine_config()
        needed = [Path(config.head_path) if config.head_path else DEFAULT_HEAD]
        if config.verifier == "stacked":
            folder = Path(config.verifier_path) if config.verifier_path else DEFAULT_VERIFIER_DIR
            needed += [folder / "verifier.json", folder / "top_layers.safetensors"]
        if config.verifier == "cross-encoder":
            needed.append(Path(config.cross_encoder_path or "") / "config.json")
        if config.embedder is None:
            embedder = Path(config.embedder_path) if config.embedder_path else None
            needed.append((embedder or packaged_minilm_path()) / "config.json")
    except Exception as exc:
        logger.warning("readiness: model: %s", exc)
        return f"misconfigured ({type(exc).__name__})"
    missing = [path.name for path in needed if not path.is_file()]
    if missing:
        logger.warning("readiness: model files missing: %s", [str(p) for p in needed])
        return "missing " + ", ".join(missing)
    return None


CHECKS = {"database": database, "broker": broker, "model": model}
# What this process cannot serve without. A broker that is down only delays checks (runs wait in
# the database for the sweep), so reviewing goes on and the process reports itself "degraded".
REQUIRED = ("database", "model")


def readiness() -> dict[str, str]:
    """Every check's outcome by name: "ok" or its reason."""
    return {name: (check() or "ok") for name, check in CHECKS.items()}
