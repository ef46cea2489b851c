"""One exception handler for the API: client mistakes are 400s with the field named, never 500s."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions
from rest_framework.views import exception_handler as drf_exception_handler

from groundview.api.vertex import google_error


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


def exception_handler(exc, context):
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        )
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    view = context.get("view")
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
