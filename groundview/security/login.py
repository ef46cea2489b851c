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
    return f"groundview:login-attempts:{digest}"


def seconds_locked(username: str, address: str) -> int:
    """How long this pair must still wait; 0 when it may try."""
    key = _key(username, address)
    if cache.get(key, 0) < max_failures():
        return 0
    since = cache.get(f"{key}:at", 0.0)
    return max(0, math.ceil(since + lockout_seconds() - time.time()))


def count_attempt(username: str, address: str) -> int:
    """Count an attempt before its password is checked; the attempts counted so far.

    Counted first and atomically (an increment in the shared cache), so guesses sent in parallel
    each use up one of the allowed attempts instead of all reading the same count. A successful
    sign-in clears the count, so only failures add up.
    """
    key, seconds = _key(username, address), lockout_seconds()
    cache.add(key, 0, seconds)
    try:
        attempts = cache.incr(key)
    except ValueError:  # it expired between add and incr
        cache.add(key, 0, seconds)
        attempts = cache.incr(key)
    # The window restarts at each attempt: a steady trickle of guesses stays locked out.
    cache.touch(key, seconds)
    cache.set(f"{key}:at", time.time(), seconds)
    return attempts


def clear_failures(username: str, address: str) -> None:
    key = _key(username, address)
    cache.delete_many([key, f"{key}:at"])


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
        if not wait and count_attempt(username, address) > max_failures():
            wait = lockout_seconds()
        if wait:
            self.locked_out, self.retry_after = True, wait
            minutes = math.ceil(wait / 60)
            raise ValidationError(
                self.error_messages["locked_out"],
                code="locked_out",
                params={"wait": f"{minutes} minute{'s' if minutes != 1 else ''}"},
            )
        cleaned = super().clean()
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
