"""Engines for worker tests of transient failures, selected with GROUNDVIEW_CHECK_ENGINE in the
worker's environment."""

import os
from pathlib import Path

import psycopg
from django.db import connection

from tests.checks.fake_engines import FakeEngine


class ConnectionDroppingEngine(FakeEngine):
    """Checks like FakeEngine, but the first time terminates its worker's database connection from
    outside, as a PostgreSQL restart or failover would: the task's next query fails with a real
    OperationalError. A marker file (GROUNDVIEW_TEST_DROP_MARKER) makes it happen once, whichever
    process runs the retry."""

    def check_many(self, payloads, return_errors=False):
        marker = Path(os.environ["GROUNDVIEW_TEST_DROP_MARKER"])
        if not marker.exists():
            marker.write_text(str(os.getpid()))
            backend = connection.connection.info.backend_pid
            with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", [backend])
        return super().check_many(payloads, return_errors=return_errors)


def connection_dropping_engine(config):
    return ConnectionDroppingEngine(config)
