"""The OpenAPI document is valid OpenAPI 3 and drf-spectacular has nothing to warn about."""

import yaml
from django.core.management import call_command


def test_schema_is_valid_and_generates_without_warnings(tmp_path):
    path = tmp_path / "schema.yaml"

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))

    schema = yaml.safe_load(path.read_text())
    assert schema["openapi"].startswith("3.")
    assert {"bearerAuth", "cookieAuth"} <= set(schema["components"]["securitySchemes"])
    check = schema["paths"][
        "/v1/projects/{project}/locations/{location}/groundingConfigs/{config}:check"
    ]
    assert set(check["post"]["responses"]) >= {"200", "400", "401"}


def test_check_grounding_documents_411_429_with_retry_after_and_503(tmp_path):
    path = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))
    schema = yaml.safe_load(path.read_text())

    check = schema["paths"][
        "/v1/projects/{project}/locations/{location}/groundingConfigs/{config}:check"
    ]["post"]["responses"]
    google = {"$ref": "#/components/schemas/GoogleError"}
    for code in ("411", "429", "503"):
        assert check[code]["content"]["application/json"]["schema"] == google, code
    assert "Content-Length" in check["411"]["description"]
    assert "GROUNDVIEW_MAX_CONCURRENT_CHECKS" in check["429"]["description"]
    assert check["429"]["headers"]["Retry-After"]["schema"]["type"] == "integer"
    # Every other operation is throttled too, with the API's own error body.
    answers = schema["paths"]["/api/answers"]["get"]["responses"]["429"]
    assert "Retry-After" in answers["headers"]
    assert answers["content"]["application/json"]["schema"]["$ref"].endswith("/ApiError")
