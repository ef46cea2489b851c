"""A transient database failure in the middle of a check is retried by Celery (backoff with
jitter) on a real worker, and the run then succeeds once."""

import pytest

from groundview.answers import checks
from groundview.answers.models import CheckRun
from groundview.answers.tasks import RETRY_BACKOFF, check_runs
from tests.checks.conftest import wait_for, workers  # noqa: F401 - fixtures
from tests.factories import create_sourced_answer

pytestmark = pytest.mark.worker

Status = CheckRun.Status


def test_the_task_retries_with_celerys_backoff_and_jitter():
    assert check_runs.autoretry_for
    assert (check_runs.retry_backoff, check_runs.retry_jitter) == (RETRY_BACKOFF, True)


def test_a_dropped_database_connection_is_retried_and_the_run_succeeds(
    workers,  # noqa: F811
    tmp_path,
):
    # Given a worker whose database connection is terminated in the middle of its first check
    answer = create_sourced_answer("Paris is the capital of France. 🇫🇷 巴黎是法国的首都。")
    marker = tmp_path / "dropped"
    workers.start(
        engine=None,
        GROUNDVIEW_CHECK_ENGINE="tests.ops.flaky_engines.connection_dropping_engine",
        GROUNDVIEW_TEST_DROP_MARKER=marker,
    )

    # When a check is queued
    run = checks.queue_check(answer)

    # Then the task fails on the dead connection, is retried, and the run succeeds exactly once
    wait_for(lambda: CheckRun.objects.get(pk=run.pk).is_finished, 120, f"the run\n{workers.logs()}")
    run.refresh_from_db()
    logs = workers.logs()
    assert marker.exists(), logs  # the connection was dropped
    assert run.status == Status.SUCCEEDED, (run.error, logs)
    assert "OperationalError" in logs and "Retry in" in logs, logs
    # The first take was handed back before the retry: one take counted, no worker was lost.
    assert run.attempts == 1
    assert CheckRun.objects.filter(answer=answer).count() == 1
    answer.refresh_from_db()
    assert answer.latest_check_id == run.pk
    assert run.response["claims"][0]["claimText"] == answer.answer_text
