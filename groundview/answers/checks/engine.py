"""The grounding engine as this process sees it: configured from settings (with the default checker
version's head, versions.py), loaded once."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils.module_loading import import_string

from groundview.answers.checks.versions import get_default_version, head_file
from groundview.answers.models import CheckerVersion

if TYPE_CHECKING:
    from groundview.grounding import EngineConfig

logger = logging.getLogger(__name__)


def base_config() -> EngineConfig:
    """The engine's configuration from settings.GROUNDING alone: the configured or packaged head."""
    from groundview.grounding import EngineConfig

    return EngineConfig.from_dict(settings.GROUNDING)


def checker_setup() -> tuple[EngineConfig, CheckerVersion | None]:
    """The engine's configuration from settings.GROUNDING, with the default checker version's head
    in place of the configured one when a version is the default; and that version."""
    from groundview.grounding import EngineConfig

    version = get_default_version()
    if version is None:
        return base_config(), None
    data = {k: v for k, v in settings.GROUNDING.items() if str(k).lower() != "head_path"}
    data["HEAD_PATH"] = str(head_file(version.head_spec))
    return EngineConfig.from_dict(data), version


def engine_config() -> EngineConfig:
    return checker_setup()[0]


def get_engine():
    """This process's engine (models load once per process; the engine caches it per config)."""
    return get_engine_and_version()[0]


def get_engine_and_version():
    """The engine and the checker version whose head it scores with (None: the packaged head)."""
    config, version = checker_setup()
    if settings.GROUNDVIEW_CHECK_ENGINE:
        return import_string(settings.GROUNDVIEW_CHECK_ENGINE)(config), version
    from groundview.grounding import get_engine as grounding_engine

    return grounding_engine(config), version


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
