"""Raw HTTP against pytest-django's live server, for tests that must send bytes no client would."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from hypothesis import strategies as st

# Bodies no client would send (arbitrary bytes, lone surrogates) under the content types a server
# might try to parse, for the "never a 5xx" properties of every live-server fuzz module.
RAW_BODIES = st.one_of(
    st.binary(max_size=200),
    st.builds(lambda t: t.encode("utf-8", "surrogatepass"), st.text(max_size=50)),
)
CONTENT_TYPES = st.sampled_from(
    ["application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
)


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
