"""One exception handler for the API: client mistakes are 400s with the field named, never 500s.

A FieldError from any service (a filter, a label, a batch's answers) becomes a 400 here, so views
let it pass instead of catching it: `{field: [message]}` on /api/ (a nested field named by its path,
`claims[0].end_index`, whoever found the mistake), and Google's body
`{"error": {"code": 400, "message": ..., "status": "INVALID_ARGUMENT"}}` on the Vertex routes
(views with `google_errors`).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions
from rest_framework.views import exception_handler as drf_exception_handler

from groundview.errors import FieldError

GOOGLE_STATUS = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    405: "UNIMPLEMENTED",
    406: "INVALID_ARGUMENT",
    409: "ALREADY_EXISTS",
    413: "INVALID_ARGUMENT",
    415: "INVALID_ARGUMENT",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
}


def google_error(code: int, message: str) -> dict:
    return {
        "error": {"code": code, "message": message, "status": GOOGLE_STATUS.get(code, "UNKNOWN")}
    }


def flatten(detail, prefix: str = "") -> list[str]:
    """DRF error detail (str, list or dict of them) -> ["field: message", ...]."""
    if isinstance(detail, dict):
        messages = []
        for key, value in detail.items():
            name = str(key) if key != "non_field_errors" else ""
            path = f"{prefix}.{name}" if prefix and name else (name or prefix)
            messages.extend(flatten(value, path))
        return messages
    if isinstance(detail, list):
        return [message for item in detail for message in flatten(item, prefix)]
    return [f"{prefix}: {detail}" if prefix else str(detail)]


def by_path(detail) -> dict[str, list[str]]:
    """DRF's nested error detail keyed by the paths FieldError uses, so every 400 on /api/ has one
    shape: {"claims": {0: {"end_index": [m]}}} becomes {"claims[0].end_index": [m]}. A list
    serializer's valid items (empty dicts) leave no key. Only an int key is an index (DRF keys a
    ListField's item errors by position); a DictField's key "0" is a name: `filters.0`."""
    errors: dict[str, list[str]] = {}

    def walk(value, path: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(key, int):
                    walk(item, f"{path}[{key}]")
                elif key == "non_field_errors":
                    walk(item, path)
                else:
                    walk(item, f"{path}.{key}" if path else str(key))
        elif isinstance(value, list) and any(isinstance(item, dict | list) for item in value):
            for index, item in enumerate(value):
                walk(item, f"{path}[{index}]")
        elif isinstance(value, list):
            errors.setdefault(path or "non_field_errors", []).extend(str(item) for item in value)
        else:
            errors.setdefault(path or "non_field_errors", []).append(str(value))

    walk(detail, "")
    return errors


def as_validation_error(error: FieldError) -> exceptions.ValidationError:
    message = f"{error.record}: {error.message}" if error.record else error.message
    return exceptions.ValidationError({error.field or "non_field_errors": [message]})


def exception_handler(exc, context):
    if isinstance(exc, FieldError):
        exc = as_validation_error(exc)
    elif isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        )
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    view = context.get("view")
    if isinstance(exc, exceptions.ValidationError) and not getattr(view, "google_errors", False):
        response.data = by_path(response.data)
    if getattr(view, "google_errors", False):
        if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
            message = (
                "Request is missing a valid authentication credential: send "
                "'Authorization: Bearer <API token>' (tokens are made by an admin in /admin/)."
                if isinstance(exc, exceptions.NotAuthenticated)
                else str(exc.detail)
            )
        else:
            message = "; ".join(
                flatten(
                    response.data.get("detail", response.data)
                    if isinstance(response.data, dict)
                    else response.data
                )
            )
        response.data = google_error(response.status_code, message)
    return response
