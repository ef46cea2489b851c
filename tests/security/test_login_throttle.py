"""Failed sign-ins are counted per (username, address); past the limit the login pages refuse."""

import pytest
from django.test import override_settings
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
