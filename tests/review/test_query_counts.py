"""The review pages run a fixed number of queries, however big the data."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from groundview.answers.models import Answer, CheckRun, Session, SkippedReason
from groundview.review.models import AnswerLabel
from tests.factories import (
    citation,
    create_answer,
    create_check_run,
    create_label,
    document_reference,
    grounding_support,
    span_of,
)

pytestmark = pytest.mark.django_db


def big_answer(claims: int, references: int, steps: int) -> Answer:
    sentences = [f"Fact number {i} is about 🐍 Python and 中文 item {i}." for i in range(claims)]
    text = " ".join(sentences)
    spans = [span_of(text, sentence) for sentence in sentences]
    refs = [
        document_reference(f"Doc {r}", [f"Fact number {r} is about Python.", f"Other text {r}."])
        for r in range(references)
    ]
    step_list = [
        {
            "state": "SUCCEEDED",
            "description": f"step {s}",
            "thought": "thinking",
            "actions": [
                {
                    "searchAction": {"query": f"query {s}"},
                    "observation": {
                        "searchResults": [
                            {
                                "document": f"d{s}",
                                "title": f"Result {s}",
                                "snippetInfo": [{"snippet": "a <b>snippet</b>"}],
                                "chunkInfo": [{"chunk": "c", "content": "chunk text"}],
                            }
                        ]
                    },
                }
            ],
        }
        for s in range(steps)
    ]
    answer = create_answer(
        text,
        references=refs,
        supports=[
            grounding_support(s, e, i % references, score=0.8) for i, (s, e) in enumerate(spans)
        ],
        citations=[
            citation(s, e, i % references, (i + 1) % references) for i, (s, e) in enumerate(spans)
        ],
        steps=step_list,
        relatedQuestions=["q1", "q2"],
        answerSkippedReasons=["LOW_GROUNDED_ANSWER"],
        safetyRatings=[{"category": "HARM_CATEGORY_HARASSMENT", "probability": "LOW"}],
        queryUnderstandingInfo={
            "queryClassificationInfo": [{"type": "ADVERSARIAL_QUERY", "positive": False}]
        },
    )
    facts = [
        {"factText": f"Fact number {r} is about Python.", "attributes": {"title": f"Doc {r}"}}
        for r in range(references)
    ]
    create_check_run(
        answer,
        [(s, e, 0.7, [i % references]) for i, (s, e) in enumerate(spans)],
        facts=facts,
        fact_sources=[{"reference": r, "chunk": 0} for r in range(references)],
    )
    # An older run in the history, too.
    CheckRun.objects.create(answer=answer, status=CheckRun.Status.FAILED, error="boom")
    return answer


def count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200
    return len(context.captured_queries)


def test_detail_page_query_count_does_not_grow_with_claims_and_references(
    reviewer_client, reviewer, django_assert_num_queries
):
    small = big_answer(claims=2, references=3, steps=1)
    large = big_answer(claims=50, references=100, steps=6)
    for answer in (small, large):
        AnswerLabel.objects.create(answer=answer, reviewer=reviewer, verdict="supported")
    baseline = count_queries(reviewer_client, reverse("review:answer_detail", args=[small.pk]))

    for source in ("checker", "imported"):
        url = reverse("review:answer_detail", args=[large.pk]) + f"?source={source}"
        with django_assert_num_queries(baseline):
            response = reviewer_client.get(url)
        assert response.content.decode().count('class="claim"') == 50
        assert 'id="ref-100"' in response.content.decode()


def bulk_create_answers(count: int, session: Session, reviewer) -> None:
    """Rows written straight to the tables, not imported: a thousand imports would only make the
    test slow."""
    now = timezone.now()
    answers = Answer.objects.bulk_create(
        Answer(
            session=session,
            name=f"{session.name}/answers/bulk{i}",
            state="SUCCEEDED",
            answer_text=f"Answer {i} text",
            query_text=f"Question {i}?",
            grounding_score=(i % 10) / 10,
            create_time=now,
            raw={},
        )
        for i in range(count)
    )
    runs = CheckRun.objects.bulk_create(
        CheckRun(answer=a, status=CheckRun.Status.SUCCEEDED, support_score=(i % 7) / 7)
        for i, a in enumerate(answers)
    )
    for answer, run in zip(answers, runs, strict=True):
        answer.latest_check = run
    Answer.objects.bulk_update(answers, ["latest_check"])
    SkippedReason.objects.bulk_create(
        SkippedReason(answer=a, position=0, reason="NO_RELEVANT_CONTENT") for a in answers[::3]
    )
    AnswerLabel.objects.bulk_create(
        AnswerLabel(answer=a, reviewer=reviewer, verdict="supported") for a in answers[::2]
    )


def test_list_page_query_count_is_constant(reviewer_client, reviewer, django_assert_num_queries):
    bulk_create_answers(5, Session.objects.create(name="sessions/small"), reviewer)
    url = reverse("review:answer_list")
    reviewer_client.get(url)  # the first request of a session does one-off work
    baseline = count_queries(reviewer_client, url)
    filtered_baseline = count_queries(reviewer_client, url + "?label_status=labelled&sort=-score")

    bulk_create_answers(1000, Session.objects.create(name="sessions/large"), reviewer)
    with django_assert_num_queries(baseline):
        response = reviewer_client.get(url)
    assert response.context["page"].paginator.count == 1005
    with django_assert_num_queries(filtered_baseline):
        response = reviewer_client.get(
            url, {"label_status": "labelled", "sort": "-score", "page": "3"}
        )
    assert response.context["page"].number == 3
    assert response.context["page"].paginator.count == 503


def test_list_histograms_agree_with_and_without_filters(reviewer_client, reviewer):
    bulk_create_answers(40, Session.objects.create(name="sessions/h"), reviewer)
    unchecked = Answer.objects.order_by("pk").values_list("pk", flat=True)[:7]
    Answer.objects.filter(pk__in=list(unchecked)).update(latest_check=None)
    # Checked with nothing that needed a check (a skip message): a check, but no score.
    unscored = Answer.objects.order_by("pk").values_list("latest_check", flat=True)[7:10]
    CheckRun.objects.filter(pk__in=list(unscored)).update(support_score=None)
    url = reverse("review:answer_list")
    plain = reviewer_client.get(url).context
    # A filter every answer passes takes the other (one-query) path: same numbers.
    filtered = reviewer_client.get(url, {"grounding_min": "0"}).context
    for context in (plain, filtered):
        assert context["page"].paginator.count == 40
        assert (context["unchecked"], context["unscored"]) == (7, 3)
    assert b"7 answers not checked yet; 3 with nothing to check" in reviewer_client.get(url).content
    bars = [str(context["ours_svg"]).count("<rect") for context in (plain, filtered)]
    assert bars == [10, 10]
    strip = str(filtered["ours_svg"]).replace("grounding_min=0&amp;", "")
    assert str(plain["ours_svg"]) == strip
    assert str(plain["theirs_svg"]).count(">4</text>") == str(filtered["theirs_svg"]).count(
        ">4</text>"
    )


def half_cited_answer(claims: int) -> Answer:
    """`claims` claims, the checker citing every other one: the rest get nearest chunks."""
    sentences = [f"Item {i} of the 🐍 list weighs {i} kg 中文." for i in range(claims)]
    chunks = [f"Item {i} weighs {i} kg. It ships in a box." for i in range(claims)]
    text = " ".join(sentences)
    answer = create_answer(
        text, references=[document_reference(f"Doc {i}", [c]) for i, c in enumerate(chunks)]
    )
    create_check_run(
        answer,
        [(*span_of(text, s), 0.8, [i] if i % 2 == 0 else []) for i, s in enumerate(sentences)],
        facts=[{"factText": c, "attributes": {"title": f"Doc {i}"}} for i, c in enumerate(chunks)],
        fact_sources=[{"reference": i, "chunk": 0} for i in range(claims)],
    )
    return answer


def label_every_claim(answer: Answer, reviewers, verdicts) -> None:
    claims = [c["claimText"] for c in answer.latest_check.response["claims"]]
    for reviewer, verdict in zip(reviewers, verdicts, strict=True):
        create_label(answer, reviewer, verdict, claims=dict.fromkeys(claims, verdict))


@pytest.fixture
def others(django_user_model):
    make = django_user_model.objects.create_user
    return [make(username=name, password=f"pw-{name}-123") for name in ("bob", "cleo")]


@pytest.mark.parametrize("source", ["checker", "sentences"])
def test_nearest_chunks_and_others_verdicts_cost_no_query_per_claim(
    reviewer_client, reviewer, others, source, django_assert_num_queries
):
    small, large = half_cited_answer(2), half_cited_answer(50)
    for answer in (small, large):
        label_every_claim(answer, [reviewer, *others], ["supported", "unsupported", "supported"])
    query = f"?source={source}"
    baseline = count_queries(
        reviewer_client, reverse("review:answer_detail", args=[small.pk]) + query
    )
    with django_assert_num_queries(baseline):
        response = reviewer_client.get(reverse("review:answer_detail", args=[large.pk]) + query)
    html = response.content.decode()
    assert html.count('class="claim"') == 50
    assert html.count('<div class="chunk chunk-near">') >= 25
    # Rita has labelled every claim, so Bob's differing verdict shows on each.
    assert html.count('class="verdict-chip v-unsupported differs"') == 50


def test_disagreements_and_agreement_pages_run_a_fixed_number_of_queries(
    client, admin_user, others, django_assert_num_queries
):
    client.force_login(admin_user)
    urls = [reverse("review:disagreements"), reverse("review:agreement")]
    label_every_claim(half_cited_answer(2), others, ["supported", "unsupported"])
    baselines = [count_queries(client, url) for url in urls]

    for _ in range(11):
        label_every_claim(half_cited_answer(3), others, ["supported", "contradicted"])
    for url, baseline in zip(urls, baselines, strict=True):
        with django_assert_num_queries(baseline):
            response = client.get(url)
        assert response.status_code == 200
    # 35 disputed claims: the first page is full.
    assert len(client.get(urls[0]).context["rows"].object_list) == 25


def tables_read(client, url) -> str:
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    return " ".join(query["sql"] for query in context.captured_queries)


def test_a_first_visit_asks_for_neither_permissions_nor_settled_verdicts(
    reviewer_client, reviewer, others
):
    answer = half_cited_answer(3)
    url = reverse("review:answer_detail", args=[answer.pk])
    sql = tables_read(reviewer_client, url)
    assert "auth_permission" not in sql and "review_adjudication" not in sql

    # Others' verdicts, hidden from Rita: the page asks whether she may reveal them.
    label_every_claim(answer, others[:1], ["unsupported"])
    sql = tables_read(reviewer_client, url)
    assert "auth_permission" in sql and "review_adjudication" not in sql

    # Her own verdicts: the others' and the settled ones show beside them.
    label_every_claim(answer, [reviewer], ["supported"])
    sql = tables_read(reviewer_client, url)
    assert "auth_permission" not in sql and "review_adjudication" in sql
