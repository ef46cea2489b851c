"""The first middleware: operator endpoints, request ids, request metrics and an access log line.

/healthz, /readyz and /metrics are answered here, before SecurityMiddleware and CommonMiddleware,
because those validate the Host header and redirect to HTTPS: a container healthcheck or a
Prometheus scrape reaches the app as http://127.0.0.1:8000 or http://web:8000, which is neither an
ALLOWED_HOSTS entry nor HTTPS. These three responses depend on no Host, cookie or user.
"""

from __future__ import annotations

import hmac
import logging
import re
import time
import uuid

from django.conf import settings
from django.http import HttpResponse, JsonResponse

from groundview.ops import health, logs, metrics

access_log = logging.getLogger("groundview.access")

# An incoming X-Request-ID (from a proxy) is kept only if it is short and plain, so it is safe to log.
REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")


def healthz(request):
    # The process is up and serving; nothing else is touched (no database, no broker).
    return HttpResponse("ok\n", content_type="text/plain")


def readyz(request):
    checks = health.readiness()
    ready = all(checks[name] == "ok" for name in health.REQUIRED)
    if not ready:
        state = "unavailable"
    elif all(outcome == "ok" for outcome in checks.values()):
        state = "ready"
    else:
        state = "degraded"
    return JsonResponse(
        {"status": state, "checks": checks},
        status=200 if ready else 503,
        json_dumps_params={"sort_keys": True},
    )


def metrics_view(request):
    token = settings.GROUNDVIEW_METRICS_TOKEN
    if token:
        given = request.headers.get("Authorization", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            return HttpResponse("metrics need the bearer token\n", status=401)
    body, content_type = metrics.render()
    return HttpResponse(body, content_type=content_type)


ENDPOINTS = {"/healthz": healthz, "/readyz": readyz, "/metrics": metrics_view}


class OpsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        incoming = request.headers.get("X-Request-ID", "")
        rid = incoming if REQUEST_ID.match(incoming) else uuid.uuid4().hex
        token = logs.request_id.set(rid)
        started = time.perf_counter()
        try:
            endpoint = ENDPOINTS.get(request.path_info.rstrip("/") or "/")
            if endpoint is not None and request.method in {"GET", "HEAD"}:
                # Probes and scrapes stay out of the request metrics and the access log: they
                # would drown the real traffic.
                return endpoint(request)
            response = self.get_response(request)
            seconds = time.perf_counter() - started
            match = getattr(request, "resolver_match", None)
            # The route pattern, not the path, so the label's values stay few.
            route = match.route if match is not None else "unmatched"
            metrics.observe_request(request.method, route, response.status_code, seconds)
            access_log.info(
                "%s %s %s",
                request.method,
                request.path,
                response.status_code,
                extra={
                    "method": request.method,
                    "path": request.path,
                    "status": response.status_code,
                    "duration_ms": round(seconds * 1000, 1),
                },
            )
            response["X-Request-ID"] = rid
            return response
        finally:
            logs.request_id.reset(token)
