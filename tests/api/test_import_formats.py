"""The import API: hostile bodies are 400s with the list of problems, never 500s; other writers' forms."""

import json
import threading

import pytest
from django.db import connection
from google.cloud import discoveryengine_v1 as de
from rest_framework.test import APIClient

from groundview.answers.models import Answer, Session
from tests.factories import ENGINE, paris_document

NAME = f"{ENGINE}/sessions/s1/answers/x1"


def post_import(client, body, content_type="application/json"):
    return client.post("/api/answers", data=body, content_type=content_type)


@pytest.mark.django_db
def test_a_body_of_hostile_records_is_a_400_listing_each_with_its_field(admin_client):
    body = "\n".join(
        [
            json.dumps(paris_document("x1", state="S" * 65)),
            '{"name": "n", "x": ' + "[" * 10_000 + "]" * 10_000 + "}",
            '{"name": "n", "x": ' + "1" * 5000 + "}",
            '{"name": "n", "x": NaN}',
            '{"name": "n", "x": 1e400}',
            json.dumps(paris_document("x2", title="\ud800")),
            json.dumps({"name": "n" * 1100}),
        ]
    )

    response = post_import(admin_client, body, "application/x-ndjson")

    assert response.status_code == 400
    problems = response.json()["problems"]
    assert [(p["record"], p["field"]) for p in problems] == [
        (f"line 1 ({NAME})", "state"),
        ("line 2", ""),
        ("line 3 (n)", "x"),
        ("line 4 (n)", "x"),
        ("line 5 (n)", "x"),
        (f"line 6 ({ENGINE}/sessions/s1/answers/x2)", "title"),
        (f"line 7 ({'n' * 1100})", "name"),
    ]
    assert response.json()["rejected"] == 7
    assert Answer.objects.count() == 0


@pytest.mark.django_db
def test_good_records_of_a_body_with_bad_ones_are_kept(admin_client):
    body = "\n".join(
        [
            json.dumps(paris_document("x1")),
            '{"name": "n", "x": NaN}',
            json.dumps(paris_document("x3")),
        ]
    )

    response = post_import(admin_client, body, "application/x-ndjson")

    assert response.status_code == 200
    assert (response.json()["created"], response.json()["rejected"]) == (2, 1)
    assert response.json()["problems"][0]["record"] == "line 2 (n)"


@pytest.mark.django_db
def test_an_answer_written_by_the_client_library_imports_over_the_api(admin_client):
    answer = de.Answer(
        name=NAME, state=de.Answer.State.SUCCEEDED, answer_text="Paris.", grounding_score=0.5
    )

    response = post_import(admin_client, de.Answer.to_json(answer))

    assert response.status_code == 200, response.json()
    assert Answer.objects.get().raw["state"] == "SUCCEEDED"
    detail = admin_client.get(f"/api/answers/{Answer.objects.get().pk}").json()
    assert json.dumps(detail).count('"SUCCEEDED"') >= 1


@pytest.mark.django_db
def test_ragas_csv_imports_over_the_api(admin_client):
    body = (
        "user_input,retrieved_contexts,response,reference\n"
        "Capital of France?,\"['Paris is the capital of France.']\",Paris.,Paris\n"
    )

    response = post_import(admin_client, body, "text/csv; charset=utf-8")

    assert response.status_code == 200, response.json()
    answer = Answer.objects.get()
    assert (answer.query_text, answer.answer_text) == ("Capital of France?", "Paris.")
    assert answer.raw["groundviewSource"]["row"]["reference"] == "Paris"


@pytest.mark.django_db(transaction=True)
def test_concurrent_api_imports_of_the_same_new_file_are_all_200_without_duplicates(admin_user):
    body = "\n".join(json.dumps(paris_document(f"c{i}")) for i in range(4))
    statuses, errors = [], []
    start = threading.Barrier(6)

    def run():
        client = APIClient()
        client.force_login(admin_user)
        try:
            start.wait()
            statuses.append(post_import(client, body, "application/x-ndjson").status_code)
        except Exception as error:  # noqa: BLE001 - the test reports any failure
            errors.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert statuses == [200] * 6
    assert Answer.objects.count() == 4
    assert Session.objects.count() == 1
