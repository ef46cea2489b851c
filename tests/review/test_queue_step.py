"""Queue v2 (issue 14, item 3): the step to the next answer in one round trip, the filter carried
through, and progress counts that follow the queue's own rules."""

import re
from datetime import timedelta
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from groundview.review import services
from groundview.review.models import AnswerLabel, Assignment, ClaimLabel
from tests.factories import create_answer, span_of

pytestmark = pytest.mark.django_db

CANONICAL = re.compile(r'<link rel="canonical" href="([^"]+)" data-replace-url>')


def next_url(html: str) -> str:
    """The address the page names for itself (what the script puts in the address bar)."""
    return unescape(CANONICAL.search(html).group(1))


def save_and_next(client, answer, *, query="q=step", script=True, verdict="supported"):
    """The label form as the page posts it with "Save & next" (the script adds respond=page)."""
    start, end = span_of(answer.answer_text, answer.answer_text.split(". ")[0])
    data = {
        "claim_count": "1",
        "claim-1-start": str(start),
        "claim-1-end": str(end),
        "claim-1-verdict": "supported",
        "verdict": verdict,
        "note": "",
        "source": "sentences",
        "in_queue": "1",
        "queue_query": query,
        "action": "next",
    }
    if script:
        data["respond"] = "page"
    return client.post(reverse("review:save_label", args=[answer.pk]), data)


def detail_url(answer, query="q=step"):
    return reverse("review:answer_detail", args=[answer.pk]) + "?queue=1&" + query


@pytest.fixture
def three():
    """Three answers matching q=step (the newest first in the queue) and one that does not."""
    oldest = create_answer("Step one is here. It has two sentences.")
    middle = create_answer("Step two 🦆 is here.")
    outside = create_answer("Not in the filter, and newer than the others.")
    newest = create_answer("Step three 東京 is here.")
    return oldest, middle, newest, outside


def test_the_script_gets_the_next_page_in_one_response(reviewer_client, reviewer, three):
    oldest, middle, newest, _ = three
    entered = reviewer_client.get(reverse("review:queue") + "?q=step")
    assert entered["Location"] == detail_url(newest)

    response = save_and_next(reviewer_client, newest)

    # One response: the next answer's page itself, no redirect.
    assert response.status_code == 200
    html = response.content.decode()
    assert "Step two 🦆 is here." in html
    assert next_url(html) == detail_url(middle)
    assert f"Saved your label of {newest.short_name}." in html
    # Still in the queue, with the filter, for the next step and for the skip button.
    assert html.count('name="queue_query" value="q=step"') >= 2
    assert reverse("review:save_label", args=[middle.pk]) in html
    # The counts come after the page (the script fetches them), for the same filter.
    assert f'data-progress-url="{reverse("review:queue_progress")}?q=step"' in html
    # The label is saved and the next answer is leased to the reviewer.
    assert AnswerLabel.objects.get(answer=newest, reviewer=reviewer).verdict == "supported"
    assert list(
        Assignment.objects.filter(reviewer=reviewer).values_list("answer_id", flat=True)
    ) == [middle.pk]


def test_without_script_one_redirect_straight_to_the_next_answer(reviewer_client, three):
    oldest, middle, newest, _ = three
    reviewer_client.get(reverse("review:queue") + "?q=step")

    response = save_and_next(reviewer_client, newest, script=False)

    assert response.status_code == 303
    assert response["Location"] == detail_url(middle)
    page = reviewer_client.get(response["Location"]).content.decode()
    # The page shows the counts itself and no address to replace.
    assert "2 of 3 left" in page and "you labelled 1" in page
    assert "data-replace-url" not in page


