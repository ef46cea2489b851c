"""Property-based test of the whole API against its own OpenAPI schema (Schemathesis).

Every operation in /api/schema/ gets a bounded number of generated requests, valid and invalid,
sent as an admin with a Bearer token; no response may be a 500 or disagree with the schema.

One check is left out: positive_data_acceptance expects every schema-valid request to succeed, but
some 400s depend on the data, not the shape (a label for an answer id that does not exist, score_min
above score_max, a Vertex document whose byte spans fall outside its text, an answer over 4096
tokens). Invalid shapes must still be rejected (negative_data_rejection), and nothing may be a 500.
"""

import os
from collections import Counter

import hypothesis
import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase

from groundview.api.models import ApiToken
from tests.factories import import_documents, paris_document

# Bounded so the suite stays quick; set GROUNDVIEW_SCHEMATHESIS_EXAMPLES for a longer hunt.
EXAMPLES_PER_OPERATION = int(os.environ.get("GROUNDVIEW_SCHEMATHESIS_EXAMPLES", "25"))


@pytest.fixture
def wsgi_app():
    # The real WSGI handler closes "old" connections around each request, which would close the
    # test's transaction; Django's own test client switches this off the same way.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield get_wsgi_application()
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def schema_and_auth(admin_user, wsgi_app, settings):
    # Hundreds of requests a minute from one token: rate limits are tested in
    # test_throttles_and_tokens.py; here they would only turn the run into 429s.
    settings.GROUNDVIEW_THROTTLE_RATES = {}
    import_documents(
        [paris_document("s1"), paris_document("s2", text="Ünïcode 中文 😀.", citations=[])]
    )
    _, token = ApiToken.issue(admin_user, "schemathesis")
    headers = {"Authorization": f"Bearer {token}"}
    schema = schemathesis.openapi.from_wsgi("/api/schema/", wsgi_app, headers=headers)
    return schema, headers


@pytest.mark.django_db
def test_api_conforms_to_its_schema_and_never_fails(schema_and_auth, monkeypatch):
    schema, headers = schema_and_auth
    failures = []
    operations = 0
    statuses = Counter()

    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1

        @hypothesis.given(case=operation.as_strategy())
        @hypothesis.settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            database=None,
            derandomize=True,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        def run(case):
            response = case.call_and_validate(
                headers=headers, excluded_checks=[schemathesis.checks.positive_data_acceptance]
            )
            statuses[response.status_code // 100] += 1

        try:
            run()
        # Collect every operation's failures (Schemathesis raises exception groups), report all.
        except (Exception, BaseExceptionGroup) as error:
            failures.append(f"{operation.method.upper()} {operation.path}: {error}")

    print(f"{operations} operations; responses by class: {dict(statuses)}")
    assert operations >= 17
    # The generated requests got through to the views, not only to the 400s.
    assert statuses[2] >= 5 * operations
    assert not failures, "\n\n".join(failures)
