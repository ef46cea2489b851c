"""Vertex-shaped routes: answers.get / sessions.get return the stored documents; Check Grounding."""

import json

import pytest

from groundview.answers.demo import demo_records
from groundview.answers.importing import Record, import_records, is_answer_response
from groundview.answers.models import Session
from tests.factories import ENGINE, import_documents, paris_document

pytestmark = pytest.mark.django_db

CHECK = "/{version}/projects/p1/locations/global/groundingConfigs/default_grounding_config:check"


def load_demo():
    records = demo_records()
    result = import_records(Record(where=f"demo {i}", data=r) for i, r in enumerate(records))
    assert not result.problems
    answers = {}
    for record in records:
        answer = record["answer"] if is_answer_response(record) else record
        answers[answer["name"]] = answer
    return answers


def test_answers_get_returns_every_demo_answer_as_imported(reviewer_client):
    answers = load_demo()
    assert len(answers) >= 30

    for name, document in answers.items():
        for version in ("v1", "v1beta", "v1alpha"):
            response = reviewer_client.get(f"/{version}/{name}")
            assert response.status_code == 200, name
            assert response["Content-Type"] == "application/json"
            assert json.loads(response.content) == document


def test_sessions_get_returns_the_stored_session_document(reviewer_client):
    load_demo()
    sessions = list(Session.objects.all())
    assert sessions

    for session in sessions:
        data = reviewer_client.get(f"/v1/{session.name}").json()
        if session.raw is not None:
            assert data == session.raw
        else:
            assert data["name"] == session.name
            assert {turn["answer"] for turn in data["turns"]} == set(
                session.answers.values_list("name", flat=True)
            )


def test_session_implied_by_its_answers_is_built_from_them(reviewer_client):
    import_documents([paris_document("a1"), paris_document("a2")])

    data = reviewer_client.get(f"/v1/{ENGINE}/sessions/s1").json()

    assert data == {
        "name": f"{ENGINE}/sessions/s1",
        "turns": [
            {"answer": f"{ENGINE}/sessions/s1/answers/a1"},
            {"answer": f"{ENGINE}/sessions/s1/answers/a2"},
        ],
    }


@pytest.mark.parametrize(
    "path",
    [
        f"/v1/{ENGINE}/sessions/s1/answers/missing",
        f"/v1/{ENGINE}/sessions/missing",
        "/v1/projects/p1/somethingElse",
        f"/v2/{ENGINE}/sessions/s1/answers/a1",
        f"/v1/{ENGINE}/sessions/s1/answers/a%001",
        f"/v1/{ENGINE}/sessions/s%001",
    ],
)
def test_missing_resources_are_404_in_googles_shape(reviewer_client, answer, path):
    response = reviewer_client.get(path)

    assert response.status_code == 404
    if path.startswith("/v1/"):
        error = response.json()["error"]
        assert error["code"] == 404 and error["status"] == "NOT_FOUND"
        assert error["message"]


# --- Check Grounding over HTTP ------------------------------------------------------------------


def check(client, body, version="v1", **extra):
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(
        CHECK.format(version=version), data=data, content_type="application/json", **extra
    )


def assert_invalid(response, field):
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == 400 and error["status"] == "INVALID_ARGUMENT"
    assert field in error["message"]
    return error["message"]


@pytest.mark.model
@pytest.mark.parametrize("version", ["v1", "v1beta", "v1alpha"])
def test_check_grounding_with_the_real_engine(anon, reviewer_token, version):
    body = {
        "answerCandidate": "Titanic was directed by James Cameron. It was released in 1997.",
        "facts": [
            {
                "factText": "Titanic is a 1997 American epic romance film directed by James Cameron.",
                "attributes": {"author": "Wikipedia"},
            }
        ],
        "groundingSpec": {"citationThreshold": "0.6", "enableClaimLevelScore": True},
    }

    response = check(anon, body, version, HTTP_AUTHORIZATION=f"Bearer {reviewer_token}")

    assert response.status_code == 200, response.content
    data = response.json()
    assert 0 <= data["supportScore"] <= 1
    assert [claim["claimText"].strip() for claim in data["claims"]] == [
        "Titanic was directed by James Cameron.",
        "It was released in 1997.",
    ]
    first = data["claims"][0]
    assert first["startPos"] == 0 and first["groundingCheckRequired"] is True
    assert 0 <= first["score"] <= 1
    for claim in data["claims"]:
        encoded = body["answerCandidate"].encode()
        assert encoded[claim["startPos"] : claim["endPos"]].decode() == claim["claimText"]
        for index in claim.get("citationIndices", []):
            assert data["citedChunks"][index]["source"] == "0"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"answerCandidate": "x", "facts": [{"factText": "y"}] * 201}, "facts"),
        ({"answerCandidate": "x", "facts": [{"factText": "y" * 10_001}]}, "facts[0].factText"),
        ({"answerCandidate": "word " * 4097, "facts": []}, "answerCandidate"),
        ({"answerCandidate": "x", "userLabels": {f"k{i}": "v" for i in range(65)}}, "userLabels"),
        ({"answerCandidate": "x", "userLabels": {"Upper": "v"}}, "userLabels"),
        ({"answerCandidate": "x", "userLabels": {"k": "v" * 64}}, "userLabels"),
        (
            {"answerCandidate": "x", "groundingSpec": {"citationThreshold": 1.5}},
            "citationThreshold",
        ),
        (
            {"answerCandidate": "x", "groundingSpec": {"citationThreshold": "high"}},
            "citationThreshold",
        ),
        ({"answerCandidate": 5}, "answerCandidate"),
        ({"answerCandidate": "x", "facts": "not a list"}, "facts"),
        ({"answerCandidate": "x", "facts": [{"factText": 3}]}, "facts[0].factText"),
        (
            {"answerCandidate": "x", "groundingSpec": {"enableClaimLevelScore": "yes"}},
            "enableClaimLevelScore",
        ),
    ],
)
def test_each_limit_and_wrong_type_is_400_naming_the_field(reviewer_client, body, field):
    assert_invalid(check(reviewer_client, body), field)


