"""Sign-in attempt throttling, for the login page and the admin's.

Failed attempts are counted in Django's cache per (username, client address). Past
GROUNDVIEW_LOGIN_MAX_FAILURES within GROUNDVIEW_LOGIN_LOCKOUT_SECONDS the form refuses to check
the password at all and says how long to wait; a successful sign-in clears the count.

Keyed on the pair, so a guesser cannot lock a reviewer out from elsewhere by failing on purpose.
The address is the client's, as trusted proxies report it (proxies.py); a forged X-Forwarded-For
neither escapes the count nor locks out someone else.
With several web processes the cache must be shared (CACHE_URL) or each process counts apart.
"""

import hashlib
import math
import time

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.exceptions import ValidationError

from groundview.security.proxies import client_address


def max_failures() -> int:
    return settings.GROUNDVIEW_LOGIN_MAX_FAILURES


def lockout_seconds() -> int:
    return settings.GROUNDVIEW_LOGIN_LOCKOUT_SECONDS


def _key(username: str, address: str) -> str:
    digest = hashlib.sha256(f"{username.casefold()}\0{address}".encode()).hexdigest()
    return f"groundview:login-failures:{digest}"


def seconds_locked(username: str, address: str) -> int:
    """How long this pair must still wait; 0 when it may try."""
    failures, since = cache.get(_key(username, address), (0, 0.0))
    if failures < max_failures():
        return 0
    return max(0, math.ceil(since + lockout_seconds() - time.time()))


def record_failure(username: str, address: str) -> None:
    key = _key(username, address)
    failures, _ = cache.get(key, (0, 0.0))
    # The window restarts at each failure: a steady trickle of guesses stays locked out.
    cache.set(key, (failures + 1, time.time()), lockout_seconds())


def clear_failures(username: str, address: str) -> None:
    cache.delete(_key(username, address))


LOCKED_OUT = (
    "Too many failed sign-in attempts for this account from your address. Try again in %(wait)s."
)


class ThrottledLoginMixin:
    locked_out = False
    retry_after = 0

    def clean(self):
        username = self.cleaned_data.get("username") or ""
        address = client_address(self.request)
        wait = seconds_locked(username, address)
        if wait:
            self.locked_out, self.retry_after = True, wait
            minutes = math.ceil(wait / 60)
            raise ValidationError(
                self.error_messages["locked_out"],
                code="locked_out",
                params={"wait": f"{minutes} minute{'s' if minutes != 1 else ''}"},
            )
        try:
            cleaned = super().clean()
        except ValidationError as error:
            if any(e.code == "invalid_login" for e in error.error_list):
                record_failure(username, address)
            raise
        clear_failures(username, address)
        return cleaned


class ThrottledAuthenticationForm(ThrottledLoginMixin, AuthenticationForm):
    error_messages = {**AuthenticationForm.error_messages, "locked_out": LOCKED_OUT}


class ThrottledAdminAuthenticationForm(ThrottledLoginMixin, AdminAuthenticationForm):
    error_messages = {**AdminAuthenticationForm.error_messages, "locked_out": LOCKED_OUT}


class LoginView(auth_views.LoginView):
    authentication_form = ThrottledAuthenticationForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.locked_out:
            # 429 tells scripts and monitoring what happened; a person reads the message.
            response.status_code = 429
            response["Retry-After"] = str(form.retry_after)
        return response
