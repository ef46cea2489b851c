"""List endpoints run the same number of queries for 10 rows as for 500 (no N+1)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from groundview.answers.models import Answer, CheckBatch, CheckRun, Session, SkippedReason
from groundview.review.models import AnswerLabel, ClaimLabel
from tests.factories import ENGINE

pytestmark = pytest.mark.django_db

LISTS = [
    "/api/answers",
    "/api/answers?label_status=labelled&sort=-score",
    "/api/answers?skip_reason=any&q=answer&grounding_min=0",
    "/api/sessions",
    "/api/checks",
    "/api/checks?status=succeeded",
    "/api/batches",
    "/api/labels",
    "/api/labels?verdict=supported",
]


def populate(count: int, reviewer) -> None:
    sessions = Session.objects.bulk_create(
        Session(name=f"{ENGINE}/sessions/q{count}-{i}") for i in range(max(1, count // 5))
    )
    answers = Answer.objects.bulk_create(
        Answer(
            session=sessions[i % len(sessions)],
            name=f"{ENGINE}/sessions/x/answers/q{count}-{i}",
            state="SUCCEEDED",
            answer_text=f"answer {i}",
            grounding_score=i / count,
            raw={"name": f"q{count}-{i}"},
        )
        for i in range(count)
    )
    SkippedReason.objects.bulk_create(
        SkippedReason(answer=answer, position=0, reason="OUT_OF_DOMAIN_QUERY") for answer in answers
    )
    batches = CheckBatch.objects.bulk_create(CheckBatch(created_by=reviewer) for _ in range(count))
    runs = CheckRun.objects.bulk_create(
        CheckRun(answer=answer, batch=batch, status="succeeded", support_score=0.5)
        for answer, batch in zip(answers, batches, strict=True)
    )
    for answer, run in zip(answers, runs, strict=True):
        answer.latest_check = run
    Answer.objects.bulk_update(answers, ["latest_check"])
    labels = AnswerLabel.objects.bulk_create(
        AnswerLabel(answer=answer, reviewer=reviewer, verdict="supported") for answer in answers
    )
    ClaimLabel.objects.bulk_create(
        ClaimLabel(label=label, start_index=0, end_index=6, verdict="supported") for label in labels
    )


def queries(client, url: str, expected_rows: int) -> int:
    separator = "&" if "?" in url else "?"
    with CaptureQueriesContext(connection) as context:
        response = client.get(f"{url}{separator}page_size=500")
    assert response.status_code == 200, response.content
    assert len(response.json()["results"]) == expected_rows
    return len(context.captured_queries)


@pytest.mark.parametrize("url", LISTS)
def test_list_queries_do_not_grow_with_rows(reviewer_client, reviewer, url):
    populate(10, reviewer)
    sessions_10 = Session.objects.count()
    small = queries(reviewer_client, url, sessions_10 if "sessions" in url else 10)

    Answer.objects.all().delete()
    CheckBatch.objects.all().delete()
    Session.objects.all().delete()
    populate(500, reviewer)
    large = queries(reviewer_client, url, 100 if "sessions" in url else 500)

    # Session lookup + the page (+ the claims prefetch for labels; + a text search's matching
    # ids, read first: filters.matches_first).
    assert small == large
    assert large <= 4 + ("q=" in url)


def test_answer_runs_list_is_constant_too(reviewer_client, reviewer, django_assert_num_queries):
    populate(1, reviewer)
    answer = Answer.objects.get()
    CheckRun.objects.bulk_create(CheckRun(answer=answer) for _ in range(499))

    # Session, user, the answer, the page.
    with django_assert_num_queries(4):
        response = reviewer_client.get(f"/api/answers/{answer.pk}/checks?page_size=500")

    assert len(response.json()["results"]) == 500
