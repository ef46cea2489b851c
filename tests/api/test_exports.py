"""Streamed exports: right content, and memory that does not grow with the number of rows."""

import csv
import io
import json
import tracemalloc

import pytest

from groundview.answers.models import Answer, Session
from groundview.review.models import AnswerLabel, ClaimLabel
from tests.factories import ENGINE, import_documents, paris_document

pytestmark = pytest.mark.django_db


def body(response) -> str:
    assert response.streaming
    return b"".join(response.streaming_content).decode()


def test_answers_jsonl_is_the_imported_documents_and_honours_filters(reviewer_client):
    documents = [
        paris_document("e1", text="Ünïcode 中文 😀.", citations=[]),
        paris_document("e2", state="FAILED"),
    ]
    import_documents(documents)

    everything = reviewer_client.get("/api/export/answers.jsonl")
    failed = reviewer_client.get("/api/export/answers.jsonl?state=FAILED")

    assert everything["Content-Type"] == "application/jsonl; charset=utf-8"
    assert 'filename="answers.jsonl"' in everything["Content-Disposition"]
    assert [json.loads(line) for line in body(everything).splitlines()] == documents
    assert [json.loads(line) for line in body(failed).splitlines()] == documents[1:]
    assert reviewer_client.get("/api/export/answers.jsonl?state=NOPE").status_code == 400


def test_answers_export_with_sessions_carries_the_questions_to_another_instance(reviewer_client):
    # Given an :answer response (its question lives in the session) and a bare answer
    document = paris_document("q1")
    session = {
        "name": document["name"].rsplit("/answers/", 1)[0],
        "state": "IN_PROGRESS",
        "turns": [{"query": {"text": "Quelle est la capitale ? 🇫🇷"}, "answer": document["name"]}],
    }
    bare = paris_document("q2")
    bare["name"] = bare["name"].replace("/sessions/", "/sessions/other-")
    import_documents([{"answer": document, "session": session}, bare])

    # When the answers are exported with their sessions, and the file imported elsewhere
    response = reviewer_client.get("/api/export/answers.jsonl?with_sessions=true")
    records = [json.loads(line) for line in body(response).splitlines()]
    plain = reviewer_client.get("/api/export/answers.jsonl")
    Answer.objects.all().delete()
    Session.objects.all().delete()
    import_documents(records)

    # Then the response went out as it came in, the bare answer as it is, and the question is back
    assert records == [{"answer": document, "session": session}, bare]
    assert [json.loads(line) for line in body(plain).splitlines()] == [document, bare]
    assert Answer.objects.get(name=document["name"]).query_text == "Quelle est la capitale ? 🇫🇷"
    wrong = reviewer_client.get("/api/export/answers.jsonl?with_sessions=yes")
    assert wrong.status_code == 400
    assert wrong.json() == {"with_sessions": ["must be true or false, not 'yes'"]}


@pytest.fixture
def labelled(answer, reviewer, admin_user):
    first = AnswerLabel.objects.create(
        answer=answer, reviewer=reviewer, verdict="partially_supported", note="=SUM(A1)"
    )
    ClaimLabel.objects.create(
        label=first,
        start_index=0,
        end_index=31,
        claim_text="Paris is the capital of France.",
        verdict="supported",
        corrected_citations=["0", "0:0"],
    )
    AnswerLabel.objects.create(answer=answer, reviewer=admin_user, verdict="unsupported")
    return answer


def test_labels_jsonl_has_one_label_with_its_claims_per_line(reviewer_client, labelled):
    lines = body(reviewer_client.get("/api/export/labels.jsonl")).splitlines()

    first, second = (json.loads(line) for line in lines)
    assert first["answer"] == labelled.name and first["reviewer"] == "rita"
    assert first["note"] == "=SUM(A1)"
    assert first["claims"] == [
        {
            "start_index": 0,
            "end_index": 31,
            "claim_text": "Paris is the capital of France.",
            "verdict": "supported",
            "corrected_citations": ["0", "0:0"],
            "note": "",
            "final_verdict": "supported",
            "final_source": "agreed",
            "adjudicated_by": "",
        }
    ]
    assert (second["reviewer"], second["claims"]) == ("ada", [])
    only_ada = body(reviewer_client.get("/api/export/labels.jsonl?reviewer=ada")).splitlines()
    assert [json.loads(line)["reviewer"] for line in only_ada] == ["ada"]


