import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from groundview.answers import importing
from groundview.answers.demo import demo_records
from groundview.answers.models import Answer


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


@pytest.mark.django_db
def test_text_search_can_use_the_trigram_index():
    importing.import_records([importing.Record(where="demo", data=r) for r in demo_records()])

    with connection.cursor() as cursor:
        # With few rows PostgreSQL prefers a scan; forbid it to see that the index applies at all.
        cursor.execute("SET LOCAL enable_seqscan = off")
        sql, params = (
            Answer.objects.filter(answer_text__icontains="capital")
            .order_by()
            .values("pk")
            .query.sql_with_params()
        )
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())

    assert "answers_answer_answer_text_trgm" in plan
