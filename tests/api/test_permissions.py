"""Every route: anonymous requests are refused, reviewers read and label, admins also import and delete."""

import json
import re

import pytest
from django.urls import reverse

from groundview.api.models import ApiToken
from tests.factories import paris_document

ADMIN, REVIEWER = "admin", "reviewer"
CHECK_BODY = {
    "answerCandidate": "Paris is in France.",
    "facts": [{"factText": "Paris is in France."}],
}

# (method, path template, least role allowed, body). Paths use ids/names from the `objects` fixture.
ROUTES = [
    ("get", "/api/sessions", REVIEWER, None),
    ("get", "/api/sessions/{session}", REVIEWER, None),
    ("get", "/api/answers", REVIEWER, None),
    ("post", "/api/answers", ADMIN, paris_document("new")),
    ("get", "/api/answers/{answer}", REVIEWER, None),
    ("delete", "/api/answers/{answer}", ADMIN, None),
    ("get", "/api/answers/{answer}/checks", REVIEWER, None),
    ("post", "/api/answers/{answer}/checks", REVIEWER, None),
    ("get", "/api/checks", REVIEWER, None),
    ("get", "/api/checks/{run}", REVIEWER, None),
    ("get", "/api/batches", REVIEWER, None),
    ("post", "/api/batches", ADMIN, {"answer_ids": ["{answer}"]}),
    ("get", "/api/batches/{batch}", REVIEWER, None),
    ("get", "/api/labels", REVIEWER, None),
    ("post", "/api/labels", REVIEWER, {"answer": "{answer}", "verdict": "unsupported"}),
    ("get", "/api/labels/{label}", REVIEWER, None),
    ("get", "/api/export/answers.jsonl", REVIEWER, None),
    ("get", "/api/export/labels.jsonl", REVIEWER, None),
    ("get", "/api/export/labels.csv", REVIEWER, None),
    ("get", "/api/export/labelled-answers.jsonl", REVIEWER, None),
    ("get", "/api/export/labelled-answers.csv", REVIEWER, None),
    ("get", "/api/export/labelled-answers.parquet", REVIEWER, None),
    ("get", "/api/export/labelled-answers.argilla.json", REVIEWER, None),
    ("get", "/api/export/labelled-answers.label-studio.json", REVIEWER, None),
    ("get", "/api/schema/", REVIEWER, None),
    ("get", "/v1/{answer_name}", REVIEWER, None),
    ("get", "/v1beta/{session_name}", REVIEWER, None),
    (
        "post",
        "/v1/projects/p1/locations/global/groundingConfigs/default:check",
        REVIEWER,
        CHECK_BODY,
    ),
    # The OTLP/HTTP trace receiver: an import, so admins only.
    ("post", "/v1/traces", ADMIN, {"resourceSpans": []}),
]


def fill(value, objects):
    if isinstance(value, str):
        for key, replacement in objects.items():
            if value == "{" + key + "}":
                return replacement
            value = value.replace("{" + key + "}", str(replacement))
        return value
    if isinstance(value, list):
        return [fill(item, objects) for item in value]
    if isinstance(value, dict):
        return {key: fill(item, objects) for key, item in value.items()}
    return value


def call(client, method, path, body, objects, **extra):
    path, body = fill(path, objects), fill(body, objects)
    if body is None:
        return getattr(client, method)(path, **extra)
    return getattr(client, method)(
        path, data=json.dumps(body), content_type="application/json", **extra
    )


@pytest.fixture(autouse=True)
def fake_engine(monkeypatch):
    # Permissions are under test here, not the engine; checks stay queued (no on_commit in tests).
    class Engine:
        def check(self, payload):
            return {"supportScore": 1.0, "citedChunks": [], "citedFacts": [], "claims": []}

    monkeypatch.setattr("groundview.api.vertex.engine", lambda: Engine())


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path", "role", "body"), ROUTES)
def test_anonymous_is_refused(anon, objects, method, path, role, body):
    response = call(anon, method, path, body, objects)

    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    if path == "/v1/traces":
        assert response.json()["code"] == 16  # OTLP's google.rpc.Status: UNAUTHENTICATED
    elif path.startswith("/v1"):
        assert response.json()["error"]["status"] == "UNAUTHENTICATED"


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path", "role", "body"), ROUTES)
def test_reviewer_is_allowed_or_forbidden_by_role(
    reviewer_client, objects, method, path, role, body
):
    response = call(reviewer_client, method, path, body, objects)

    if role == ADMIN:
        assert response.status_code == 403, response.content
    else:
        assert 200 <= response.status_code < 300, response.content


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path", "role", "body"), ROUTES)
def test_admin_may_use_every_route(admin_client, objects, method, path, role, body):
    response = call(admin_client, method, path, body, objects)

    assert 200 <= response.status_code < 300, response.content


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "path", "role", "body"), ROUTES)
def test_bearer_token_authenticates_like_a_session(
    reviewer, objects, anon, method, path, role, body
):
    _, token = ApiToken.issue(reviewer, "script")

    response = call(anon, method, path, body, objects, HTTP_AUTHORIZATION=f"Bearer {token}")

    if role == ADMIN:
        assert response.status_code == 403, response.content
    else:
        assert 200 <= response.status_code < 300, response.content


@pytest.mark.django_db
@pytest.mark.parametrize(
    "header", ["Bearer nope", "Bearer", "Bearer a b", "Token abc", "Bearer gv_\u00e9"]
)
def test_bad_or_revoked_tokens_are_401(anon, reviewer, header):
    row, token = ApiToken.issue(reviewer, "script")
    row.revoke()

    for value in [header, f"Bearer {token}"]:
        response = anon.get("/api/answers", HTTP_AUTHORIZATION=value)
        assert response.status_code == 401, value


@pytest.mark.django_db
def test_inactive_users_token_is_refused(anon, reviewer):
    _, token = ApiToken.issue(reviewer, "script")
    reviewer.is_active = False
    reviewer.save()

    assert anon.get("/api/answers", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 401


@pytest.mark.django_db
def test_only_a_hash_of_the_token_is_stored(reviewer):
    row, token = ApiToken.issue(reviewer, "script")

    row.refresh_from_db()
    assert token not in {row.key_hash, row.prefix, row.name}
    assert len(row.key_hash) == 64 and token.startswith(row.prefix)


@pytest.mark.django_db
def test_docs_page_sends_anonymous_people_to_login_and_serves_local_swagger(anon, reviewer_client):
    response = anon.get("/api/docs/")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))

    page = reviewer_client.get("/api/docs/").content.decode()
    assert "swagger-ui" in page
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page
    assert "cdn" not in page.lower()


@pytest.mark.django_db
def test_routes_list_covers_every_operation_in_the_schema(admin_client):
    schema = admin_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()

    def shape(path):
        return re.sub(r"\{[^}]+\}", "{}", path)

    documented = {
        (method, shape(path))
        for path, operations in schema["paths"].items()
        if path.startswith("/api/")
        for method in operations
    }
    # The schema does not describe itself (SERVE_INCLUDE_SCHEMA is off).
    tested = {
        (method, shape(path))
        for method, path, _, _ in ROUTES
        if path.startswith("/api/") and path != "/api/schema/"
    }
    vertex_methods = {
        method
        for path, operations in schema["paths"].items()
        if path.startswith("/v1/")
        for method in operations
    }

    assert documented == tested
    # The three Vertex routes (check, answers.get, sessions.get) and OTLP's /v1/traces are in
    # ROUTES as concrete URLs.
    assert sorted(vertex_methods) == ["get", "post"]
    assert sum(path.startswith("/v1") for _, path, _, _ in ROUTES) == 4
