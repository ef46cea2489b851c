"""A terminated database connection costs no request: CONN_HEALTH_CHECKS reconnects before use.

Requests go through the real WSGI handler (whose request_started signal is what checks the
connection; the test client switches that off), on PostgreSQL, with a persistent connection.
Without health checks the first request after pg_terminate_backend is a 500.
"""

import psycopg
import pytest
from django.core.wsgi import get_wsgi_application
from django.db import connection
from django.test import RequestFactory
from django.urls import reverse

pytestmark = pytest.mark.django_db(transaction=True)


def wsgi_get(app, path, cookie):
    environ = RequestFactory()._base_environ(PATH_INFO=path, HTTP_COOKIE=cookie)
    status = []
    body = app(environ, lambda s, headers, exc_info=None: status.append(s))
    b"".join(body)
    body.close()  # sends request_finished, as a WSGI server does
    return int(status[0].split()[0])


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def terminate(pid: int) -> None:
    # From a connection of our own, as an operator (or a failover) would.
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(autocommit=True, **params) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_requests_after_pg_terminate_backend_are_not_500(client, reviewer, settings, caplog):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL)")
    assert settings.DATABASES["default"]["CONN_MAX_AGE"] > 0
    client.force_login(reviewer)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    app = get_wsgi_application()
    url = reverse("review:answer_list")

    statuses = []
    for _ in range(3):
        assert wsgi_get(app, url, cookie) == 200
        pid = backend_pid()
        terminate(pid)
        statuses.append(wsgi_get(app, url, cookie))
        # The request got a fresh connection, not the dead one.
        assert backend_pid() != pid
    assert statuses == [200, 200, 200]
