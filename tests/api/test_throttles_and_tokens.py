"""Abuse limits on the API: request rates (per user, per address for wrong tokens, a tighter one
for Check Grounding) and API tokens that expire and record their last use."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from groundview.api.models import ApiToken

CHECK = "/v1/projects/p1/locations/global/groundingConfigs/default_grounding_config:check"


def bearer(token):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@pytest.fixture
def rates(settings):
    settings.GROUNDVIEW_THROTTLE_RATES = {
        "anon": "3/minute",
        "user": "100/minute",
        "check_grounding": "3/minute",
    }
    return settings.GROUNDVIEW_THROTTLE_RATES


@pytest.mark.django_db
def test_check_grounding_has_its_own_tighter_rate(rates, reviewer_token):
    client = bearer(reviewer_token)
    # Bad bodies are answered without the model, and count all the same.
    for _ in range(3):
        assert client.post(CHECK, "{", content_type="application/json").status_code == 400
    response = client.post(CHECK, "{", content_type="application/json")
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert response.json()["error"]["status"] == "RESOURCE_EXHAUSTED"
    # The rest of the API is under the (looser) user rate.
    assert client.get("/api/answers").status_code == 200


@pytest.mark.django_db
def test_each_user_has_a_request_rate(rates, reviewer, admin_user):
    rates["user"] = "5/minute"
    _, rita = ApiToken.issue(reviewer, "t")
    _, ada = ApiToken.issue(admin_user, "t")
    for _ in range(5):
        assert bearer(rita).get("/api/answers").status_code == 200
    response = bearer(rita).get("/api/answers")
    assert response.status_code == 429
    assert "Retry-After" in response
    assert bearer(ada).get("/api/answers").status_code == 200


@pytest.mark.django_db
def test_guessing_tokens_is_throttled_per_address(rates, reviewer_token):
    wrong = bearer("gv_not-a-token")
    for _ in range(3):
        assert wrong.get("/api/answers").status_code == 401
    assert wrong.get("/api/answers").status_code == 429
    assert wrong.post(CHECK, "{}", content_type="application/json").status_code == 429
    # A real token still works from the same address.
    assert bearer(reviewer_token).get("/api/answers").status_code == 200


@pytest.mark.django_db
def test_limits_can_be_switched_off(rates, reviewer_token):
    rates["check_grounding"] = None
    client = bearer(reviewer_token)
    for _ in range(6):
        assert client.post(CHECK, "{", content_type="application/json").status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize("days", [90, 7])
def test_new_tokens_expire_after_the_configured_days(settings, reviewer, days):
    settings.GROUNDVIEW_API_TOKEN_DAYS = days
    row, _ = ApiToken.issue(reviewer, "t")
    expected = timezone.now() + timedelta(days=days)
    assert abs(row.expires_at - expected) < timedelta(minutes=1)


@pytest.mark.django_db
def test_zero_days_means_tokens_do_not_expire(settings, reviewer):
    settings.GROUNDVIEW_API_TOKEN_DAYS = 0
    row, _ = ApiToken.issue(reviewer, "t")
    assert row.expires_at is None


@pytest.mark.django_db
def test_an_expired_token_is_refused_and_use_is_recorded(reviewer):
    row, token = ApiToken.issue(reviewer, "t")
    assert row.last_used_at is None
    assert bearer(token).get("/api/answers").status_code == 200
    row.refresh_from_db()
    assert row.last_used_at is not None
    ApiToken.objects.filter(pk=row.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    response = bearer(token).get("/api/answers")
    assert response.status_code == 401
    assert "expired" in response.json()["detail"]


@pytest.mark.django_db
def test_create_api_token_gives_the_default_lifetime(settings, reviewer):
    settings.GROUNDVIEW_API_TOKEN_DAYS = 30
    err = StringIO()
    call_command("create_api_token", user="rita", stdout=StringIO(), stderr=err)
    row = ApiToken.objects.get(user=reviewer)
    assert abs(row.expires_at - (timezone.now() + timedelta(days=30))) < timedelta(minutes=1)
    assert f"until {row.expires_at:%Y-%m-%d}" in err.getvalue()


@pytest.mark.django_db
def test_admin_sets_and_shows_the_expiry(client, admin_user, reviewer):
    client.force_login(admin_user)
    response = client.post(
        "/admin/api/apitoken/add/",
        {"user": reviewer.pk, "name": "chatbot", "expires_at_0": "", "expires_at_1": ""},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    row = ApiToken.objects.get(name="chatbot")
    assert abs(row.expires_at - (timezone.now() + timedelta(days=90))) < timedelta(minutes=1)
    listing = client.get("/admin/api/apitoken/").content.decode()
    assert "Expires at" in listing and "Last used at" in listing
