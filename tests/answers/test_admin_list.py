import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from groundview.answers import importing
from groundview.answers.demo import demo_records


@pytest.mark.django_db
def test_admin_answer_list_leaves_the_json_documents_unread(client, admin_user):
    importing.import_records([importing.Record(where="demo", data=r) for r in demo_records()])
    client.force_login(admin_user)

    with CaptureQueriesContext(connection) as queries:
        response = client.get("/admin/answers/answer/")

    assert response.status_code == 200
    rows = [q["sql"] for q in queries if q["sql"].startswith('SELECT "answers_answer"."id"')]
    assert len(rows) == 1
    assert '"answers_checkrun"."id"' in rows[0]  # the latest check is joined ...
    for column in (
        '"answers_answer"."raw"',
        '"answers_session"."raw"',
        '"answers_checkrun"."response"',
    ):
        assert column not in rows[0]  # ... but no document is loaded
