"""Celery tasks for grounding checks. They carry run ids only; the work is in checks/.

acks_late + reject_on_worker_lost (set globally in settings) mean a task whose worker dies is
delivered again, and the workers' sweep (checks/leases.py) sends runs whose message was lost;
checks.run_checks makes that, and any duplicate delivery, harmless. checks/ sends this task by
its name and never imports this module.

Transient failures are retried by Celery itself (autoretry_for with exponential backoff and full
jitter, so a fleet of workers hit by the same database restart does not come back in step). Only
database errors qualify: the task publishes nothing but its own retry, so a broker hiccup cannot
reach it here; publishing checks is retried by Celery's publish policy, and what is lost anyway
is sent again by the sweep. Before a retry the runs the task took go back in the queue, so the
retry's take is not counted as a lost worker's (leases.MAX_ATTEMPTS). Engine errors are the
engine's verdict on a run (checks/running.py) and a retry would give the same answer.
"""

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError

from groundview.answers import checks

logger = logging.getLogger(__name__)

# Database hiccups (restart, failover, a terminated connection, too many clients).
TRANSIENT = (OperationalError, InterfaceError)
MAX_RETRIES = 5
# Waits drawn from [0, 5 * 2**n] seconds, capped at 300: up to 5, 10, 20, 40, 80 s, which spans a
# PostgreSQL restart or a managed failover (tens of seconds) before the runs are failed.
RETRY_BACKOFF = 5
RETRY_BACKOFF_MAX = 300

# A batch of typical checks takes seconds; the largest request the engine accepts up to ~15 s.
# The broker's visibility timeout (settings) must stay above the hard limit.
SOFT_TIME_LIMIT = 600
TIME_LIMIT = 660


@shared_task(
    bind=True,
    name="answers.check_runs",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=SOFT_TIME_LIMIT,
    time_limit=TIME_LIMIT,
    autoretry_for=TRANSIENT,
    max_retries=MAX_RETRIES,
    retry_backoff=RETRY_BACKOFF,
    retry_backoff_max=RETRY_BACKOFF_MAX,
    retry_jitter=True,
)
def check_runs(self, run_ids: list[int]) -> dict[str, int]:
    # The runs this delivery took; another worker's runs of the same message are not failed here.
    taken: list[int] = []
    try:
        outcome = checks.run_checks(run_ids, taken)
    except TRANSIENT as exc:
        if self.request.retries >= self.max_retries:
            # Celery is about to give up: say why on the runs instead of leaving them to the sweep.
            attempts = self.request.retries + 1
            logger.error("check runs %s: giving up after %s attempts", run_ids, attempts)
            checks.fail_task_runs(
                run_ids, taken, f"gave up after {attempts} attempts: {checks.describe(exc)}"
            )
        else:
            checks.release_task_runs(taken)
        raise  # autoretry_for sends the retry (or, past max_retries, fails the task)
    except SoftTimeLimitExceeded:
        checks.fail_task_runs(run_ids, taken, f"timed out after {SOFT_TIME_LIMIT} s")
        raise
    except Exception as exc:
        # A bug of ours, not the engine's verdict: fail the runs visibly rather than leave them
        # "running" for ever, and let Celery log the traceback.
        checks.fail_task_runs(run_ids, taken, checks.describe(exc))
        raise
    return {"succeeded": outcome.succeeded, "failed": outcome.failed, "skipped": outcome.skipped}
