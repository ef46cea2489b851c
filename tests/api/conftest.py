import pytest
from rest_framework.test import APIClient

from groundview.answers.models import Answer, CheckBatch, CheckRun
from groundview.api.models import ApiToken
from groundview.review.models import AnswerLabel
from tests.factories import import_documents, paris_document

# tests/api/test_label_export.py still imports the old names from here.
make_answer = paris_document


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
    import_documents([paris_document("a1")])
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
