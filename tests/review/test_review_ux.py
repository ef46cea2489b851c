"""Issue 14 (review UX): labels kept across claim sources, plain words, re-run feedback."""

import re
import threading
import time

import pytest
from django.test import override_settings
from django.urls import reverse

from groundview.review.charts import Bar, histogram_svg
from groundview.review.models import AnswerLabel
from groundview.review.words import plain
from tests.factories import (
    create_answer,
    create_check_run,
    document_reference,
    grounding_support,
    span_of,
)

pytestmark = pytest.mark.django_db

TEXT = "Paris is the capital of France. It has two million people. The Seine runs through it."
FIRST = "Paris is the capital of France."
SECOND = "It has two million people."


@pytest.fixture
def paris():
    # The checker splits the text one way, the imported support covers the first two sentences.
    answer = create_answer(
        TEXT,
        query="Tell me about Paris",
        references=[
            document_reference("Paris", ["Paris is the capital of France. About 2 million people."])
        ],
        supports=[grounding_support(0, span_of(TEXT, SECOND)[1], 0, score=0.8)],
        groundingScore=0.7,
        answerSkippedReasons=["NON_ANSWER_SEEKING_QUERY_IGNORED"],
    )
    create_check_run(
        answer,
        [(*span_of(TEXT, FIRST), 0.9, []), (*span_of(TEXT, SECOND), 0.3, [])],
    )
    return answer


def post_label(client, answer, source, claims, **extra):
    """The labelling form as the page posts it: every shown claim's span, verdicts where given."""
    data = {"source": source, "claim_count": str(len(claims)), **extra}
    for number, (start, end, verdict) in enumerate(claims, start=1):
        data[f"claim-{number}-start"] = str(start)
        data[f"claim-{number}-end"] = str(end)
        if verdict:
            data[f"claim-{number}-verdict"] = verdict
    return client.post(reverse("review:save_label", args=[answer.pk]), data)


def test_labels_under_one_source_survive_saving_under_another(reviewer_client, reviewer, paris):
    first, second = span_of(TEXT, FIRST), span_of(TEXT, SECOND)
    # Labelled under the checker's claims and saved ...
    post_label(
        reviewer_client,
        paris,
        "checker",
        [(*first, "supported"), (*second, "unsupported")],
        verdict="partially_supported",
    )
    # ... then the imported support (one span over both sentences) labelled and saved.
    imported = (0, second[1])
    response = post_label(
        reviewer_client, paris, "imported", [(*imported, "partially_supported")], verdict=""
    )
    assert response.status_code == 302

    label = AnswerLabel.objects.get(answer=paris, reviewer=reviewer)
    assert sorted(label.claims.values_list("start_index", "end_index", "verdict")) == [
        (*first, "supported"),
        (*imported, "partially_supported"),
        (*second, "unsupported"),
    ]
    # and the checker's page shows the first labels again, the imported one counted as kept.
    html = reviewer_client.get(
        reverse("review:answer_detail", args=[paris.pk]), {"source": "checker"}
    ).content.decode()
    assert 'name="claim-1-verdict" value="supported" checked' in html
    assert 'name="claim-2-verdict" value="unsupported" checked' in html
    assert "1 of your claim labels is on claims from another source" in html


def test_a_shown_claim_is_still_replaced(reviewer_client, reviewer, paris):
    first = span_of(TEXT, FIRST)
    post_label(reviewer_client, paris, "checker", [(*first, "supported")], verdict="supported")
    post_label(reviewer_client, paris, "checker", [(*first, "contradicted")], verdict="")
    label = AnswerLabel.objects.get(answer=paris, reviewer=reviewer)
    assert list(label.claims.values_list("verdict", flat=True)) == ["contradicted"]


def test_save_and_switch_opens_the_other_source(reviewer_client, paris):
    first = span_of(TEXT, FIRST)
    response = post_label(
        reviewer_client,
        paris,
        "checker",
        [(*first, "supported")],
        verdict="",
        switch_to="imported",
        in_queue="1",
    )
    assert response.status_code == 302
    assert "source=imported" in response["Location"]
    assert "queue=1" in response["Location"]


def test_enum_names_are_shown_in_plain_words(reviewer_client, paris):
    detail = reviewer_client.get(reverse("review:answer_detail", args=[paris.pk])).content.decode()
    listing = reviewer_client.get(reverse("review:answer_list")).content.decode()
    for html in (detail, listing):
        assert "Chit-chat, not answered" in html
        # The raw name survives only as a tooltip or a form value, never as visible text.
        assert ">NON_ANSWER_SEEKING_QUERY_IGNORED<" not in html
        assert ">SUCCEEDED<" not in html
    assert "Succeeded" in detail
    assert plain("SOME_NEW_REASON") == "Some new reason"


def test_counts_are_pluralised(reviewer_client, paris):
    create_answer("Unchecked answer.", session="s2")
    listing = reviewer_client.get(reverse("review:answer_list"), {"session": paris.session_id})
    html = listing.content.decode()
    assert "1 answer matches the filters." in html
    html = reviewer_client.get(reverse("review:answer_list")).content.decode()
    assert "1 answer not checked yet" in html


def test_empty_histogram_bars_are_not_links():
    svg = histogram_svg(
        [Bar(0, 0.5, 0, href="?a"), Bar(0.5, 1, 3, href="?b")], title="Our support score"
    )
    assert 'href="?a"' not in svg
    assert 'href="?b" aria-label="Our support score 0.5 to 1.0: show the 3 answers"' in svg
    assert 'role="group" focusable="false"' in svg


def test_charts_side_by_side_share_a_scale():
    one = [Bar(0, 0.5, 1), Bar(0.5, 1, 0)]

    def height(svg):
        return float(
            re.search(
                r'<rect class="bar" x="[\d.]+" y="[\d.]+" width="[\d.]+" height="([\d.]+)"', svg
            )[1]
        )

    alone = height(histogram_svg(one, title="t"))
    shared = height(histogram_svg(one, title="t", peak=16))

    assert shared == pytest.approx(alone / 16, abs=0.1)  # heights are written to 0.1 px


@pytest.fixture
def slow_engine(monkeypatch):
    """send_runs that takes 2 s, as loading the engine in-process does; records its calls."""
    from groundview.answers import checks

    calls = []
    done = threading.Event()

    def send_runs(run_ids):
        time.sleep(2)
        calls.append(list(run_ids))
        done.set()

    monkeypatch.setattr(checks, "send_runs", send_runs)
    return calls, done


@pytest.mark.django_db(transaction=True)
@override_settings(CELERY_TASK_ALWAYS_EAGER=True)
def test_rerun_returns_at_once_and_repeated_clicks_join_the_run(client, reviewer, slow_engine):
    calls, done = slow_engine
    client.force_login(reviewer)
    answer = create_answer(TEXT)
    url = reverse("review:rerun_check", args=[answer.pk])

    started = time.monotonic()
    first = client.post(url, HTTP_ACCEPT="application/json")
    elapsed = time.monotonic() - started
    assert first.status_code == 202
    assert elapsed < 1.5, f"the request waited {elapsed:.1f} s for the check"
    data = first.json()
    assert data["joined"] is False and data["status"] == "queued"
    assert data["status_url"] == reverse("review:check_status", args=[answer.pk])

    # A second click (script or plain form) joins the queued run instead of adding one.
    second = client.post(url, HTTP_ACCEPT="application/json").json()
    assert second["run"] == data["run"] and second["joined"] is True
    plain_form = client.post(url)
    assert plain_form.status_code == 302
    assert answer.check_runs.count() == 1

    assert done.wait(10)
    assert calls == [[data["run"]]]
