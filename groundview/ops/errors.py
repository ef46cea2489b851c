"""Opt-in error reporting: with SENTRY_DSN set, unhandled errors in requests and Celery tasks go to
Sentry (or anything that speaks its protocol, e.g. GlitchTip). Needs `pip install groundview[sentry]`."""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured


def init_sentry(dsn: str, *, release: str) -> None:
    try:
        import sentry_sdk
        from sentry_sdk.integrations.celery import CeleryIntegration
        from sentry_sdk.integrations.django import DjangoIntegration
    except ImportError as exc:
        raise ImproperlyConfigured(
            "SENTRY_DSN is set but sentry-sdk is not installed: pip install 'groundview[sentry]'"
        ) from exc
    sentry_sdk.init(
        dsn=dsn,
        release=release,
        environment=os.environ.get("SENTRY_ENVIRONMENT", "production"),
        integrations=[DjangoIntegration(), CeleryIntegration()],
        # Errors only by default; tracing costs a request's worth of work per sampled request.
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
        # Answers and their sources are the customer's data: never attach users, cookies or bodies.
        send_default_pii=False,
        max_request_body_size="never",
    )
