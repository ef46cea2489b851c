import json

import pytest
from rest_framework.test import APIClient

from groundview.answers.importing import import_text
from groundview.answers.models import Answer, CheckBatch, CheckRun
from groundview.api.models import ApiToken
from groundview.review.models import AnswerLabel

ENGINE = "projects/p1/locations/global/collections/default_collection/engines/e1"


def make_answer(
    name: str, text: str = "Paris is the capital of France. 🇫🇷 It has 2 million people.", **extra
):
    document = {
        "name": f"{ENGINE}/sessions/s1/answers/{name}",
        "state": "SUCCEEDED",
        "answerText": text,
        "references": [
            {
                "unstructuredDocumentInfo": {
                    "document": "projects/p1/documents/d1",
                    "title": "Paris",
                    "uri": "https://example.org/paris",
                    "chunkContents": [
                        {"content": "Paris is the capital and largest city of France."}
                    ],
                }
            }
        ],
        "citations": [{"startIndex": "0", "endIndex": "31", "sources": [{"referenceId": "0"}]}],
        **extra,
    }
    return document


def import_documents(documents):
    result = import_text("\n".join(json.dumps(d, ensure_ascii=False) for d in documents))
    assert not result.problems, result.problems
    return result


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # PBKDF2 costs ~0.4 s per user; these tests are not about passwords.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def anon():
    return APIClient()


@pytest.fixture
def reviewer_client(reviewer):
    client = APIClient()
    client.force_login(reviewer)
    return client


@pytest.fixture
def admin_client(admin_user):
    client = APIClient()
    client.force_login(admin_user)
    return client


@pytest.fixture
def reviewer_token(reviewer):
    _, token = ApiToken.issue(reviewer, "tests")
    return token


@pytest.fixture
def answer(db):
    import_documents([make_answer("a1")])
    return Answer.objects.get(name__endswith="/answers/a1")


@pytest.fixture
def objects(answer, reviewer):
    """One of everything, for routes that take an id."""
    batch = CheckBatch.objects.create(description="tests")
    run = CheckRun.objects.create(answer=answer, batch=batch)
    label = AnswerLabel.objects.create(answer=answer, reviewer=reviewer, verdict="supported")
    return {
        "answer": answer.pk,
        "session": answer.session_id,
        "run": run.pk,
        "batch": batch.pk,
        "label": label.pk,
        "answer_name": answer.name,
        "session_name": answer.session.name,
    }
