"""drf-spectacular hooks and extensions for groundview's OpenAPI schema."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension

ERROR_CODES = {
    "400": "Invalid input; the body names the field.",
    "401": "No valid credentials.",
    "403": "Not allowed for this user.",
    "404": "Not found.",
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
    """Every operation can answer 400/401/403/404; say so, with the body each one has."""
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
                responses.setdefault(
                    code,
                    {"description": description, "content": {"application/json": {"schema": ref}}},
                )
    return result
