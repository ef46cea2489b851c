"""Tokens minted from the command line (what `groundview token create` runs)."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone
from rest_framework.test import APIClient

from groundview.api.models import ApiToken

pytestmark = pytest.mark.django_db


def create(**options):
    out, err = StringIO(), StringIO()
    call_command("create_api_token", stdout=out, stderr=err, **options)
    return out.getvalue().strip(), err.getvalue()


def test_printed_token_is_accepted_until_it_expires(reviewer):
    token, note = create(user="rita", expires=2)
    assert token.startswith("gv_")
    assert token[:10] in note and "valid until" in note
    row = ApiToken.objects.get()
    assert row.key_hash != token  # only its digest is stored
    assert timedelta(days=1.9) < row.expires_at - timezone.now() < timedelta(days=2.1)

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert api.get("/api/answers").status_code == 200

    ApiToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert api.get("/api/answers").status_code == 401


def test_with_lifetimes_off_the_token_lasts_until_revoked(reviewer, settings):
    settings.GROUNDVIEW_API_TOKEN_DAYS = 0  # the default lifetime is tests/api's business
    token, note = create(user="rita", name="deploy")
    assert "until revoked" in note
    assert ApiToken.objects.get().name == "deploy"
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert api.get("/api/answers").status_code == 200


def test_unknown_or_inactive_users_get_no_token(django_user_model):
    with pytest.raises(CommandError, match="no user 'nobody'"):
        create(user="nobody")
    django_user_model.objects.create_user(username="gone", is_active=False)
    with pytest.raises(CommandError, match="inactive"):
        create(user="gone")
    assert not ApiToken.objects.exists()


@pytest.mark.parametrize("days", ["nan", "inf", "1e308", "-1", "36501", "soon"])
def test_a_lifetime_no_date_can_hold_is_refused_by_name(reviewer, days):
    # As words, as `groundview token create --expires DAYS` passes them on
    with pytest.raises(CommandError, match="argument --expires: "):
        call_command("create_api_token", "--user", "rita", "--expires", days)
    assert not ApiToken.objects.exists()


def test_expires_0_means_never_whatever_the_default_lifetime(reviewer, settings):
    settings.GROUNDVIEW_API_TOKEN_DAYS = 90
    _, note = create(user="rita", expires=0)
    assert "until revoked" in note
    assert ApiToken.objects.get().expires_at is None


def test_a_lifetime_given_as_a_keyword_is_checked_too(reviewer):
    # call_command's keywords skip the parser: the command checks again
    with pytest.raises(CommandError, match="--expires: must be from 0"):
        create(user="rita", expires=-1)
    assert not ApiToken.objects.exists()


def test_the_cli_passes_a_name_that_starts_with_a_dash_as_a_value(django_user_model):
    from groundview import cli

    django_user_model.objects.create_user(username="-bot")
    assert cli.main(["token", "create", "--user=-bot", "--name=-ci", "--expires", "0"]) == 0
    assert ApiToken.objects.get().name == "-ci"
