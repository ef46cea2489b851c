"""API request rates, from settings.GROUNDVIEW_THROTTLE_RATES.

DRF's own classes copy their rates when rest_framework is imported; these read the setting on
each request, so a deployment (or a test) can change them without a restart of the import.
Counts live in Django's cache: set CACHE_URL when several web processes serve the API. Addresses
are the client's as trusted proxies report it (groundview/security/proxies.py).
"""

from django.conf import settings
from rest_framework import throttling

from groundview.security.proxies import client_address


class SettingsRatesMixin:
    def get_rate(self):
        return settings.GROUNDVIEW_THROTTLE_RATES.get(self.scope)

    def get_ident(self, request):
        # DRF's own get_ident keys on the whole X-Forwarded-For header unless NUM_PROXIES is set:
        # a client could pick a fresh header per request and never be throttled.
        return client_address(request)


class AnonThrottle(SettingsRatesMixin, throttling.AnonRateThrottle):
    pass


class UserThrottle(SettingsRatesMixin, throttling.UserRateThrottle):
    pass


class ScopedThrottle(SettingsRatesMixin, throttling.ScopedRateThrottle):
    """Tighter limits for views that name a throttle_scope (Check Grounding runs the model)."""


class FailedTokenThrottle(SettingsRatesMixin, throttling.SimpleRateThrottle):
    """Wrong Bearer tokens per client address, at the "anon" rate.

    DRF checks permissions before throttles, so a plain anonymous throttle never sees a request
    that is refused as unauthenticated; token guessing is counted here instead, by the
    authentication class, before the 401.
    """

    scope = "anon"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": "failed-token", "ident": self.get_ident(request)}
