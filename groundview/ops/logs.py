"""Log records that say which request or task they belong to, as JSON lines or plain text.

settings.LOGGING uses `logging_config()`; the middleware sets the request id for its request.
"""

from __future__ import annotations

import contextvars
import logging

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="")

# python-json-logger's field names -> the names log shippers expect.
JSON_FIELDS = {"levelname": "level", "name": "logger"}


class ContextFilter(logging.Filter):
    """Adds request_id (web requests) or task_id and run_ids (Celery tasks) to records."""

    def filter(self, record: logging.LogRecord) -> bool:
        # Only fields that are set: an empty request_id on every worker line is noise.
        if rid := request_id.get():
            record.request_id = rid
        try:
            from celery import current_task
        except ImportError:  # pragma: no cover - celery is a dependency
            return True
        task = current_task
        if task and task.request.id:
            record.task_id = task.request.id
            # Check tasks carry nothing but run ids (answers.tasks.check_runs).
            if task.name == "answers.check_runs" and task.request.args:
                record.run_ids = ",".join(str(i) for i in task.request.args[0])
        return True


def logging_config(fmt: str, level: str) -> dict:
    """A dictConfig for `fmt` "json" (one JSON object a line) or "text"."""
    if fmt not in {"json", "text"}:
        raise ValueError(f"GROUNDVIEW_LOG_FORMAT must be json or text, got {fmt!r}")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": ContextFilter}},
        "formatters": {
            "json": {
                "()": "pythonjsonlogger.json.JsonFormatter",
                "fmt": "%(levelname)s %(name)s %(message)s",
                "rename_fields": JSON_FIELDS,
                # ISO 8601 in UTC under "time", whatever the server's local zone.
                "timestamp": "time",
            },
            "text": {
                "format": "%(asctime)s %(levelname)s %(name)s %(message)s",
            },
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": fmt,
                "filters": ["context"],
            }
        },
        "root": {"handlers": ["console"], "level": level},
    }