def test_the_filter_is_carried_through_every_step_until_the_queue_is_empty(
    reviewer_client, reviewer, three
):
    oldest, middle, newest, outside = three
    reviewer_client.get(reverse("review:queue") + "?q=step")
    seen = [newest.pk]
    current = newest
    for expected in (middle, oldest):
        html = save_and_next(reviewer_client, current).content.decode()
        assert next_url(html) == detail_url(expected)
        seen.append(expected.pk)
        current = expected
    last = save_and_next(reviewer_client, current)
    # Nothing left in the filter: the queue's own page says so (the answer outside stays out).
    assert last.status_code == 302
    assert last["Location"] == reverse("review:queue") + "?q=step"
    assert outside.pk not in seen
    assert AnswerLabel.objects.filter(reviewer=reviewer).count() == 3
    assert not AnswerLabel.objects.filter(answer=outside).exists()


def test_double_review_and_sort_travel_with_the_step(reviewer_client):
    first = create_answer("Step alpha.")
    second = create_answer("Step beta.")
    query = "q=step&sort=created&double=1"
    entered = reviewer_client.get(reverse("review:queue") + "?" + query)
    assert entered["Location"] == detail_url(first, "q=step&sort=created&double=1")
    html = save_and_next(reviewer_client, first, query=query).content.decode()
    assert next_url(html) == detail_url(second, query)


def test_a_rejected_label_stays_on_its_answer(reviewer_client, reviewer, three):
    oldest, middle, newest, _ = three
    response = save_and_next(reviewer_client, newest, verdict="maybe")
    assert response.status_code == 400
    html = response.content.decode()
    assert "Step three 東京 is here." in html and "data-replace-url" not in html
    assert not AnswerLabel.objects.filter(reviewer=reviewer).exists()


def test_skip_steps_to_the_next_answer_in_one_response(reviewer_client, reviewer, three):
    oldest, middle, newest, _ = three
    reviewer_client.get(reverse("review:queue") + "?q=step")
    skip = reverse("review:queue_skip", args=[newest.pk])

    response = reviewer_client.post(skip, {"queue_query": "q=step", "respond": "page"})
    assert response.status_code == 200
    assert next_url(response.content.decode()) == detail_url(middle)
    assert not AnswerLabel.objects.exists()

    without_script = reviewer_client.post(
        reverse("review:queue_skip", args=[middle.pk]), {"queue_query": "q=step"}
    )
    assert without_script.status_code == 303
    assert without_script["Location"] == detail_url(oldest)


def test_after_a_step_a_reload_shows_the_same_next_answer(reviewer_client, three):
    oldest, middle, newest, _ = three
    reviewer_client.get(reverse("review:queue") + "?q=step")
    html = save_and_next(reviewer_client, newest).content.decode()
    # The address the script puts in the address bar is a plain page of the same answer, and the
    # queue keeps it leased to this reviewer until it is labelled.
    again = reviewer_client.get(next_url(html))
    assert again.status_code == 200
    assert "Step two 🦆 is here." in again.content.decode()
    assert reviewer_client.get(reverse("review:queue") + "?q=step")["Location"] == detail_url(
        middle
    )


# --- progress ------------------------------------------------------------------------------------


def brute_force(reviewer, filters, double):
    """The definition: what queue_queryset would still give, and the filter's answers."""
    from groundview.answers.models import Answer
    from groundview.review.filters import filter_answers

    matching = filter_answers(Answer.objects.all(), filters)
    return {
        "total": matching.count(),
        "done": matching.filter(labels__reviewer=reviewer).count(),
        "left": services.queue_queryset(reviewer, filters, double_review=double).count(),
    }


