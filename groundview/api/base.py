"""What every API view shares: input that PostgreSQL cannot store is refused up front, and the
query parameters a list reads are the only ones it takes."""

from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.settings import api_settings

PAGES = ("cursor", "page_size")


class NulSafeMixin:
    """PostgreSQL text cannot hold NUL: refuse it in the path and the query string with a 4xx,
    rather than letting the database raise later.

    `query_keys`: the parameters a list or an export reads. Any other, or one given twice, is a
    400 naming it, so `?stat=FAILED` is an error rather than every answer. None: not checked.
    DRF's `?format=` (the browsable API's links) is always allowed."""

    query_keys: tuple[str, ...] | None = None

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        if any("\x00" in str(value) for value in kwargs.values()):
            raise NotFound()
        for key, values in request.query_params.lists():
            if "\x00" in key or any("\x00" in value for value in values):
                raise ValidationError(
                    {key.replace("\x00", ""): ["must not contain NUL characters"]}
                )
        # A viewset checks its list only; an APIView (an export) has no action.
        if self.query_keys is not None and getattr(self, "action", "list") == "list":
            for key, values in request.query_params.lists():
                if key not in self.query_keys and key != api_settings.URL_FORMAT_OVERRIDE:
                    known = ", ".join(self.query_keys) or "none"
                    if not key:
                        # "?=x" has no name to key the error by; say what it is instead.
                        raise ValidationError(f"A parameter with no name; they are {known}.")
                    raise ValidationError({key: [f"is not a parameter here; they are {known}"]})
                if len(values) > 1:
                    raise ValidationError({key: ["is given more than once"]})


def read_body(request, limit: int) -> bytes:
    """The raw body, at most limit + 1 bytes (so the caller can tell it was too big).

    Read from the stream rather than `request.body`, whose cap is Django's 2.5 MB form limit;
    if something already read the body (a CSRF check on a form post), use what it kept.
    """
    django_request = request._request
    if getattr(django_request, "_read_started", False):
        return getattr(django_request, "_body", b"")
    return django_request.read(limit + 1)