def test_labels_jsonl_escapes_unicode_line_breaks_so_every_reader_sees_one_line(
    reviewer_client, answer, reviewer
):
    note = "first\u2028second\u2029third\u0085end"
    AnswerLabel.objects.create(answer=answer, reviewer=reviewer, verdict="supported", note=note)

    lines = body(reviewer_client.get("/api/export/labels.jsonl")).splitlines()

    assert len(lines) == 1
    assert json.loads(lines[0])["note"] == note


def test_labels_csv_has_a_row_per_claim_and_defuses_formulas(reviewer_client, labelled):
    response = reviewer_client.get("/api/export/labels.csv")

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(body(response))))
    assert [(row["reviewer"], row["claim_verdict"]) for row in rows] == [
        ("rita", "supported"),
        ("ada", ""),
    ]
    assert rows[0]["label_note"] == "'=SUM(A1)"
    assert rows[0]["corrected_citations"] == "0 0:0"
    assert rows[0]["claim_start_index"] == "0" and rows[0]["claim_end_index"] == "31"
    assert reviewer_client.get("/api/export/labels.csv?verdict=meh").status_code == 400


def test_streaming_export_of_20000_answers_keeps_memory_small(reviewer_client):
    session = Session.objects.create(name=f"{ENGINE}/sessions/big")
    filler = "Grounded answers need references. " * 150  # ~5 KB per document
    # Straight into the table: the export reads only `raw`, and 20,000 imports would take minutes.
    Answer.objects.bulk_create(
        (
            Answer(
                session=session,
                name=f"{session.name}/answers/n{i}",
                state="SUCCEEDED",
                answer_text=filler,
                raw={"name": f"{session.name}/answers/n{i}", "answerText": filler, "n": i},
            )
            for i in range(20_000)
        ),
        batch_size=2000,
    )

    tracemalloc.start()
    try:
        response = reviewer_client.get("/api/export/answers.jsonl")
        total = lines = 0
        last = b""
        for chunk in response.streaming_content:
            total += len(chunk)
            lines += chunk.count(b"\n")
            last = chunk
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    print(f"exported {total / 1e6:.0f} MB in {lines} lines; peak Python memory {peak / 1e6:.1f} MB")
    assert lines == 20_000
    assert json.loads(last)["n"] == 19_999
    assert total > 100e6
    assert peak < 100e6
    # Not just under the bound: a small fraction of what was sent.
    assert peak < total / 5


def test_labels_export_across_chunk_boundaries_keeps_each_labels_claims(reviewer_client, reviewer):
    session = Session.objects.create(name=f"{ENGINE}/sessions/many")
    answers = Answer.objects.bulk_create(
        Answer(session=session, name=f"{session.name}/answers/m{i}", answer_text="x" * 20, raw={})
        for i in range(1201)
    )
    labels = AnswerLabel.objects.bulk_create(
        AnswerLabel(answer=answer, reviewer=reviewer, verdict="supported") for answer in answers
    )
    ClaimLabel.objects.bulk_create(
        ClaimLabel(label=label, start_index=0, end_index=i % 20, verdict="unsupported")
        for i, label in enumerate(labels)
        if i % 2
    )

    lines = body(reviewer_client.get("/api/export/labels.jsonl")).splitlines()

    documents = [json.loads(line) for line in lines]
    assert [d["id"] for d in documents] == [label.pk for label in labels]
    for i, document in enumerate(documents):
        assert document["answer"] == answers[i].name
        expected = [i % 20] if i % 2 else []
        assert [claim["end_index"] for claim in document["claims"]] == expected


@pytest.mark.parametrize(
    ("url", "accept"),
    [
        ("/api/export/answers.jsonl", "application/jsonl"),
        ("/api/export/labels.jsonl", "application/x-ndjson"),
        ("/api/export/labels.csv", "text/csv"),
    ],
)
def test_exports_accept_their_own_media_type(reviewer_client, answer, url, accept):
    response = reviewer_client.get(url, HTTP_ACCEPT=accept)

    assert response.status_code == 200
    assert response["Content-Type"].split(";")[0] in {"application/jsonl", "text/csv"}