@pytest.mark.parametrize("double", [False, True])
def test_progress_counts_follow_the_queue_rules(reviewer, django_user_model, double):
    other = django_user_model.objects.create_user("other-reviewer", password="x")
    third = django_user_model.objects.create_user("third-reviewer", password="x")
    answers = [create_answer(f"Step count {i}.") for i in range(8)]
    create_answer("Outside the filter.")
    soon = timezone.now() + timedelta(minutes=5)
    past = timezone.now() - timedelta(minutes=5)
    AnswerLabel.objects.create(answer=answers[0], reviewer=reviewer, verdict="supported")
    AnswerLabel.objects.create(answer=answers[1], reviewer=other, verdict="supported")
    AnswerLabel.objects.create(answer=answers[2], reviewer=other, verdict="supported")
    AnswerLabel.objects.create(answer=answers[2], reviewer=third, verdict="unsupported")
    Assignment.objects.create(answer=answers[3], reviewer=other, expires_at=soon)
    Assignment.objects.create(answer=answers[4], reviewer=other, expires_at=past)  # expired
    Assignment.objects.create(answer=answers[5], reviewer=reviewer, expires_at=soon)  # mine
    AnswerLabel.objects.create(answer=answers[6], reviewer=other, verdict="supported")
    Assignment.objects.create(answer=answers[6], reviewer=third, expires_at=soon)

    for filters in ({"q": "step count"}, {}, {"q": "nothing matches this"}):
        expected = brute_force(reviewer, filters, double)
        assert services.queue_progress(reviewer, filters, double_review=double) == expected
    # Spelled out once, so the brute force is not the only witness.
    single = {"total": 8, "done": 1, "left": 3}  # answers 4, 5 and 7
    double_left = {"total": 8, "done": 1, "left": 5}  # answers 1, 3, 4, 5 and 7
    assert services.queue_progress(reviewer, {"q": "step count"}, double_review=double) == (
        double_left if double else single
    )


def test_progress_json_for_the_script(reviewer_client, reviewer, three):
    oldest, middle, newest, _ = three
    AnswerLabel.objects.create(answer=oldest, reviewer=reviewer, verdict="supported")
    url = reverse("review:queue_progress")
    assert reviewer_client.get(url + "?q=step").json() == {"total": 3, "done": 1, "left": 2}
    assert reviewer_client.get(url).json() == {"total": 4, "done": 1, "left": 3}

    bad = reviewer_client.get(url + "?state=NOPE")
    assert bad.status_code == 400
    assert bad.json()["error"]["field"] == "state"
    assert Client().get(url)["Location"].startswith(reverse("login"))
    assert reviewer_client.post(url).status_code == 405


def test_a_held_lease_comes_back_before_anything_else(reviewer):
    older, newer = create_answer("Step older."), create_answer("Step newer.")
    Assignment.objects.create(
        answer=older, reviewer=reviewer, expires_at=timezone.now() + timedelta(minutes=5)
    )
    assert services.next_in_queue(reviewer, {"q": "step"}) == older
    # An expired lease is no claim on anything.
    Assignment.objects.filter(answer=older).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert services.next_in_queue(reviewer, {"q": "step"}) == newer
    assert not ClaimLabel.objects.exists()


def test_plain_save_in_the_queue_keeps_the_queues_filters(reviewer_client, three):
    oldest, middle, newest, outside = three
    start, end = span_of(middle.answer_text, "Step two 🦆 is here.")

    response = reviewer_client.post(
        reverse("review:save_label", args=[middle.pk]),
        {
            "claim_count": "1",
            "claim-1-start": str(start),
            "claim-1-end": str(end),
            "claim-1-verdict": "supported",
            "verdict": "supported",
            "source": "sentences",
            "in_queue": "1",
            "queue_query": "q=step&double=1",
            "action": "save",
        },
    )

    # Back on the same answer, still in the filtered queue ("n" moves on within it).
    assert response["Location"] == (
        reverse("review:answer_detail", args=[middle.pk])
        + "?source=sentences&queue=1&q=step&double=1"
    )


def test_the_menu_marks_the_queue_while_reviewing_in_it(reviewer_client, three):
    oldest, middle, newest, outside = three
    in_queue = reviewer_client.get(detail_url(newest)).content.decode()
    browsing = reviewer_client.get(
        reverse("review:answer_detail", args=[newest.pk])
    ).content.decode()

    queue_link = f'<a href="{reverse("review:queue")}" aria-current="page">Queue</a>'
    answers_link = f'<a href="{reverse("review:answer_list")}" aria-current="page">Answers</a>'
    assert queue_link in in_queue and answers_link not in in_queue
    assert answers_link in browsing and queue_link not in browsing