@pytest.mark.parametrize("body", ["{not json", "", "[1, 2]", "null", b"\xff\xfe"])
def test_malformed_json_is_400_not_500(reviewer_client, body):
    response = check(reviewer_client, body)

    assert response.status_code == 400
    assert response.json()["error"]["status"] == "INVALID_ARGUMENT"


def test_200_facts_are_accepted_and_numeric_string_threshold_works(reviewer_client, monkeypatch):
    seen = []

    class Engine:
        def check(self, payload):
            from groundview.grounding import parse_request

            seen.append(parse_request(payload))
            return {"supportScore": 0.0, "citedChunks": [], "citedFacts": [], "claims": []}

    monkeypatch.setattr("groundview.api.vertex.engine", lambda: Engine())
    body = {
        "answerCandidate": "x",
        "facts": [{"factText": "y"}] * 200,
        "groundingSpec": {"citationThreshold": "0.35"},
    }

    response = check(reviewer_client, body)

    assert response.status_code == 200
    assert seen[0].citation_threshold == 0.35 and len(seen[0].facts) == 200


def test_check_without_token_is_401_in_googles_shape(anon):
    response = check(anon, {"answerCandidate": "x"})

    assert response.status_code == 401
    assert response.json()["error"]["status"] == "UNAUTHENTICATED"
    assert "Bearer" in response.json()["error"]["message"]


def test_check_with_a_wrong_token_is_401(anon):
    response = check(anon, {"answerCandidate": "x"}, HTTP_AUTHORIZATION="Bearer gv_wrong")

    assert response.status_code == 401
    assert response.json()["error"]["code"] == 401


def test_get_on_the_check_route_is_405_in_googles_shape(reviewer_client):
    response = reviewer_client.get(CHECK.format(version="v1"))

    assert response.status_code == 405
    assert response.json()["error"]["code"] == 405


def test_bodies_beyond_djangos_form_limit_reach_the_validator(reviewer_client):
    # 201 facts of 10,000 two-byte characters: ~4 MB, past Django's 2.5 MB DATA_UPLOAD_MAX_MEMORY_SIZE.
    body = {"answerCandidate": "x", "facts": [{"factText": "é" * 10_000}] * 201}

    message = assert_invalid(check(reviewer_client, body), "facts")

    assert "200" in message


@pytest.mark.model
def test_the_fact_limits_follow_the_grounding_settings(reviewer_client, settings):
    settings.GROUNDING = {**settings.GROUNDING, "MAX_FACTS": 300, "MAX_FACT_CHARS": 20_000}
    long_fact = {"factText": "The museum shows pottery from the coast. " * 400}  # 16,400 characters
    facts = [long_fact] + [{"factText": f"Room {i} is closed on Mondays."} for i in range(249)]

    response = check(
        reviewer_client, {"answerCandidate": "Room 7 is closed on Mondays.", "facts": facts}
    )

    assert response.status_code == 200, response.content
    cited = response.json()["citedChunks"]
    assert [chunk["source"] for chunk in cited] == ["8"]
    too_many = {"answerCandidate": "x", "facts": [{"factText": "y"}] * 301}
    assert "at most 300 facts" in assert_invalid(check(reviewer_client, too_many), "facts")


def test_an_engine_failure_is_a_500_in_googles_shape(reviewer_client, monkeypatch):
    class Broken:
        def check(self, payload):
            raise RuntimeError("bug")

    monkeypatch.setattr("groundview.api.vertex.engine", lambda: Broken())

    response = check(reviewer_client, {"answerCandidate": "x"})

    assert response.status_code == 500
    assert response.json()["error"]["status"] == "INTERNAL"


def test_answers_under_a_data_store_are_found_too(reviewer_client):
    name = "projects/p1/locations/global/collections/c/dataStores/ds1/sessions/s9/answers/a9"
    import_documents([{"name": name, "state": "SUCCEEDED", "answerText": "Hi."}])

    answer = reviewer_client.get(f"/v1alpha/{name}")
    session = reviewer_client.get(f"/v1/{name.rsplit('/answers/', 1)[0]}")

    assert answer.json() == {"name": name, "state": "SUCCEEDED", "answerText": "Hi."}
    assert session.json()["turns"] == [{"answer": name}]
