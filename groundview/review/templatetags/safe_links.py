"""Links to references: answers, titles and uris come from other systems and are hostile until
proven safe. Only http: and https: uris become links; anything else (javascript:, data:, vbscript:,
file:, relative paths) is shown as text, so a click can never run script or open a local file."""

from urllib.parse import urlsplit

from django import template
from django.utils.html import format_html

register = template.Library()

WEB_SCHEMES = frozenset({"http", "https"})


def is_web_uri(uri) -> bool:
    """True for an absolute http(s) uri with a host.

    Browsers drop tabs and newlines inside a URL's scheme and trim leading whitespace and control
    characters ("java\\tscript:" runs), so such a uri is refused rather than cleaned up.
    """
    if not uri or not isinstance(uri, str):
        return False
    if any(ord(ch) <= 0x20 or ord(ch) == 0x7F for ch in uri):
        return False
    try:
        parts = urlsplit(uri)
    except ValueError:
        return False
    return parts.scheme.lower() in WEB_SCHEMES and bool(parts.netloc)


@register.simple_tag
def reference_link(uri, text):
    """An outbound link for a web uri; otherwise the text, with a note saying why it is no link."""
    text = text or uri or "Untitled"
    if is_web_uri(uri):
        return format_html(
            '<a href="{}" rel="noreferrer noopener" target="_blank">{}</a>', uri, text
        )
    if not uri:
        return format_html("<span>{}</span>", text)
    return format_html(
        '<span>{}</span> <span class="muted small not-a-link" title="Only http and https '
        'addresses are shown as links">(not a web link)</span>',
        text,
    )
