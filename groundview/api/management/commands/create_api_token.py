import argparse
import math
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from groundview.api.models import ApiToken

MAX_DAYS = 36500


class Command(BaseCommand):
    help = (
        "Create an API token for a user and print it (once: only its hash is stored). "
        "The user must already exist; tokens act with that user's role."
    )

    def add_arguments(self, parser):
        parser.add_argument("--user", required=True, help="username the token acts as")
        parser.add_argument("--name", default="cli", help="what the token is for (default: cli)")
        parser.add_argument(
            "--expires",
            type=days,
            metavar="DAYS",
            help="days until it stops working, 0 for never, at most 36500 (default: "
            "GROUNDVIEW_API_TOKEN_DAYS, 90)",
        )

    def handle(self, *args, **options):
        try:
            user = get_user_model().objects.get(username=options["user"])
        except get_user_model().DoesNotExist:
            raise CommandError(
                f"no user {options['user']!r}; create one first "
                "(groundview manage createsuperuser, or the admin)"
            ) from None
        if not user.is_active:
            raise CommandError(f"user {user.username!r} is inactive; its tokens would not work")
        expires, expires_at = options["expires"], None
        if expires is not None:
            # Again here: call_command's keywords skip the parser's type.
            try:
                expires = days(str(expires))
            except argparse.ArgumentTypeError as error:
                raise CommandError(f"--expires: {error}") from None
        if expires:
            expires_at = timezone.now() + timedelta(days=expires)
        row, token = ApiToken.issue(
            user, options["name"], expires_at=expires_at, never_expires=expires == 0
        )
        expires_at = row.expires_at
        until = f"until {expires_at:%Y-%m-%d %H:%M} UTC" if expires_at else "until revoked"
        # The token alone on stdout, so `TOKEN=$(groundview token create ...)` works.
        self.stderr.write(f"API token {row.prefix}… for {user.username}, valid {until}:")
        self.stdout.write(token)


def days(text: str) -> float:
    """--expires: a finite number of days from 0 (never) to 100 years, which a date can hold."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of days") from None
    if not math.isfinite(value) or not 0 <= value <= MAX_DAYS:
        raise argparse.ArgumentTypeError(f"must be from 0 (never) to {MAX_DAYS} days, not {text}")
    return value
