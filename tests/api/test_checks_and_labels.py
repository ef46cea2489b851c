"""Grounding-check runs, batches and review labels over the API."""

import hashlib
import json

import pytest

from groundview.answers.models import Answer, CheckBatch, CheckRun
from groundview.review.models import AnswerLabel
from tests.factories import import_documents, paris_document

pytestmark = pytest.mark.django_db

ENGINES = "tests.checks.fake_engines"


@pytest.fixture
def fake_engine(settings):
    settings.GROUNDVIEW_CHECK_ENGINE = f"{ENGINES}.fake_engine"


def post(client, path, body):
    return client.post(path, data=json.dumps(body), content_type="application/json")


def test_queue_a_check_and_read_its_run(
    reviewer_client, answer, fake_engine, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = reviewer_client.post(f"/api/answers/{answer.pk}/checks")

    assert response.status_code == 202
    queued = response.json()
    assert queued["status"] == "queued" and queued["answer"] == answer.pk
    run = reviewer_client.get(f"/api/checks/{queued['id']}").json()
    assert run["status"] == "succeeded"
    assert run["request"]["answerCandidate"] == answer.answer_text
    assert 0 <= run["response"]["supportScore"] <= 1
    assert run["support_score"] == run["response"]["supportScore"]
    listed = reviewer_client.get(f"/api/answers/{answer.pk}/checks").json()["results"]
    assert [item["id"] for item in listed] == [queued["id"]]
    assert "request" not in listed[0]
    detail = reviewer_client.get(f"/api/answers/{answer.pk}").json()
    assert detail["latest_check"]["id"] == queued["id"]


def test_a_second_post_joins_the_pending_run(reviewer_client, answer, fake_engine):
    # The run is not sent (its on-commit callback is not executed), so it stays queued.
    first = reviewer_client.post(f"/api/answers/{answer.pk}/checks")
    second = reviewer_client.post(f"/api/answers/{answer.pk}/checks")

    assert (first.status_code, second.status_code) == (202, 200)
    assert second.json()["id"] == first.json()["id"]
    assert second.json()["status"] == "queued"
    assert CheckRun.objects.filter(answer=answer).count() == 1


def test_checks_of_an_unknown_answer_are_404(reviewer_client):
    assert reviewer_client.post("/api/answers/987654/checks").status_code == 404
    assert reviewer_client.get("/api/answers/987654/checks").status_code == 404


def test_runs_filter_by_answer_batch_and_status(reviewer_client, answer):
    batch = CheckBatch.objects.create()
    done = CheckRun.objects.create(answer=answer, batch=batch, status="succeeded")
    CheckRun.objects.create(answer=answer, status="failed")

    def ids(query):
        response = reviewer_client.get("/api/checks" + query)
        assert response.status_code == 200, response.content
        return [item["id"] for item in response.json()["results"]]

    assert ids(f"?batch={batch.pk}") == [done.pk]
    assert ids("?status=succeeded") == [done.pk]
    assert len(ids(f"?answer={answer.pk}")) == 2
    for query in ["?status=done", "?answer=x", "?batch=-1", "?answer=99999999999999999999"]:
        assert reviewer_client.get("/api/checks" + query).status_code == 400, query


def test_batch_of_answer_ids_runs_and_reports_progress(
    admin_client, fake_engine, django_capture_on_commit_callbacks
):
    import_documents([paris_document(f"b{i}") for i in range(3)])
    ids = list(Answer.objects.values_list("pk", flat=True))

    with django_capture_on_commit_callbacks(execute=True):
        response = post(admin_client, "/api/batches", {"answer_ids": ids, "description": "nightly"})

    assert response.status_code == 201
    created = response.json()
    assert created["description"] == "nightly" and created["progress"]["total"] == 3
    progress = admin_client.get(f"/api/batches/{created['id']}").json()["progress"]
    assert progress == {
        "total": 3,
        "queued": 0,
        "running": 0,
        "succeeded": 3,
        "failed": 0,
        "failures": [],
    }
    (listed,) = admin_client.get("/api/batches").json()["results"]
    assert (listed["total"], listed["succeeded"]) == (3, 3)


def test_batch_failures_carry_their_error(
    admin_client, settings, django_capture_on_commit_callbacks
):
    # The failing fake engine raises for answers containing 💥.
    settings.GROUNDVIEW_CHECK_ENGINE = f"{ENGINES}.failing_engine"
    import_documents([paris_document("boom", text="It went 💥 here.", citations=[])])
    answer = Answer.objects.get()

    with django_capture_on_commit_callbacks(execute=True):
        batch = post(admin_client, "/api/batches", {"filters": {"state": "SUCCEEDED"}}).json()

    progress = admin_client.get(f"/api/batches/{batch['id']}").json()["progress"]
    assert progress["failed"] == 1
    (failure,) = progress["failures"]
    assert failure["answer_name"] == answer.name and failure["error"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "non_field_errors"),
        ({"answer_ids": [1], "filters": {}}, "non_field_errors"),
        ({"answer_ids": [123456]}, "answer_ids"),
        ({"answer_ids": []}, "answer_ids"),
        ({"answer_ids": ["x"]}, "answer_ids[0]"),
        ({"filters": {"state": "NOPE"}}, "filters.state"),
        ({"filters": {"stat": "FAILED"}}, "filters.stat"),
        ({"filters": {"0": []}}, "filters.0"),
        ({"filters": {"state": "SUCCEEDED", "bogus": ""}}, "filters.bogus"),
        ({"filters": {"state": "FAILED"}}, "filters"),
        ({"filters": "state=FAILED"}, "filters"),
    ],
)
def test_bad_batch_requests_are_400(admin_client, answer, body, field):
    response = post(admin_client, "/api/batches", body)

    assert response.status_code == 400
    assert field in response.json()
    assert not CheckBatch.objects.exists()


