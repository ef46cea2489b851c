"""Raw HTTP against pytest-django's live server, for tests that must send bytes no client would."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any


def post_bytes(
    url: str, token: str, data: bytes, content_type: str = "application/json"
) -> tuple[int, Any]:
    """POST `data` as is with a Bearer token; the status and the body as JSON, or raw bytes when
    it is not JSON. Error statuses are returned, not raised."""
    request = urllib.request.Request(
        url,
        data=data,
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": content_type},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw
