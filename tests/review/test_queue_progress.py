"""Queue v2 (issue 14, item 3): progress for the queue's filter, and undo of the last verdict."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from groundview.review.models import AnswerLabel, ClaimLabel
from tests.factories import create_answer, span_of

pytestmark = pytest.mark.django_db

TEXT = "Alpha is first. Beta is second. Gamma is third."
SENTENCES = ["Alpha is first.", "Beta is second.", "Gamma is third."]


def label(client, answer, verdicts: dict[str, str], *, verdict="supported"):
    """Post the plain label form with one claim field per sentence in `verdicts` (shown spans)."""
    data = {"claim_count": str(len(verdicts)), "verdict": verdict, "note": ""}
    for number, (sentence, claim_verdict) in enumerate(verdicts.items(), start=1):
        start, end = span_of(answer.answer_text, sentence)
        data |= {
            f"claim-{number}-start": str(start),
            f"claim-{number}-end": str(end),
            f"claim-{number}-verdict": claim_verdict,
        }
    response = client.post(reverse("review:save_label", args=[answer.pk]), data)
    assert response.status_code == 302, response.content.decode()


def queue_page(client, query="q=progress"):
    """Follow the queue's redirect to the answer it leases; the answer page in queue mode."""
    response = client.get(reverse("review:queue") + "?" + query)
    assert response.status_code == 302
    page = client.get(response["Location"])
    assert page.status_code == 200
    return page.content.decode()


def test_progress_counts_change_after_labelling(reviewer_client, django_user_model):
    answers = [create_answer(f"Progress answer {i}.") for i in range(4)]
    create_answer("Outside the filter.")

    html = queue_page(reviewer_client)
    assert "4 of 4 left" in html and "you labelled 0" in html

    label(reviewer_client, answers[0], {})
    html = queue_page(reviewer_client)
    assert "3 of 4 left" in html and "you labelled 1" in html

    # Another reviewer's label takes the answer out of this queue but is not "yours".
    other = django_user_model.objects.create_user("other-reviewer", password="x")
    AnswerLabel.objects.create(answer=answers[1], reviewer=other, verdict="supported")
    html = queue_page(reviewer_client)
    assert "2 of 4 left" in html and "you labelled 1" in html

    # The filter is what is counted: without it the fifth answer is in the queue too.
    assert "3 of 5 left" in queue_page(reviewer_client, query="")


def test_answers_still_being_generated_are_not_counted_as_left(reviewer_client):
    create_answer("Progress answer done.")
    create_answer("Progress answer streaming.", state="STREAMING")

    # Only the finished answer can be handed out, so only it is in the count.
    assert "1 of 1 left" in queue_page(reviewer_client)


def test_empty_queue_shows_what_was_done(reviewer_client):
    answer = create_answer("Progress the only one.")
    label(reviewer_client, answer, {})
    response = reviewer_client.get(reverse("review:queue") + "?q=progress")
    assert response.status_code == 200
    assert "You labelled 1 of the 1 answer matching these filters" in response.content.decode()


def test_progress_costs_the_same_queries_however_many_answers_match(reviewer_client, reviewer):
    first = create_answer("Progress first.")

    def queries() -> int:
        url = reverse("review:answer_detail", args=[first.pk]) + "?queue=1&q=progress"
        with CaptureQueriesContext(connection) as context:
            assert reviewer_client.get(url).status_code == 200
        return len(context.captured_queries)

    baseline = queries()
    for i in range(12):
        answer = create_answer(f"Progress more {i}.")
        if i % 2:
            AnswerLabel.objects.create(answer=answer, reviewer=reviewer, verdict="supported")
    assert queries() == baseline


def test_undo_removes_exactly_the_last_verdict(reviewer_client, reviewer):
    answer = create_answer(TEXT)
    alpha, beta, gamma = SENTENCES
    label(reviewer_client, answer, {alpha: "supported", beta: "unsupported"})
    # A later save shows only the third claim: the first two are kept, the third is the newest.
    label(reviewer_client, answer, {gamma: "contradicted"})
    claims = ClaimLabel.objects.filter(label__reviewer=reviewer)
    assert sorted(claims.values_list("claim_text", "verdict")) == [
        (alpha, "supported"),
        (beta, "unsupported"),
        (gamma, "contradicted"),
    ]

    # Labelled answers leave the queue, so open the answer as the queue's "back" would.
    url = reverse("review:answer_detail", args=[answer.pk]) + "?queue=1&q=alpha"
    html = reviewer_client.get(url).content.decode()
    assert reverse("review:undo_claim", args=[answer.pk]) in html
    assert "Undo last verdict (Contradicted)" in html

    response = reviewer_client.post(
        reverse("review:undo_claim", args=[answer.pk]),
        {"in_queue": "1", "queue_query": "q=alpha", "source": "sentences"},
    )
    assert response.status_code == 302
    assert response["Location"] == (
        reverse("review:answer_detail", args=[answer.pk]) + "?source=sentences&queue=1&q=alpha"
    )
    assert sorted(claims.values_list("claim_text", "verdict")) == [
        (alpha, "supported"),
        (beta, "unsupported"),
    ]
    # The answer verdict stays; the page now offers to undo the next most recent one.
    assert AnswerLabel.objects.get(answer=answer, reviewer=reviewer).verdict == "supported"
    page = reviewer_client.get(response["Location"]).content.decode()
    assert "Undo last verdict (Unsupported)" in page
    assert "Undid your verdict" in page


def test_undo_leaves_other_reviewers_and_answers_alone(
    reviewer_client, reviewer, django_user_model
):
    answer, elsewhere = create_answer(TEXT), create_answer(TEXT)
    other = django_user_model.objects.create_user("other-reviewer", password="x")
    label(reviewer_client, answer, {SENTENCES[0]: "supported"})
    label(reviewer_client, elsewhere, {SENTENCES[1]: "unsupported"})  # newest of all, other answer
    theirs = AnswerLabel.objects.create(answer=answer, reviewer=other, verdict="supported")
    ClaimLabel.objects.create(label=theirs, start_index=0, end_index=5, verdict="supported")

    undo = reverse("review:undo_claim", args=[answer.pk])
    response = reviewer_client.post(undo)
    assert response["Location"] == reverse("review:answer_detail", args=[answer.pk])
    assert not ClaimLabel.objects.filter(label__answer=answer, label__reviewer=reviewer).exists()
    assert ClaimLabel.objects.filter(label__answer=elsewhere).count() == 1
    assert ClaimLabel.objects.filter(label=theirs).count() == 1

    # Nothing left to undo: a message, not an error, and nothing else removed.
    response = reviewer_client.post(undo, follow=True)
    assert response.status_code == 200
    assert "no claim verdict on this answer to undo" in response.content.decode()
    assert ClaimLabel.objects.count() == 2


def test_undo_needs_post_and_login(reviewer_client):
    answer = create_answer(TEXT)
    undo = reverse("review:undo_claim", args=[answer.pk])
    assert Client().post(undo)["Location"].startswith(reverse("login"))
    assert reviewer_client.get(undo).status_code == 405


def test_undo_takes_back_the_verdict_changed_last_not_the_last_claim_in_the_text(
    reviewer_client, reviewer
):
    answer = create_answer(TEXT)
    alpha, beta, gamma = SENTENCES
    label(reviewer_client, answer, {alpha: "supported", beta: "unsupported", gamma: "supported"})
    # Saving the same form again with only the first claim changed.
    label(reviewer_client, answer, {alpha: "contradicted", beta: "unsupported", gamma: "supported"})

    url = reverse("review:answer_detail", args=[answer.pk]) + "?queue=1&q=alpha"
    assert "Undo last verdict (Contradicted)" in reviewer_client.get(url).content.decode()
    reviewer_client.post(reverse("review:undo_claim", args=[answer.pk]))

    claims = ClaimLabel.objects.filter(label__reviewer=reviewer)
    assert sorted(claims.values_list("claim_text", "verdict")) == [
        (beta, "unsupported"),
        (gamma, "supported"),
    ]
