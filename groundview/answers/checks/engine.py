"""The grounding engine as this process sees it: configured from settings, loaded once."""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)


def engine_config():
    from groundview.grounding import EngineConfig

    return EngineConfig.from_dict(settings.GROUNDING)


def get_engine():
    """This process's engine (models load once per process; the engine caches it per config)."""
    config = engine_config()
    if settings.GROUNDVIEW_CHECK_ENGINE:
        return import_string(settings.GROUNDVIEW_CHECK_ENGINE)(config)
    from groundview.grounding import get_engine as grounding_engine

    return grounding_engine(config)


def engine_version(engine) -> str:
    version = getattr(engine, "version", None)
    if version:
        return str(version)
    from groundview.grounding import ENGINE_VERSION

    return ENGINE_VERSION


def warm_engine() -> None:
    """Load the models now, e.g. when a worker process starts, rather than in its first task."""
    started = time.monotonic()
    get_engine().warm_up()
    logger.info("grounding engine ready in %.1f s", time.monotonic() - started)


def describe(exc: BaseException) -> str:
    """An exception as a run's error text."""
    message = getattr(exc, "message", None) or str(exc)
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__
