"""Answers over the API: import (create), list with the UI's filters, detail, delete, pagination."""

import json

import pytest

from groundview.answers.importing import import_text
from groundview.answers.models import Answer, CheckRun
from groundview.review.filters import parse_sort
from groundview.review.models import AnswerLabel
from tests.factories import ENGINE, import_documents, paris_document

pytestmark = pytest.mark.django_db


def post_import(client, body, content_type="application/json"):
    if not isinstance(body, str | bytes):
        body = json.dumps(body, ensure_ascii=False)
    return client.post("/api/answers", data=body, content_type=content_type)


def test_import_one_answer_creates_it(admin_client):
    response = post_import(admin_client, paris_document("x1"))

    assert response.status_code == 200
    assert response.json() == {
        "created": 1,
        "updated": 0,
        "unchanged": 0,
        "rejected": 0,
        "problems": [],
        "summary": "1 imported (1 new, 0 updated, 0 unchanged), 0 rejected",
    }
    assert Answer.objects.get().raw == paris_document("x1")


def test_import_answer_response_shape_array_and_jsonl(admin_client):
    wrapped = {
        "answer": paris_document("w1"),
        "session": {"name": f"{ENGINE}/sessions/s1", "state": "IN_PROGRESS"},
    }
    array = [paris_document("arr1"), paris_document("arr2")]
    jsonl = "\n".join(json.dumps(paris_document(f"l{i}")) for i in range(3))

    assert post_import(admin_client, wrapped).json()["created"] == 1
    assert post_import(admin_client, array).json()["created"] == 2
    assert post_import(admin_client, jsonl, "application/x-ndjson").json()["created"] == 3
    assert Answer.objects.count() == 6


def test_reimport_reports_unchanged_and_updated(admin_client):
    post_import(admin_client, paris_document("x1"))

    again = post_import(admin_client, paris_document("x1")).json()
    changed = post_import(admin_client, paris_document("x1", groundingScore=0.5)).json()

    assert (again["unchanged"], again["created"]) == (1, 0)
    assert (changed["updated"], changed["created"]) == (1, 0)
    assert Answer.objects.count() == 1


def test_mixed_file_imports_good_records_and_lists_problems_with_the_commands_messages(
    admin_client,
):
    bad = paris_document("bad", citations=[{"startIndex": "0", "endIndex": "512"}])
    body = "\n".join([json.dumps(paris_document("good")), json.dumps(bad), "{not json"])

    response = post_import(admin_client, body, "application/x-ndjson")

    data = response.json()
    assert response.status_code == 200
    assert (data["created"], data["rejected"]) == (1, 2)
    end_problem, json_problem = data["problems"]
    assert end_problem["record"] == f"line 2 ({ENGINE}/sessions/s1/answers/bad)"
    assert end_problem["field"] == "citations[0].endIndex"
    # Word for word what `manage.py import_answers` says about the same record.
    (command_problem,) = import_text(json.dumps(bad)).problems
    assert end_problem["message"] == command_problem.message
    assert "512" in end_problem["message"] and "65 bytes" in end_problem["message"]
    assert json_problem["record"] == "line 3"
    assert json_problem["message"].startswith("malformed JSON")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ("{not json", ""),
        ("[1, 2]", ""),
        (json.dumps({"answerText": "no name"}), "name"),
        (json.dumps(paris_document("x", answerText=7)), "answerText"),
        (json.dumps(paris_document("x", state=["SUCCEEDED"])), "state"),
    ],
)
def test_import_with_every_record_rejected_is_400_naming_the_field(admin_client, body, field):
    response = post_import(admin_client, body)

    assert response.status_code == 400
    problems = response.json()["problems"]
    assert problems and problems[0]["field"] == field
    assert Answer.objects.count() == 0


def test_empty_and_non_utf8_bodies_are_400(admin_client):
    assert post_import(admin_client, "").status_code == 400
    response = admin_client.post("/api/answers", data=b"\xff\xfe{", content_type="application/json")
    assert response.status_code == 400
    assert "UTF-8" in json.dumps(response.json())


def test_list_answers_with_filters(reviewer_client, reviewer):
    import_documents(
        [
            paris_document("a1", groundingScore=0.9),
            paris_document("a2", state="FAILED", groundingScore=0.1),
            paris_document("a3", answerSkippedReasons=["NO_RELEVANT_CONTENT"]),
        ]
    )
    AnswerLabel.objects.create(
        answer=Answer.objects.get(name__endswith="a2"), reviewer=reviewer, verdict="unsupported"
    )

    def names(query):
        response = reviewer_client.get("/api/answers" + query)
        assert response.status_code == 200, response.content
        return sorted(item["name"].rsplit("/", 1)[1] for item in response.json()["results"])

    assert names("") == ["a1", "a2", "a3"]
    assert names("?state=FAILED") == ["a2"]
    assert names("?skip_reason=NO_RELEVANT_CONTENT") == ["a3"]
    assert names("?grounding_min=0.5") == ["a1"]
    assert names("?label_status=labelled") == ["a2"]
    assert names("?label_status=unlabelled") == ["a1", "a3"]
    assert names("?reviewer=rita") == ["a2"]
    assert names("?q=capital&state=SUCCEEDED") == ["a1", "a3"]


