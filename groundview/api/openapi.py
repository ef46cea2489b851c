"""drf-spectacular hooks and extensions for groundview's OpenAPI schema."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension

ERROR_CODES = {
    "400": "Invalid input; the body names the field.",
    "401": "No valid credentials.",
    "403": "Not allowed for this user.",
    "404": "Not found.",
}
# Every API view is throttled (groundview/api/throttles.py).
THROTTLED = (
    "Too many requests for this client's rate (GROUNDVIEW_THROTTLE_*); retry after Retry-After."
)
RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds to wait before sending the request again.",
        "schema": {"type": "integer", "minimum": 1},
    }
}
# What only Check Grounding answers (groundview/api/check_guards.py and vertex.py).
CHECK_OPERATION = "groundingConfigs_check"
CHECK_CODES = {
    "411": "A chunked request body the server did not decode: send it with a Content-Length "
    "(status FAILED_PRECONDITION).",
    "429": "RESOURCE_EXHAUSTED: the client's Check Grounding rate is used up, or no check slot "
    "freed up within GROUNDVIEW_CHECK_QUEUE_SECONDS (the server runs only "
    "GROUNDVIEW_MAX_CONCURRENT_CHECKS at once); retry after Retry-After.",
    "503": "UNAVAILABLE: the grounding model could not be loaded.",
}


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "groundview.api.authentication.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "An API token made by an admin in /admin/ (shown once).",
        }


def only_canonical_routes(endpoints, **kwargs):
    """Describe the Vertex routes once, under /v1/ and engines/; /v1beta/, /v1alpha/ and the
    dataStores/ shape are aliases."""
    kept = []
    for path, path_regex, method, callback in endpoints:
        if "/dataStores/" in path:
            continue  # the same views as the engines/ shape
        if "{version}" in path:
            path = path.replace("{version}", "v1")
        kept.append((path, path_regex, method, callback))
    return kept


def document_errors(result, generator, request, public):
    """Every operation can answer 400/401/403/404 and 429 (throttled, with Retry-After), and
    Check Grounding also 411, 429 (no check slot) and 503; say so, with the body each one has."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault(
        "ApiError",
        {
            "type": "object",
            "description": "DRF error: {'detail': message} or {field: [messages]}.",
            "additionalProperties": True,
        },
    )
    for path, operations in result.get("paths", {}).items():
        google = not path.startswith("/api/")
        ref = {"$ref": "#/components/schemas/" + ("GoogleError" if google else "ApiError")}
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            for code, description in ERROR_CODES.items():
                responses.setdefault(code, error_response(description, ref))
            if operation.get("operationId") == CHECK_OPERATION:
                for code, description in CHECK_CODES.items():
                    responses.setdefault(code, error_response(description, ref))
            responses.setdefault("429", error_response(THROTTLED, ref))
            responses["429"].setdefault("headers", RETRY_AFTER)
    return result


def error_response(description: str, ref: dict) -> dict:
    return {"description": description, "content": {"application/json": {"schema": ref}}}
