"""Failed sign-ins are counted per (username, address); past the limit the login pages refuse."""

import os
import threading

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse


def attempt(client, username, password, url=None, address="10.0.0.1"):
    return client.post(
        url or reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
    )


@pytest.mark.django_db
@override_settings(GROUNDVIEW_LOGIN_MAX_FAILURES=3, GROUNDVIEW_LOGIN_LOCKOUT_SECONDS=600)
def test_login_locks_out_after_failures_even_with_the_right_password(client, reviewer):
    for _ in range(3):
        response = attempt(client, "rita", "wrong")
        assert response.status_code == 200
        assert b"didn't match" in response.content
    response = attempt(client, "rita", "pw-rita-123")
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 590
    assert b"Too many failed sign-in attempts" in response.content
    assert b"Try again in 10 minutes." in response.content
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
@override_settings(GROUNDVIEW_LOGIN_MAX_FAILURES=3)
def test_lockout_is_per_username_and_address(client, reviewer, admin_user):
    for _ in range(3):
        attempt(client, "RITA", "wrong")
    # Another address, or another account from the same address, may still sign in.
    assert attempt(client, "rita", "pw-rita-123", address="10.0.0.2").status_code == 302
    client.logout()
    assert attempt(client, "ada", "pw-ada-123").status_code == 302


@pytest.mark.django_db
@override_settings(GROUNDVIEW_LOGIN_MAX_FAILURES=3)
def test_a_successful_sign_in_clears_the_count(client, reviewer):
    attempt(client, "rita", "wrong")
    attempt(client, "rita", "wrong")
    assert attempt(client, "rita", "pw-rita-123").status_code == 302
    client.logout()
    attempt(client, "rita", "wrong")
    attempt(client, "rita", "wrong")
    assert attempt(client, "rita", "pw-rita-123").status_code == 302


@pytest.mark.django_db
@override_settings(GROUNDVIEW_LOGIN_MAX_FAILURES=2)
def test_the_admin_login_is_throttled_too(client, admin_user):
    url = reverse("admin:login")
    attempt(client, "ada", "wrong", url=url)
    attempt(client, "ada", "wrong", url=url)
    response = attempt(client, "ada", "pw-ada-123", url=url)
    assert b"Too many failed sign-in attempts" in response.content
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_guesses_sent_at_once_each_use_up_an_attempt_in_a_shared_redis_cache(settings):
    # Two web processes share a count only through a shared cache; Redis is what compose uses.
    broker = os.environ.get("GROUNDVIEW_TEST_BROKER_URL", "redis://127.0.0.1:6379/15")
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": broker.rsplit("/", 1)[0] + "/14",
        }
    }
    settings.GROUNDVIEW_LOGIN_MAX_FAILURES = 3
    cache.clear()
    barrier = threading.Barrier(12)
    codes = []

    def guess():
        client = Client()
        barrier.wait()
        try:
            codes.append(attempt(client, "rita", "wrong", address="10.9.9.9").status_code)
        finally:
            connection.close()  # each thread's own

    threads = [threading.Thread(target=guess) for _ in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    cache.clear()

    # Three were checked (and failed); the other nine were refused unchecked.
    assert sorted(codes) == [200] * 3 + [429] * 9
