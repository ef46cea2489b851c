"""GROUNDVIEW_HTTPS=1 (behind a TLS-terminating proxy): HSTS, Secure cookies, HTTP redirected.

Settings are read once per process, so this runs a fresh one with the environment set."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json
from django.test import Client
client = Client()
tls = client.get("/accounts/login/", HTTP_X_FORWARDED_PROTO="https")
plain = client.get("/accounts/login/")
cookie = tls.cookies["csrftoken"]
print(json.dumps({
    "status": tls.status_code,
    "hsts": tls.get("Strict-Transport-Security", ""),
    "csp": tls.get("Content-Security-Policy", ""),
    "csrf_secure": bool(cookie["secure"]),
    "plain_status": plain.status_code,
    "plain_location": plain.get("Location", ""),
}))
"""


def probe(tmp_path, **env):
    environment = {
        **os.environ,
        "GROUNDVIEW_DATA_DIR": str(tmp_path),
        "ALLOWED_HOSTS": "testserver",
        **env,
    }
    environment.pop("DATABASE_URL", None)  # the login page needs no database
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", PROBE],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_https_mode_sends_hsts_secure_cookies_and_redirects_http(tmp_path):
    seen = probe(tmp_path, GROUNDVIEW_HTTPS="1")
    assert seen["status"] == 200
    assert seen["hsts"].startswith("max-age=31536000")
    assert seen["csrf_secure"] is True
    assert "script-src 'self'" in seen["csp"]
    assert seen["plain_status"] == 301
    assert seen["plain_location"].startswith("https://")


def test_without_https_mode_there_is_no_hsts(tmp_path):
    seen = probe(tmp_path)
    assert seen["hsts"] == ""
    assert seen["plain_status"] == 200
