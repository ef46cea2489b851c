"""The database is the queue of record: a lost worker and a lost broker strand no check."""

import re
import time
from datetime import timedelta

import pytest
import redis
from django.db.models import Count, Q
from django.utils import timezone

from groundview.answers import checks
from groundview.answers.models import Answer, CheckRun
from tests.factories import create_sourced_answer

from .conftest import wait_for

pytestmark = pytest.mark.worker

Status = CheckRun.Status

LEASE = 5  # seconds: GROUNDVIEW_STALE_RUN_SECONDS for this process and the workers


def ready_at(workers, index):
    """When worker `index` logged that it is ready (Celery's "celery@host ready.")."""
    path = workers.log_dir / f"worker{index}.log"
    wait_for(lambda: re.search(r"@\S+ ready\.", path.read_text()), 120, "the worker to start")
    return time.monotonic()


def test_sigkill_and_broker_flush_mid_batch_recover_with_no_operator(workers, settings):
    settings.GROUNDVIEW_STALE_RUN_SECONDS = LEASE
    settings.GROUNDVIEW_CHECK_BATCH_SIZE = 2
    env = {"GROUNDVIEW_STALE_RUN_SECONDS": LEASE, "GROUNDVIEW_CHECK_BATCH_SIZE": 2}
    answers = [
        create_sourced_answer(f"Paris is the capital of France. Answer {i}.") for i in range(12)
    ]
    first = workers.start(
        engine="slow_engine", concurrency=2, GROUNDVIEW_FAKE_ENGINE_DELAY=1, **env
    )
    # Queued once the worker is up, so no lease runs out while the worker is still starting.
    ready_at(workers, 0)
    batch = checks.queue_checks(Answer.objects.all(), description="twelve")

    def mid_batch():
        progress = checks.batch_progress(batch)
        # A run taken in the last 0.4 s still has most of its second to go: a kill now lands inside
        # it, not in the moment between two tasks when nothing is running.
        just_taken = CheckRun.objects.filter(
            status=Status.RUNNING, started_at__gte=timezone.now() - timedelta(seconds=0.4)
        )
        return progress.succeeded >= 2 and progress.queued >= 2 and just_taken.exists()

    wait_for(mid_batch, 120, f"the batch to be under way\n{workers.logs()}")
    workers.kill(first)  # SIGKILL to the whole process group: the worker and its pool
    redis.Redis.from_url(workers.broker_url).flushdb()  # and every message with it
    progress = checks.batch_progress(batch)
    assert progress.running and progress.queued, progress
    was_running = set(CheckRun.objects.filter(status=Status.RUNNING).values_list("pk", flat=True))

    workers.start(engine="fake_engine", **env)
    started = ready_at(workers, 1)
    wait_for(lambda: checks.batch_progress(batch).finished, 120, f"recovery\n{workers.logs()}")
    took = time.monotonic() - started

    assert took < 2 * LEASE, f"took {took:.1f} s, more than two leases\n{workers.logs()}"
    assert "stale run(s) again" in workers.logs()  # the new worker's sweep, not an operator
    progress = checks.batch_progress(batch)
    assert (progress.succeeded, progress.failed) == (12, 0), progress.failures
    assert CheckRun.objects.count() == 12
    per_answer = Answer.objects.annotate(
        succeeded=Count("check_runs", filter=Q(check_runs__status=Status.SUCCEEDED))
    )
    assert sorted(per_answer.values_list("succeeded", flat=True)) == [1] * 12
    for answer in answers:
        answer.refresh_from_db()
        assert answer.latest_check.status == Status.SUCCEEDED
    # Runs the killed worker had started were taken over once; none was started a third time.
    for run in CheckRun.objects.filter(pk__in=was_running):
        assert run.attempts == 2 and run.requeues >= 1
    assert set(CheckRun.objects.values_list("attempts", flat=True)) <= {1, 2}
