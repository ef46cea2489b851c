"""Reading request bodies that are bigger than a form."""


def read_body(request, limit: int) -> bytes:
    """The raw body, at most limit + 1 bytes (so the caller can tell it was too big).

    Read from the stream rather than `request.body`, whose cap is Django's 2.5 MB form limit;
    if something already read the body (a CSRF check on a form post), use what it kept.
    """
    django_request = request._request
    if getattr(django_request, "_read_started", False):
        return getattr(django_request, "_body", b"")
    return django_request.read(limit + 1)
