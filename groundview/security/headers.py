"""Security headers Django 5.2 does not send by itself: a Content-Security-Policy.

(nosniff, Referrer-Policy and X-Frame-Options come from SecurityMiddleware and
XFrameOptionsMiddleware; HSTS too, when settings turn it on.)

The policy allows script and style only from our own origin: no inline <script>, no inline
style, no eval. Answer text, chunks and titles come from other systems; if one ever slipped
past escaping, the browser would still refuse to run it.
"""

from django.conf import settings

# img data: is for the icons Swagger UI and the admin embed in their stylesheets.
DEFAULT_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        policy = getattr(settings, "GROUNDVIEW_CSP", DEFAULT_POLICY)
        # A view may set its own (stricter) policy; an empty setting switches the header off.
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        return response
