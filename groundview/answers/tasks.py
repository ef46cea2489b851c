"""Celery tasks for grounding checks. They carry run ids only; the work is in checks/.

acks_late + reject_on_worker_lost (set globally in settings) mean a task whose worker dies is
delivered again, and the workers' sweep (checks/leases.py) sends runs whose message was lost;
checks.run_checks makes that, and any duplicate delivery, harmless. checks/ sends this task by
its name and never imports this module.
"""

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError

from groundview.answers import checks

logger = logging.getLogger(__name__)

# Database hiccups (restart, failover, too many connections) are worth another try.
TRANSIENT = (OperationalError, InterfaceError)
MAX_RETRIES = 5

# A batch of typical checks takes seconds; the largest request the engine accepts up to ~15 s.
# The broker's visibility timeout (settings) must stay above the hard limit.
SOFT_TIME_LIMIT = 600
TIME_LIMIT = 660


def backoff(retries: int) -> int:
    return min(5 * 2**retries, 300)


@shared_task(
    bind=True,
    name="answers.check_runs",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=SOFT_TIME_LIMIT,
    time_limit=TIME_LIMIT,
    max_retries=MAX_RETRIES,
)
def check_runs(self, run_ids: list[int]) -> dict[str, int]:
    try:
        outcome = checks.run_checks(run_ids)
    except TRANSIENT as exc:
        if self.request.retries >= self.max_retries:
            logger.error(
                "check runs %s: giving up after %s attempts", run_ids, self.request.retries + 1
            )
            checks.fail_unfinished(
                run_ids,
                f"gave up after {self.request.retries + 1} attempts: {checks.describe(exc)}",
            )
            raise
        raise self.retry(exc=exc, countdown=backoff(self.request.retries)) from exc
    except SoftTimeLimitExceeded:
        checks.fail_unfinished(run_ids, f"timed out after {SOFT_TIME_LIMIT} s")
        raise
    except Exception as exc:
        # A bug of ours, not the engine's verdict: fail the runs visibly rather than leave them
        # "running" for ever, and let Celery log the traceback.
        checks.fail_unfinished(run_ids, checks.describe(exc))
        raise
    return {"succeeded": outcome.succeeded, "failed": outcome.failed, "skipped": outcome.skipped}
