"""Who the client is behind a reverse proxy, and which proxies may say so.

Behind a proxy, REMOTE_ADDR is the proxy's address; the client's is in X-Forwarded-For, to which
each proxy appends the address it got the request from. Anyone can send that header, so it is
believed only for requests that come from GROUNDVIEW_TRUSTED_PROXIES (addresses or networks), and
only as far as those proxies wrote it: read from the right, the first address that is not a
trusted proxy is the client; whatever lies left of it came from the client and is ignored. With
no trusted proxies (the default) the client is REMOTE_ADDR, whatever the headers say.

The API throttles and the sign-in lockout count per `client_address`. `ForwardedHeadersMiddleware`
drops the X-Forwarded-* headers of requests that did not come from a trusted proxy, so that
X-Forwarded-Proto (SECURE_PROXY_SSL_HEADER with GROUNDVIEW_HTTPS=1) is only a proxy's word too.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

FORWARDED_HEADERS = (
    "HTTP_X_FORWARDED_FOR",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
    "HTTP_FORWARDED",
)


@lru_cache(maxsize=8)
def networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries)


def trusted_networks() -> tuple[Network, ...]:
    return networks(tuple(getattr(settings, "GROUNDVIEW_TRUSTED_PROXIES", ())))


def parse_address(text: str) -> Address | None:
    """An address as proxies write it: bare, or with a port ("203.0.113.7:4711", "[2001:db8::1]:80")."""
    text = text.strip()
    if text.startswith("[") and "]" in text:
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:
        text = text.split(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    # An IPv4 client seen through an IPv6 socket ("::ffff:203.0.113.7") is that IPv4 client.
    mapped = getattr(address, "ipv4_mapped", None)
    return mapped or address


def is_trusted(address: Address | None, trusted: tuple[Network, ...]) -> bool:
    return address is not None and any(address in network for network in trusted)


def client_address(request) -> str:
    """The client's IP address as text ("" when unknown)."""
    if request is None:
        return ""
    remote = request.META.get("REMOTE_ADDR", "")
    trusted = trusted_networks()
    if not trusted or not is_trusted(parse_address(remote), trusted):
        return remote
    client = remote
    for hop in reversed(request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")):
        address = parse_address(hop)
        if address is None:
            break  # not something a proxy writes: the client's own text from here on
        client = str(address)
        if not is_trusted(address, trusted):
            break
    return client


class ForwardedHeadersMiddleware:
    """With GROUNDVIEW_TRUSTED_PROXIES set, forget the X-Forwarded-* headers of any request that
    did not come from one of them (a client reaching the app port directly could send any)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        trusted = trusted_networks()
        if trusted and not is_trusted(parse_address(request.META.get("REMOTE_ADDR", "")), trusted):
            for header in FORWARDED_HEADERS:
                request.META.pop(header, None)
        return self.get_response(request)