def test_search_finds_an_accent_however_it_is_encoded(reviewer_client):
    import_documents(
        [
            paris_document("nfd", answerText="Le cafe\u0301 Marly est ouvert.", citations=[]),
            paris_document("nfc", answerText="Un caf\u00e9 crème 🥐.", citations=[]),
            paris_document("ca", answerText="Ça va, merci.", citations=[]),
        ]
    )

    def names(q):
        response = reviewer_client.get("/api/answers", {"q": q})
        assert response.status_code == 200, response.content
        return sorted(item["name"].rsplit("/", 1)[1] for item in response.json()["results"])

    assert names("café") == names("cafe\u0301") == names("CAFÉ") == ["nfc", "nfd"]
    assert names("ça") == names("ÇA") == ["ca"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("state=NOPE", "state"),
        ("score_min=abc", "score_min"),
        ("grounding_max=2", "grounding_max"),
        ("label_status=maybe", "label_status"),
        ("sort=colour", "sort"),
        ("skip_reason=not%20a%20reason", "skip_reason"),
        ("session=%C2%B2", "session"),
        ("session=99999999999999999999999", "session"),
        ("q=%00", "q"),
        ("cursor=garbage", "cursor"),
        # A hand-made cursor whose value does not fit the sort field ({"v": "x", "id": 1, ...}).
        ("sort=score&cursor=eyJ2IjogIngiLCAiaWQiOiAxLCAicCI6IGZhbHNlfQ==", "cursor"),
        ("page_size=-1", "page_size"),
    ],
)
def test_bad_filter_values_are_400_naming_the_parameter(reviewer_client, answer, query, field):
    response = reviewer_client.get("/api/answers?" + query)

    assert response.status_code == 400
    assert field in response.json()


def test_answer_detail_has_the_document_as_imported(reviewer_client, answer):
    data = reviewer_client.get(f"/api/answers/{answer.pk}").json()

    assert data["document"] == paris_document("a1")
    assert data["session"] == f"{ENGINE}/sessions/s1"
    assert data["label_count"] == 0
    assert data["latest_check"] is None


def test_unknown_answer_is_404_json(reviewer_client):
    response = reviewer_client.get("/api/answers/999999")
    assert response.status_code == 404
    assert response.json() == {"detail": "No Answer matches the given query."}
    assert reviewer_client.get("/api/nothing/here").status_code == 404


def test_admin_deletes_an_answer(admin_client, answer):
    assert admin_client.delete(f"/api/answers/{answer.pk}").status_code == 204
    assert not Answer.objects.exists()


@pytest.mark.parametrize(
    "sort",
    ["-created", "created", "score", "-score", "grounding", "-grounding", "name", "-imported"],
)
def test_cursor_pages_visit_every_answer_once_in_sort_order(reviewer_client, sort):
    documents = []
    for i in range(23):
        extra = {}
        if i % 3:
            extra["groundingScore"] = round((i % 5) / 5, 1)  # ties and missing values
        if i % 4:
            extra["createTime"] = f"2025-01-{1 + i % 7:02d}T00:00:00Z"
        documents.append(paris_document(f"p{i:02d}", **extra))
    import_documents(documents)
    for i, answer in enumerate(Answer.objects.order_by("pk")):
        if i % 2:
            run = CheckRun.objects.create(
                answer=answer, status="succeeded", support_score=(i % 3) / 3
            )
            answer.latest_check = run
            answer.save(update_fields=["latest_check"])
    expected = [a.name for a in Answer.objects.order_by(*parse_sort(sort))]

    seen, url = [], f"/api/answers?sort={sort}&page_size=4"
    pages = []
    while url:
        data = reviewer_client.get(url).json()
        pages.append(data)
        seen += [item["name"] for item in data["results"]]
        url = data["next"]

    assert seen == expected
    # And back again from the last page.
    back, url = [], pages[-1]["previous"]
    while url:
        data = reviewer_client.get(url).json()
        back = [item["name"] for item in data["results"]] + back
        url = data["previous"]
    assert back + [item["name"] for item in pages[-1]["results"]] == expected


def test_import_bigger_than_djangos_form_limit(admin_client):
    text = "Grounded. " * 300_000  # 3 MB
    response = post_import(admin_client, paris_document("big", answerText=text))

    assert response.status_code == 200, response.content
    assert Answer.objects.get().answer_text == text


def test_docs_and_schema_without_slash_redirect(reviewer_client):
    assert reviewer_client.get("/api/docs")["Location"] == "/api/docs/"
    assert reviewer_client.get("/api/schema")["Location"] == "/api/schema/"


def test_import_queues_checks_when_configured(admin_client, settings):
    settings.GROUNDVIEW_CHECK_ON_IMPORT = True

    post_import(admin_client, [paris_document("c1"), paris_document("c2")])
    post_import(admin_client, [paris_document("c1"), paris_document("c2", groundingScore=0.3)])

    # Checks for the two new answers, then for the one that changed; none for the unchanged one.
    assert sorted(CheckRun.objects.values_list("answer__name", flat=True)) == sorted(
        [paris_document("c1")["name"], paris_document("c2")["name"], paris_document("c2")["name"]]
    )


def test_a_cursor_only_works_with_the_sort_it_came_from(reviewer_client):
    import_documents([paris_document(f"c{i}") for i in range(3)])
    next_url = reviewer_client.get("/api/answers?sort=name&page_size=1").json()["next"]
    cursor = next_url.split("cursor=")[1].split("&")[0]

    response = reviewer_client.get(f"/api/answers?sort=-score&page_size=1&cursor={cursor}")

    assert response.status_code == 400
    assert "another sort order" in response.json()["cursor"][0]
