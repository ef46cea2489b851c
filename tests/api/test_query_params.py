"""A list or export reads the parameters it documents, and refuses the rest: a misspelt filter is
a 400 naming it, never every row; pagination mistakes are 400s naming the parameter everywhere."""

import base64
from urllib.parse import urlencode

import pytest


@pytest.mark.parametrize(
    "path",
    [
        "/api/answers",
        "/api/labels",
        "/api/checks",
        "/api/batches",
        "/api/sessions",
        "/api/export/answers.jsonl",
        "/api/export/labels.csv",
        "/api/export/labelled-answers.jsonl",
    ],
)
def test_a_misspelt_or_repeated_parameter_is_refused_by_name(reviewer_client, answer, path):
    typo = reviewer_client.get(path, {"stat": "FAILED"})
    twice = reviewer_client.get(f"{path}?page_size=2&page_size=3")

    assert typo.status_code == 400, typo.content[:300]
    assert list(typo.json()) == ["stat"]
    assert typo.json()["stat"][0].startswith("is not a parameter here; they are ")
    if "export" not in path:  # exports are not paginated: page_size is itself unknown there
        assert twice.status_code == 400
        assert twice.json() == {"page_size": ["is given more than once"]}


def test_a_parameter_with_no_name_is_refused_as_such(reviewer_client, answer):
    response = reviewer_client.get("/api/answers?=FAILED")

    assert response.status_code == 400
    (message,) = response.json()["non_field_errors"]
    assert message.startswith("A parameter with no name; they are ")


def test_the_filters_a_list_documents_still_work(reviewer_client, answer):
    found = reviewer_client.get(
        "/api/answers", {"state": "SUCCEEDED", "page_size": "1", "format": "json"}
    )
    exported = reviewer_client.get("/api/export/answers.jsonl", {"state": "FAILED"})

    assert found.status_code == 200
    assert [a["id"] for a in found.json()["results"]] == [answer.pk]
    assert exported.status_code == 200 and b"".join(exported.streaming_content) == b""


@pytest.mark.parametrize(
    ("path", "position"),
    [
        ("/api/labels", "abc"),
        ("/api/checks", "1e3"),
        ("/api/batches", "99999999999999999999"),
        ("/api/answers/{answer}/checks", "-1"),
        ("/api/sessions", "a\x00b"),
    ],
)
def test_a_tampered_cursor_position_is_400_not_500(reviewer_client, answer, path, position):
    # DRF's cursors are base64 of a query string; "p" is where the next page starts.
    cursor = base64.b64encode(urlencode({"p": position}).encode()).decode()

    response = reviewer_client.get(path.format(answer=answer.pk), {"cursor": cursor})

    assert response.status_code == 400
    assert response.json() == {"cursor": ["Invalid cursor."]}


@pytest.mark.parametrize("path", ["/api/answers", "/api/labels", "/api/checks", "/api/sessions"])
def test_pagination_mistakes_are_400s_naming_the_parameter(reviewer_client, answer, path):
    assert reviewer_client.get(path, {"cursor": "zz"}).json() == {"cursor": ["Invalid cursor."]}
    for size in ("0", "-1", "x"):
        response = reviewer_client.get(path, {"page_size": size})
        assert response.status_code == 400
        assert response.json() == {"page_size": ["Must be a positive integer."]}


def test_a_key_given_twice_is_refused_everywhere_json_comes_in(reviewer_client, admin_client):
    # Which of the two a parser keeps is up to it; Google's refuse such a body, and so does this.
    label = reviewer_client.post(
        "/api/labels",
        data='{"answer": 1, "verdict": "supported", "verdict": "unsupported"}',
        content_type="application/json",
    )
    check = reviewer_client.post(
        "/v1/projects/p/locations/global/groundingConfigs/default_grounding_config:check",
        data='{"answerCandidate": "Paris.", "answerCandidate": "Rome."}',
        content_type="application/json",
    )
    imported = admin_client.post(
        "/api/answers",
        data='{"name": "projects/p/locations/global/collections/c/engines/e/sessions/s/answers/a",'
        ' "answerText": "Paris.", "answerText": "Rome."}',
        content_type="application/json",
    )

    assert label.status_code == 400
    assert label.json() == {
        "detail": "JSON parse error - the key 'verdict' is given twice in one object"
    }
    assert check.status_code == 400
    assert "The key 'answerCandidate' is given twice" in check.json()["error"]["message"]
    assert imported.status_code == 400, imported.content
    assert "answerText" in imported.content.decode()