def test_label_an_answer_with_claims_then_replace_it(reviewer_client, answer):
    text = answer.answer_text.encode()
    flag = text.index("🇫🇷".encode())
    body = {
        "answer": answer.pk,
        "verdict": "partially_supported",
        "note": "population is wrong",
        "claims": [
            {
                "start_index": 0,
                "end_index": 31,
                "verdict": "supported",
                "corrected_citations": ["0", "0:0"],
            },
            {"start_index": flag, "end_index": len(text), "verdict": "unsupported"},
        ],
    }

    created = post(reviewer_client, "/api/labels", body)
    replaced = post(
        reviewer_client, "/api/labels", {**body, "verdict": "unsupported", "claims": []}
    )

    assert created.status_code == 201, created.content
    data = created.json()
    assert data["reviewer"] == "rita" and data["answer_name"] == answer.name
    assert data["claims"][0]["claim_text"] == "Paris is the capital of France."
    assert data["claims"][1]["claim_text"] == text[flag:].decode()
    assert replaced.status_code == 200
    label = AnswerLabel.objects.get()
    assert (label.verdict, label.claims.count()) == ("unsupported", 0)


def test_a_label_without_a_verdict_takes_its_claims(reviewer_client, answer):
    flag = answer.answer_text.encode().index("🇫🇷".encode())
    claims = [
        {"start_index": 0, "end_index": 31, "verdict": "supported"},
        {"start_index": flag, "end_index": flag + 8, "verdict": "contradicted"},
    ]

    derived = post(reviewer_client, "/api/labels", {"answer": answer.pk, "claims": claims})
    none = post(reviewer_client, "/api/labels", {"answer": answer.pk, "note": "no verdict"})

    assert derived.status_code == 201, derived.content
    assert derived.json()["verdict"] == "contradicted"
    assert derived.json()["verdict_from_claims"] is True
    assert none.status_code == 400
    assert list(none.json()) == ["verdict"]
    label = AnswerLabel.objects.get()
    assert (label.verdict, label.note, label.claims.count()) == ("contradicted", "", 2)


@pytest.mark.parametrize(
    ("claim", "field"),
    [
        ({"start_index": 0, "end_index": 999, "verdict": "supported"}, "claims[0].end_index"),
        # Inside the four-byte emoji.
        ({"start_index": 33, "end_index": 40, "verdict": "supported"}, "claims[0].start_index"),
        ({"start_index": 5, "end_index": 2, "verdict": "supported"}, "claims[0].start_index"),
        ({"start_index": 0, "end_index": 5, "verdict": "maybe"}, "claims[0].verdict"),
        ({"start_index": -1, "end_index": 5, "verdict": "supported"}, "claims[0].start_index"),
        ({"start_index": "0", "end_index": 2**64, "verdict": "supported"}, "claims[0].end_index"),
        (
            {
                "start_index": 0,
                "end_index": 5,
                "verdict": "supported",
                "corrected_citations": ["7"],
            },
            "claims[0].corrected_citations[0]",
        ),
        (
            {
                "start_index": 0,
                "end_index": 5,
                "verdict": "supported",
                "corrected_citations": ["a"],
            },
            "claims[0].corrected_citations[0]",
        ),
    ],
)
def test_bad_claim_labels_are_400_naming_the_field(reviewer_client, answer, claim, field):
    response = post(
        reviewer_client,
        "/api/labels",
        {"answer": answer.pk, "verdict": "supported", "claims": [claim]},
    )

    assert response.status_code == 400, response.content
    # One key, the claim field's path, whichever check found the mistake.
    assert list(response.json()) == [field]
    assert not AnswerLabel.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"answer": 999999, "verdict": "supported"},
        {"answer": 2**70, "verdict": "supported"},
        {"answer": "one", "verdict": "supported"},
        {"verdict": "supported"},
        {"answer": 1, "verdict": "great"},
        {"answer": 1, "verdict": "supported", "note": "nul \x00 inside"},
        [1, 2],
    ],
)
def test_bad_label_requests_are_400(reviewer_client, answer, body):
    assert post(reviewer_client, "/api/labels", body).status_code == 400


