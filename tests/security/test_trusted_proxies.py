"""X-Forwarded-For is the client's own word unless a trusted proxy wrote it: without
GROUNDVIEW_TRUSTED_PROXIES a forged header neither escapes the API throttle or the sign-in
lockout nor tells clients apart; with it, the address the proxy reports is the client."""

import pytest
from django.test import RequestFactory, override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from groundview.security.proxies import client_address

# The Django test client connects from 127.0.0.1.
PROXY = "127.0.0.1"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # PBKDF2 costs ~0.4 s per sign-in; these tests are about addresses, not passwords.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def address(remote, forwarded=None, trusted=()):
    meta = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    with override_settings(GROUNDVIEW_TRUSTED_PROXIES=list(trusted)):
        return client_address(RequestFactory().get("/", **meta))


@pytest.mark.parametrize(
    "remote, forwarded, trusted, expected",
    [
        # No trusted proxy: the header is ignored, whatever it says.
        ("198.51.100.1", "203.0.113.7", (), "198.51.100.1"),
        ("10.0.0.5", "203.0.113.7", (), "10.0.0.5"),
        # From a trusted proxy: the address it appended.
        ("10.0.0.5", "203.0.113.7", ("10.0.0.0/8",), "203.0.113.7"),
        # A forged left part is skipped: the proxy's own entry is the rightmost.
        ("10.0.0.5", "6.6.6.6, 203.0.113.7", ("10.0.0.0/8",), "203.0.113.7"),
        # Two trusted proxies in a row.
        ("10.0.0.5", "6.6.6.6, 203.0.113.7, 10.0.0.9", ("10.0.0.0/8",), "203.0.113.7"),
        # A request reaching the app port directly: its header is not a proxy's.
        ("198.51.100.1", "203.0.113.7", ("10.0.0.0/8",), "198.51.100.1"),
        # A trusted proxy that forwards nothing: the proxy is the client.
        ("10.0.0.5", None, ("10.0.0.0/8",), "10.0.0.5"),
        # Ports and IPv6 as proxies write them; IPv4 seen through an IPv6 socket.
        ("10.0.0.5", "203.0.113.7:4711", ("10.0.0.5",), "203.0.113.7"),
        ("fd00::2", "[2001:db8::7]:443", ("fd00::/8",), "2001:db8::7"),
        ("::ffff:10.0.0.5", "203.0.113.7", ("10.0.0.0/8",), "203.0.113.7"),
        # Text no proxy writes stops the walk at the last address a proxy did write.
        ("10.0.0.5", "<script>, 10.0.0.9", ("10.0.0.0/8",), "10.0.0.9"),
    ],
)
def test_the_client_address(remote, forwarded, trusted, expected):
    assert address(remote, forwarded, trusted) == expected


@pytest.fixture
def anon_rate(settings):
    settings.GROUNDVIEW_THROTTLE_RATES = {**settings.GROUNDVIEW_THROTTLE_RATES, "anon": "3/minute"}


def anonymous_calls(forwarded_for):
    """Token guesses (a wrong Bearer token): what the per-address API rate is there to stop."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer gv_not-a-token")
    return [
        client.get("/api/answers", HTTP_X_FORWARDED_FOR=value).status_code
        for value in forwarded_for
    ]


@pytest.mark.django_db
def test_a_forged_forwarded_for_does_not_escape_the_api_throttle(anon_rate):
    # A fresh X-Forwarded-For per request used to make each one a new client to DRF.
    statuses = anonymous_calls(["203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4"])

    assert statuses == [401, 401, 401, 429]


@pytest.mark.django_db
def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_rate(anon_rate, settings):
    settings.GROUNDVIEW_TRUSTED_PROXIES = [PROXY]

    others = anonymous_calls(["203.0.113.1", "203.0.113.2", "203.0.113.3", "203.0.113.4"])
    one = anonymous_calls(["6.6.6.6, 203.0.113.9"] * 3 + ["7.7.7.7, 203.0.113.9"])

    assert others == [401, 401, 401, 401]
    # The same client behind the proxy, whatever it puts in front of the proxy's entry.
    assert one == [401, 401, 401, 429]


def sign_in(client, password, forwarded_for):
    return client.post(
        reverse("login"),
        {"username": "rita", "password": password},
        HTTP_X_FORWARDED_FOR=forwarded_for,
    ).status_code


@pytest.mark.django_db
@override_settings(GROUNDVIEW_LOGIN_MAX_FAILURES=2)
def test_a_forged_forwarded_for_does_not_escape_the_sign_in_lockout(client, reviewer):
    sign_in(client, "wrong", "203.0.113.1")
    sign_in(client, "wrong", "203.0.113.2")

    assert sign_in(client, "pw-rita-123", "203.0.113.3") == 429


@pytest.mark.django_db
@override_settings(GROUNDVIEW_LOGIN_MAX_FAILURES=2, GROUNDVIEW_TRUSTED_PROXIES=[PROXY])
def test_behind_a_trusted_proxy_the_lockout_is_per_forwarded_client(client, reviewer):
    sign_in(client, "wrong", "203.0.113.1")
    sign_in(client, "wrong", "203.0.113.1")

    assert sign_in(client, "pw-rita-123", "203.0.113.1") == 429
    # Another client behind the same proxy is not locked out by the first one's failures.
    assert sign_in(client, "pw-rita-123", "203.0.113.2") == 302


@pytest.mark.django_db
@override_settings(
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
    SECURE_SSL_REDIRECT=True,
    GROUNDVIEW_TRUSTED_PROXIES=["10.0.0.0/8"],
)
def test_only_a_trusted_proxy_may_say_the_request_was_https(client):
    from_proxy = client.get(
        "/accounts/login/", REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_PROTO="https"
    )
    direct = client.get(
        "/accounts/login/", REMOTE_ADDR="198.51.100.1", HTTP_X_FORWARDED_PROTO="https"
    )

    assert from_proxy.status_code == 200
    assert direct.status_code == 301
    assert direct["Location"].startswith("https://")


def test_a_bad_trusted_proxies_setting_stops_start_up(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=Path(__file__).resolve().parents[2],
        env={
            **os.environ,
            "GROUNDVIEW_TRUSTED_PROXIES": "10.0.0.0/8,proxy.internal",
            "GROUNDVIEW_DATA_DIR": str(tmp_path),
        },
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode != 0
    assert "GROUNDVIEW_TRUSTED_PROXIES" in result.stderr and "proxy.internal" in result.stderr
