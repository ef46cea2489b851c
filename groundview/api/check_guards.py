"""Guards for the Check Grounding route: a hostile body is a 4xx in Google's shape, and only a few
heavy checks run at once per process.

- `parse_check_body` reads and parses the body itself: JSON nested deeper than `MAX_DEPTH`,
  integers longer than `MAX_INT_DIGITS`, `NaN` / `Infinity` / numbers out of float range, lone
  surrogates and form content types are 400 INVALID_ARGUMENT; a chunked body (no Content-Length)
  is read when the server has decoded it (`wsgi.input_terminated`, as gunicorn does), else 411.
- `check_slot` is a per-process semaphore of `GROUNDVIEW_MAX_CONCURRENT_CHECKS` slots; waiting
  longer than `GROUNDVIEW_CHECK_QUEUE_SECONDS` for one is 429 RESOURCE_EXHAUSTED with Retry-After.
"""

from __future__ import annotations

import json
import math
import threading
from contextlib import contextmanager

from django.conf import settings

from groundview.answers.reading import DuplicateKey, unique_keys
from groundview.answers.schema import MAX_DEPTH, MAX_INT_DIGITS, BadNumber
from groundview.api.base import read_body
from groundview.api.errors import google_error

FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")


class BodyError(Exception):
    """A request the view answers with `self.status` and Google's error body."""

    def __init__(self, status: int, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}

    def body(self) -> dict:
        data = google_error(self.status, self.message)
        if self.status == 411:
            data["error"]["status"] = "FAILED_PRECONDITION"
        return data


def invalid(detail: str) -> BodyError:
    return BodyError(400, f"Invalid JSON payload received. {detail}")


def read_check_body(request, limit: int) -> bytes:
    meta = request._request.META
    chunked = "chunked" in meta.get("HTTP_TRANSFER_ENCODING", "").lower()
    if chunked and not meta.get("CONTENT_LENGTH"):
        if not meta.get("wsgi.input_terminated"):
            raise BodyError(411, "A chunked request body needs a Content-Length here: send one.")
        return meta["wsgi.input"].read(limit + 1)
    return read_body(request, limit)


# Numbers no field can hold are parsed into BadNumber markers, and _check_tree names the field
# that holds one, as the importer does.
def _parse_int(text: str) -> int | BadNumber:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        return BadNumber(text, f"has more than {MAX_INT_DIGITS} digits")
    return int(text)


def _parse_float(text: str) -> float | BadNumber:
    number = float(text)
    if not math.isfinite(number):
        return BadNumber(text, "is out of range")
    return number


def _parse_constant(name: str) -> BadNumber:
    return BadNumber(name, "is not a valid JSON value (JSON has no NaN or Infinity)")


def _check_tree(payload) -> None:
    """Depth at most MAX_DEPTH and no lone surrogate in any string; iterative, so any depth is safe."""
    stack = [(payload, 1, "")]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, BadNumber):
            raise invalid(f"'{path or '.'}': {value!r}.")
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise invalid(f"A string at '{path or '.'}' holds a lone surrogate.") from None
            continue
        if not isinstance(value, dict | list):
            continue
        if depth > MAX_DEPTH:
            raise invalid(f"JSON is nested deeper than {MAX_DEPTH} levels.")
        if isinstance(value, dict):
            for key, item in value.items():
                stack.append((key, depth, path))
                stack.append((item, depth + 1, f"{path}.{key}" if path else key))
        else:
            stack.extend((item, depth + 1, f"{path}[{i}]") for i, item in enumerate(value))


def parse_check_body(request, limit: int):
    """The parsed JSON body of a Check Grounding request, or BodyError."""
    content_type = request._request.META.get("CONTENT_TYPE", "").split(";")[0].strip().lower()
    if content_type in FORM_TYPES:
        raise BodyError(400, f"Invalid Content-Type {content_type}: send application/json.")
    body = read_check_body(request, limit)
    if len(body) > limit:
        raise BodyError(400, "Request payload size exceeds the limit.")
    try:
        payload = json.loads(
            body,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
            object_pairs_hook=unique_keys,
        )
    except UnicodeDecodeError:
        raise invalid("the body is not UTF-8.") from None
    except json.JSONDecodeError as error:
        raise invalid(f"{error.msg} at line {error.lineno} column {error.colno}.") from None
    except DuplicateKey as error:
        raise invalid(f"The key '{error.key}' is given twice in one object.") from None
    except RecursionError:
        raise invalid(f"JSON is nested deeper than {MAX_DEPTH} levels.") from None
    except ValueError as error:  # a number Python cannot convert
        raise invalid(f"A number is out of range ({str(error)[:80]}).") from None
    _check_tree(payload)
    return payload


_lock = threading.Lock()
_slots: tuple[int, threading.BoundedSemaphore] | None = None


def _semaphore() -> threading.BoundedSemaphore:
    global _slots
    size = max(1, int(settings.GROUNDVIEW_MAX_CONCURRENT_CHECKS))
    with _lock:
        if _slots is None or _slots[0] != size:
            _slots = (size, threading.BoundedSemaphore(size))
        return _slots[1]


@contextmanager
def check_slot():
    """Hold one of the process's check slots while the engine runs, or raise BodyError(429)."""
    wait = float(settings.GROUNDVIEW_CHECK_QUEUE_SECONDS)
    semaphore = _semaphore()
    if not semaphore.acquire(timeout=max(0.0, wait)):
        raise BodyError(
            429,
            "Too many grounding checks are running on this server; retry later.",
            {"Retry-After": str(max(1, math.ceil(wait)))},
        )
    try:
        yield
    finally:
        semaphore.release()