def test_a_field_the_labels_api_does_not_know_is_refused_not_dropped(reviewer_client, answer):
    claim = {"start_index": 0, "end_index": 5, "verdict": "supported", "notes": "typo"}
    body = {"answer": answer.pk, "verdict": "supported", "claims": [claim], "comment": "x"}

    response = post(reviewer_client, "/api/labels", body)

    assert response.status_code == 400, response.content
    errors = response.json()
    assert errors["comment"] == [
        "is not a field; the fields are answer, verdict, note, claims, answer_text_sha256"
    ]
    assert not AnswerLabel.objects.exists()
    del body["comment"]
    errors = post(reviewer_client, "/api/labels", body).json()
    fields = "start_index, end_index, verdict, corrected_citations, note"
    # Named by its path, as the service's own checks name a claim's span (one shape for both).
    assert errors == {"claims[0].notes": [f"is not a field; the fields are {fields}"]}
    # What a GET returns can be sent back: read-only fields are ignored.
    claim.pop("notes")
    label = post(reviewer_client, "/api/labels", {**body, "claims": [claim]}).json()
    again = post(reviewer_client, "/api/labels", label)
    assert again.status_code == 200, again.content
    assert again.json()["claims"] == label["claims"]


def test_a_label_naming_the_text_it_judged_is_refused_once_that_text_changed(
    reviewer_client, answer
):
    judged = hashlib.sha256(answer.answer_text.encode()).hexdigest().upper()  # either case
    body = {"answer": answer.pk, "verdict": "supported", "answer_text_sha256": judged}
    assert post(reviewer_client, "/api/labels", body).status_code == 201
    Answer.objects.filter(pk=answer.pk).update(answer_text=answer.answer_text + " 🆕")

    response = post(reviewer_client, "/api/labels", {**body, "verdict": "unsupported"})

    assert response.status_code == 400, response.content
    assert list(response.json()) == ["answer_text_sha256"]
    assert "text changed since" in response.json()["answer_text_sha256"][0]
    assert AnswerLabel.objects.get().verdict == "supported"
    bad = post(reviewer_client, "/api/labels", {**body, "answer_text_sha256": "abc"})
    assert "answer_text_sha256" in bad.json()


def test_malformed_json_body_is_400(reviewer_client):
    response = reviewer_client.post("/api/labels", data="{nope", content_type="application/json")

    assert response.status_code == 400
    assert "JSON parse error" in response.json()["detail"]


def test_labels_filter_by_reviewer_answer_and_verdict(reviewer_client, admin_user, reviewer):
    import_documents([paris_document("l1"), paris_document("l2")])
    first, second = Answer.objects.order_by("name")
    AnswerLabel.objects.create(answer=first, reviewer=reviewer, verdict="supported")
    AnswerLabel.objects.create(answer=second, reviewer=reviewer, verdict="unsupported")
    AnswerLabel.objects.create(answer=first, reviewer=admin_user, verdict="contradicted")

    def verdicts(query):
        response = reviewer_client.get("/api/labels" + query)
        assert response.status_code == 200, response.content
        return sorted(item["verdict"] for item in response.json()["results"])

    assert verdicts("?reviewer=ada") == ["contradicted"]
    assert verdicts(f"?answer={first.pk}") == ["contradicted", "supported"]
    assert verdicts("?verdict=unsupported&reviewer=rita") == ["unsupported"]
    assert reviewer_client.get("/api/labels?verdict=fine").status_code == 400
    # Space around a value is ignored, as the answer list's filters ignore it.
    assert verdicts(f"?reviewer=ada%20&answer=%20{first.pk}") == ["contradicted"]
    assert verdicts("?verdict=%20unsupported") == ["unsupported"]


@pytest.mark.parametrize("path", ["/api/labels", "/api/batches"])
@pytest.mark.parametrize("body", ["[" * 100_000, '{"note": ' + "[" * 100_000 + "]" * 100_000 + "}"])
def test_json_nested_too_deeply_to_read_is_a_400_not_a_500(admin_client, answer, path, body):
    response = admin_client.post(path, body, content_type="application/json")

    assert response.status_code == 400, response.content[:200]
    assert "nested too deeply" in response.json()["detail"]
    assert not AnswerLabel.objects.exists() and not CheckBatch.objects.exists()


def test_a_reviewer_queueing_a_batch_is_told_it_is_for_admins(reviewer_client, answer):
    response = post(reviewer_client, "/api/batches", {"answer_ids": [answer.pk]})

    assert response.status_code == 403
    assert "queue batches of checks" in response.json()["detail"]
    assert not CheckBatch.objects.exists()
