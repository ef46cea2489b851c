"""API tokens: what a script or another service presents as `Authorization: Bearer <token>`.

Only a SHA-256 digest of the token is stored. Tokens are 256 random bits, so a plain digest is
enough (no slow password hash needed) and lets a request find its token with one indexed lookup.
The token itself is shown once, when an admin creates it.
"""

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

TOKEN_PREFIX = "gv_"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def default_expiry():
    """When a token issued now stops working: GROUNDVIEW_API_TOKEN_DAYS ahead, or never if 0.

    A leaked token that nobody remembers should not work forever; an admin can extend one."""
    days = settings.GROUNDVIEW_API_TOKEN_DAYS
    return timezone.now() + timedelta(days=days) if days else None


class ApiTokenQuerySet(models.QuerySet):
    def active(self):
        return self.filter(
            models.Q(expires_at__isnull=True) | models.Q(expires_at__gt=timezone.now()),
            revoked_at__isnull=True,
            user__is_active=True,
        )


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100, help_text="What the token is for, e.g. 'chatbot'.")
    # The first characters of the token, so a person can tell tokens apart; not a secret.
    prefix = models.CharField(max_length=16, editable=False)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)
    # None: valid until revoked. Deploy scripts mint tokens with an end date.
    expires_at = models.DateTimeField(null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        expired = self.expires_at is not None and self.expires_at <= timezone.now()
        return self.revoked_at is None and not expired

    @classmethod
    def issue(cls, user, name: str, expires_at=None, *, never_expires: bool = False):
        """Create a token for `user`; returns the row and the token, which is never stored.

        Without `expires_at` the token gets the default lifetime (default_expiry), unless it
        `never_expires`."""
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        row = cls.objects.create(
            user=user,
            name=name,
            prefix=token[:10],
            key_hash=hash_token(token),
            expires_at=None if never_expires else expires_at or default_expiry(),
        )
        return row, token

    def set_new_key(self) -> str:
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        self.prefix = token[:10]
        self.key_hash = hash_token(token)
        return token

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])
