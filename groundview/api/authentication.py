"""`Authorization: Bearer <token>` for scripts and services; the browser uses its session."""

from datetime import timedelta

from django.utils import timezone
from rest_framework import authentication, exceptions

from groundview.api.models import ApiToken, hash_token
from groundview.api.throttles import FailedTokenThrottle

# Writing last_used_at on every request would turn each read into a write; a minute is precise enough.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class BearerTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                "Invalid Authorization header: expected 'Bearer <token>'."
            )
        try:
            token = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        row = (
            ApiToken.objects.active()
            .select_related("user")
            .filter(key_hash=hash_token(token))
            .first()
        )
        if row is None:
            throttle = FailedTokenThrottle()
            if not throttle.allow_request(request, None):
                # Guessing tokens: 429 with Retry-After instead of another 401.
                raise exceptions.Throttled(throttle.wait())
            raise exceptions.AuthenticationFailed("Invalid, expired or revoked token.")
        now = timezone.now()
        if row.last_used_at is None or now - row.last_used_at > LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
        return row.user, row

    def authenticate_header(self, request):
        # Makes DRF answer 401 (not 403) to requests without credentials.
        return 'Bearer realm="groundview"'
