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
