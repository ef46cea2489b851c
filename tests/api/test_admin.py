"""Admin labelling (answer page, filters, actions) and API token management in the admin."""

import json

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from groundview.answers.models import Answer, CheckBatch, CheckRun
from groundview.api.models import ApiToken
from groundview.review.models import AnswerLabel, ClaimLabel
from tests.factories import import_documents, paris_document

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:answers_answer_changelist")


@pytest.fixture
def client(client, admin_user, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    client.force_login(admin_user)
    return client


@pytest.fixture
def answers(reviewer):
    import_documents(
        [
            paris_document("low", groundingScore=0.1),
            paris_document("high", groundingScore=0.9, answerSkippedReasons=["ADVERSARIAL_QUERY"]),
            paris_document("none", state="FAILED"),
        ]
    )
    by_name = {answer.short_name: answer for answer in Answer.objects.all()}
    run = CheckRun.objects.create(answer=by_name["low"], status="succeeded", support_score=0.2)
    Answer.objects.filter(pk=by_name["low"].pk).update(latest_check=run)
    run = CheckRun.objects.create(answer=by_name["high"], status="succeeded", support_score=1.0)
    Answer.objects.filter(pk=by_name["high"].pk).update(latest_check=run)
    AnswerLabel.objects.create(answer=by_name["high"], reviewer=reviewer, verdict="supported")
    return by_name


def listed(client, query):
    response = client.get(CHANGELIST + query)
    assert response.status_code == 200
    return sorted(answer.short_name for answer in response.context["cl"].result_list)


def messages_of(response):
    return [str(message) for message in get_messages(response.wsgi_request)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", ["high", "low", "none"]),
        ("?state__exact=FAILED", ["none"]),
        ("?skip_reason=ADVERSARIAL_QUERY", ["high"]),
        ("?skip_reason=none", ["low", "none"]),
        ("?score=0-25", ["low"]),
        ("?score=75-100", ["high"]),
        ("?score=none", ["none"]),
        ("?grounding=0-25", ["low"]),
        ("?grounding=none", ["none"]),
        ("?label_status=labelled", ["high"]),
        ("?label_status=unlabelled", ["low", "none"]),
        ("?label_status=mine", []),
        ("?label_status=not_mine", ["high", "low", "none"]),
        ("?label_status=double", []),
    ],
)
def test_answer_list_filters(client, answers, query, expected):
    assert listed(client, query) == expected


def test_answer_page_shows_labels_inline_and_saves_a_new_one(client, answers, admin_user):
    answer = answers["low"]
    url = reverse("admin:answers_answer_change", args=[answer.pk])

    page = client.get(url)
    assert page.status_code == 200
    assert "labels-TOTAL_FORMS" in page.content.decode()

    data = {
        "labels-TOTAL_FORMS": "1",
        "labels-INITIAL_FORMS": "0",
        "labels-0-reviewer": str(admin_user.pk),
        "labels-0-verdict": "unsupported",
        "labels-0-note": "checked by hand",
        "labels-0-answer": str(answer.pk),
    }
    for prefix in ["citations", "grounding_supports", "references", "safety_ratings"]:
        data[f"{prefix}-TOTAL_FORMS"] = "0"
        data[f"{prefix}-INITIAL_FORMS"] = str(getattr(answer, prefix).count())
    response = client.post(url, data)

    assert response.status_code == 302, response.context["errors"] if response.context else ""
    label = AnswerLabel.objects.get(answer=answer)
    assert (label.reviewer, label.verdict, label.note) == (
        admin_user,
        "unsupported",
        "checked by hand",
    )


def action(client, name, answers, **extra):
    return client.post(
        CHANGELIST,
        {"action": name, "_selected_action": [a.pk for a in answers], "index": 0, **extra},
    )


def test_run_grounding_check_action_queues_a_batch(client, answers, admin_user):
    response = action(client, "run_grounding_check", [answers["low"], answers["none"]])

    assert response.status_code == 302
    batch = CheckBatch.objects.get()
    assert batch.created_by == admin_user
    assert set(batch.runs.values_list("answer__name", flat=True)) == {
        answers["low"].name,
        answers["none"].name,
    }
    assert "Queued grounding checks" in messages_of(response)[0]


def test_export_selected_as_jsonl_action(client, answers):
    response = action(client, "export_jsonl", [answers["high"], answers["low"]])

    lines = b"".join(response.streaming_content).decode().splitlines()
    assert sorted(json.loads(line)["name"] for line in lines) == sorted(
        [answers["high"].name, answers["low"].name]
    )
    assert {json.loads(line)["name"]: json.loads(line) for line in lines}[
        answers["low"].name
    ] == answers["low"].raw


