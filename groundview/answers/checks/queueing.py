"""Creating check runs and sending them to the workers once the transaction that made them commits.

The Celery task is looked up by name rather than imported: tasks.py imports this package, and
apps.py imports tasks.py at start-up so the name is registered in every process.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import partial

from celery import current_app
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import F, Q, QuerySet
from django.db.models.functions import Greatest
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from groundview.answers.models import (
    UNFINISHED_RUNS,
    UNFINISHED_STATES,
    Answer,
    CheckBatch,
    CheckRun,
    lease_deadline,
)

logger = logging.getLogger(__name__)

# The name groundview/answers/tasks.py registers check_runs under.
CHECK_RUNS_TASK = "answers.check_runs"
STOPPED = "the process checking it stopped before it finished (it was restarted)"

Status = CheckRun.Status


def queue_checks(
    answers: QuerySet[Answer] | Iterable[Answer],
    *,
    created_by=None,
    description: str = "",
) -> CheckBatch:
    """A new run for each answer, in a new batch; the tasks go out once the transaction commits."""
    if isinstance(answers, QuerySet):
        answer_ids = list(answers.order_by("pk").values_list("pk", flat=True))
    else:
        answer_ids = [answer.pk for answer in answers]
    with transaction.atomic():
        batch = CheckBatch.objects.create(created_by=created_by, description=description[:255])
        runs = CheckRun.objects.bulk_create(
            CheckRun(answer_id=answer_id, batch=batch) for answer_id in answer_ids
        )
        run_ids = [run.pk for run in runs]
        transaction.on_commit(partial(send_runs, run_ids))
    return batch


def queue_check(answer: Answer, *, created_by=None) -> CheckRun:
    """A new run for one answer, outside any batch (created_by is accepted for symmetry)."""
    with transaction.atomic():
        run = CheckRun.objects.create(answer=answer)
        transaction.on_commit(partial(send_runs, [run.pk]))
    return run


def join_or_queue_check(
    answer: Answer, *, send: Callable[[list[int]], None] | None = None
) -> tuple[CheckRun, bool]:
    """The answer's queued or running check, or a new one: (run, created).

    The page's re-run button and the API's POST both come here, so repeated requests join the
    pending run instead of queueing duplicates; the answer's row lock makes two requests at the
    same moment agree on one run. A running run is joined only while its lease is alive. `send`
    replaces `send_runs` for the new run (the page sends from a thread in eager mode, so its
    request returns at once).
    """
    with transaction.atomic():
        Answer.objects.select_for_update().filter(pk=answer.pk).exists()
        now = timezone.now()
        pending = list(
            CheckRun.objects.filter(answer=answer, status__in=UNFINISHED_RUNS).order_by("-pk")
        )
        eager = settings.CELERY_TASK_ALWAYS_EAGER
        # A queued run waits for a worker or, if its message was lost, for the sweep, which
        # sends it again: join it. A running one is joined while its lease is alive. In eager
        # mode nothing sweeps, so any run whose lease ran out is dead.
        live = next(
            (
                run
                for run in pending
                if run.lease_expires_at > now or (run.status == Status.QUEUED and not eager)
            ),
            None,
        )
        if live is not None:
            return live, False
        if pending and eager:
            # Nothing sweeps without a broker: the process that ran these stopped (a restart),
            # and they would stay unfinished for ever.
            fail_unfinished([run.pk for run in pending], STOPPED)
        run = CheckRun.objects.create(answer=answer)
        transaction.on_commit(partial(send or send_runs, [run.pk]))
    return run, True


def queue_checks_after_import(answer_ids: Sequence[int]) -> CheckBatch | None:
    if not settings.GROUNDVIEW_CHECK_ON_IMPORT or not answer_ids:
        return None
    # An answer still being generated may change: it is checked once an import completes it.
    finished = list(
        Answer.objects.filter(pk__in=answer_ids).exclude(state__in=UNFINISHED_STATES).only("pk")
    )
    if not finished:
        return None
    return queue_checks(finished, description=f"after import of {len(finished)} answer(s)")


def send_runs(run_ids: Sequence[int]) -> None:
    """One task per GROUNDVIEW_CHECK_BATCH_SIZE runs (in eager mode they run here and now).

    Runs whose task cannot be published stay queued, due at once, and the workers' next sweep
    sends them once the broker is back: the database is the queue of record, and a broker that
    is down for a moment delays checks rather than failing them.
    """
    task = current_app.tasks[CHECK_RUNS_TASK]
    size = max(1, settings.GROUNDVIEW_CHECK_BATCH_SIZE)
    for start in range(0, len(run_ids), size):
        try:
            task.delay(list(run_ids[start : start + size]))
        except KombuOperationalError:
            # Celery already retried the publish; the rest would wait as long again each.
            unsent = list(run_ids[start:])
            logger.exception("cannot queue check runs %s; the sweep will send them", unsent[:20])
            CheckRun.objects.filter(pk__in=unsent, status__in=UNFINISHED_RUNS).update(
                lease_expires_at=timezone.now()
            )
            return


def fail_unfinished(run_ids: Sequence[int], error: str) -> int:
    """Fail whatever of these runs did not finish (the task gave up or ran out of time)."""
    return CheckRun.objects.filter(pk__in=run_ids, status__in=UNFINISHED_RUNS).update(
        status=Status.FAILED, error=error, finished_at=timezone.now()
    )


def fail_task_runs(run_ids: Sequence[int], taken: Collection[int], error: str) -> int:
    """Fail the runs a failing task answers for: those it took, and those nobody has taken yet.

    A run of the same message that another worker is running (a duplicate delivery, or a
    message the sweep sent again) is that worker's to finish: failing it would throw its result
    away.
    """
    return (
        CheckRun.objects.filter(pk__in=run_ids, status__in=UNFINISHED_RUNS)
        .filter(Q(status=Status.QUEUED) | Q(pk__in=list(taken)))
        .update(status=Status.FAILED, error=error, finished_at=timezone.now())
    )


def release_task_runs(taken: Collection[int]) -> int:
    """Put the runs a task took back in the queue before the task retries a database error.

    The retry is the same worker trying again, not a lost one: left "running", each retry's take
    counted as a lost worker's, and a flapping database failed the runs as "the worker was lost 3
    times" (leases.MAX_ATTEMPTS). Best effort: while the database is still away this fails too,
    and the retry counts the take as before.
    """
    if not taken:
        return 0
    try:
        if not connection.in_atomic_block:
            # The error may have left the connection broken; a fresh one opens on demand.
            connection.close_if_unusable_or_obsolete()
        return CheckRun.objects.filter(pk__in=list(taken), status=Status.RUNNING).update(
            status=Status.QUEUED,
            attempts=Greatest(F("attempts") - 1, 0),
            started_at=None,
            lease_expires_at=lease_deadline(),
        )
    except DatabaseError:
        logger.warning("could not put runs %s back in the queue before a retry", list(taken))
        return 0