def test_mark_reviewed_needs_a_verdict(client, answers):
    response = action(client, "mark_reviewed", [answers["low"]])

    assert "Choose a verdict" in messages_of(response)[0]
    assert not AnswerLabel.objects.filter(answer=answers["low"]).exists()


def test_mark_reviewed_labels_as_me_and_never_overwrites_my_claims(client, answers, admin_user):
    mine = AnswerLabel.objects.create(
        answer=answers["high"], reviewer=admin_user, verdict="contradicted"
    )
    ClaimLabel.objects.create(label=mine, start_index=0, end_index=5, verdict="contradicted")

    response = action(
        client, "mark_reviewed", [answers["low"], answers["high"]], verdict="partially_supported"
    )

    assert AnswerLabel.objects.get(answer=answers["low"], reviewer=admin_user).verdict == (
        "partially_supported"
    )
    mine.refresh_from_db()
    assert mine.verdict == "contradicted" and mine.claims.count() == 1
    assert "1 already had your label" in messages_of(response)[0]


def test_mark_reviewed_skips_an_unfinished_answer_and_says_so(client, answers, admin_user):
    Answer.objects.filter(pk=answers["none"].pk).update(state="IN_PROGRESS")

    response = action(
        client, "mark_reviewed", [answers["low"], answers["none"]], verdict="supported"
    )

    assert response.status_code == 302
    assert AnswerLabel.objects.filter(reviewer=admin_user).get().answer == answers["low"]
    assert any(
        m.startswith("Not marked: ") and "still being generated" in m for m in messages_of(response)
    )


def test_claim_inline_validates_byte_spans_and_fills_the_claim_text(client, answers, admin_user):
    answer = answers["low"]  # "Paris is the capital of France. 🇫🇷 It has 2 million people."
    label = AnswerLabel.objects.create(answer=answer, reviewer=admin_user, verdict="supported")
    url = reverse("admin:review_answerlabel_change", args=[label.pk])

    def post(start, end, citations="[]"):
        return client.post(
            url,
            {
                "answer": answer.pk,
                "reviewer": admin_user.pk,
                "verdict": "supported",
                "note": "",
                "claims-TOTAL_FORMS": "1",
                "claims-INITIAL_FORMS": "0",
                "claims-0-start_index": str(start),
                "claims-0-end_index": str(end),
                "claims-0-verdict": "supported",
                "claims-0-corrected_citations": citations,
                "claims-0-note": "",
            },
        )

    inside_emoji = post(0, 34)
    assert inside_emoji.status_code == 200
    assert not ClaimLabel.objects.exists()
    # A corrected citation must name a reference of the answer, as on the review page.
    no_such_reference = post(0, 31, '["7"]')
    assert no_such_reference.status_code == 200
    assert "names no reference or chunk of this answer" in no_such_reference.content.decode()
    assert not ClaimLabel.objects.exists()
    not_a_list = post(0, 31, "5")
    assert not_a_list.status_code == 200
    assert "Give a list of strings" in not_a_list.content.decode()
    assert not ClaimLabel.objects.exists()
    assert post(0, 31).status_code == 302
    assert ClaimLabel.objects.get().claim_text == "Paris is the capital of France."


def test_admin_creates_a_token_sees_it_once_and_it_works(client, reviewer):
    response = client.post(
        reverse("admin:api_apitoken_add"), {"user": reviewer.pk, "name": "chatbot"}, follow=True
    )

    (message,) = [m for m in messages_of(response) if "copy it now" in m]
    token = next(word for word in message.split() if word.startswith("gv_"))
    row = ApiToken.objects.get()
    assert row.user == reviewer and token not in row.key_hash
    page = client.get(reverse("admin:api_apitoken_change", args=[row.pk])).content.decode()
    assert token not in page
    api = client.__class__()
    assert api.get("/api/answers", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 200

    client.post(
        reverse("admin:api_apitoken_changelist"),
        {"action": "revoke", "_selected_action": [row.pk], "index": 0},
    )
    assert api.get("/api/answers", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 401


def test_reviewers_cannot_reach_the_admin(client, reviewer):
    client.force_login(reviewer)

    response = client.get(reverse("admin:api_apitoken_changelist"))

    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_new_label_page_has_no_claims_until_the_answer_is_chosen(client, answers):
    page = client.get(reverse("admin:review_answerlabel_add")).content.decode()

    assert "claims-TOTAL_FORMS" not in page
