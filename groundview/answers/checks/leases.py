"""Leases on check runs, and the sweep that sends stranded runs again.

The runs table is the queue of record; a broker message is only a wake-up, and a message can be
lost (a flushed or restarted Redis) as can a worker (SIGKILL, out of memory). Every unfinished run
holds a lease (`CheckRun.lease_expires_at`): set when it is queued, renewed by the worker while it
runs it. A run still queued or running after its lease ran out has lost its message or its worker,
and the sweep sends it again. Workers sweep when they start and every half lease
(groundview/answers/worker.py); `manage.py requeue_stale` and the admin do it on demand.

Sending a run twice is harmless (running.run_checks skips a run that is finished or that a live
worker holds), but each stale run is still sent once per sweep round, however many workers sweep
at the same time: the rows are locked with SKIP LOCKED, and the requeue is a compare-and-set on
`requeues`, which also covers databases without row locks.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from groundview.answers.checks.queueing import send_runs
from groundview.answers.models import UNFINISHED_RUNS, CheckRun, lease_deadline

logger = logging.getLogger(__name__)

Status = CheckRun.Status

# A run started this many times without finishing is failed instead of started again: each attempt
# so far took its worker down (out of memory, a crash, the hard time limit).
MAX_ATTEMPTS = 3

# Each requeue of the same run doubles its next lease, up to this factor: a run waiting behind a
# long backlog is not lost, and should not be sent again every lease while it waits.
MAX_BACKOFF = 16


def lease_seconds() -> int:
    return max(1, settings.GROUNDVIEW_STALE_RUN_SECONDS)


def lost_worker_error(attempts: int) -> str:
    return f"the worker was lost {attempts} times while checking this answer"


# --- the worker's side: holding a lease ------------------------------------------------------


def renew_leases(run_ids: Sequence[int]) -> int:
    return CheckRun.objects.filter(pk__in=run_ids, status=Status.RUNNING).update(
        lease_expires_at=lease_deadline()
    )


@contextmanager
def holding_leases(run_ids: Sequence[int]) -> Iterator[None]:
    """Renew the runs' leases every third of a lease while the body runs.

    From a thread, because the body is one engine call over the whole batch, which can take longer
    than a lease. The thread uses its own database connection and closes it when done.
    """
    stop = threading.Event()
    interval = lease_seconds() / 3

    def beat() -> None:
        try:
            while not stop.wait(interval):
                try:
                    renew_leases(run_ids)
                except DatabaseError:
                    # Try again next beat on a fresh connection; a lease missed now and then
                    # costs at most a duplicate message, which the runner skips.
                    logger.warning("cannot renew the leases of check runs %s", run_ids)
                    connection.close()
        finally:
            connection.close()

    thread = threading.Thread(target=beat, name="check-run-leases", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=interval)


# --- the sweep -------------------------------------------------------------------------------


@dataclass
class Sweep:
    requeued: list[int] = field(default_factory=list)
    # Runs failed because they had used up MAX_ATTEMPTS.
    given_up: list[int] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.requeued or self.given_up)


def select_stale_runs(now=None) -> QuerySet[CheckRun]:
    """Unfinished runs whose lease has run out."""
    return CheckRun.objects.filter(
        status__in=UNFINISHED_RUNS, lease_expires_at__lt=now or timezone.now()
    )


def requeue_stale(*, limit: int | None = 1000) -> Sweep:
    """Send every stale run again (see the module's notes); what the workers' sweep calls."""
    now = timezone.now()
    return requeue_runs(select_stale_runs(now), limit=limit, stale_before=now)


def requeue_runs(runs: QuerySet[CheckRun], *, limit: int | None = None, stale_before=None) -> Sweep:
    """Send the unfinished of these runs again, whatever their lease says, each once.

    A running run that has used up MAX_ATTEMPTS and lost its lease is failed instead (one whose
    worker is alive goes out, and that worker skips it). The messages go out when the
    transaction commits; one that cannot be published leaves its run for the next sweep.
    """
    now = timezone.now()
    sweep = Sweep()
    # With `stale_before`, staleness is also a condition of the locking query itself: PostgreSQL
    # re-checks those conditions on a row another sweeper has just requeued (its lease renewed)
    # and skips it, where a condition inside the pk subquery would not be re-checked.
    current = Q(lease_expires_at__lt=stale_before) if stale_before is not None else Q()
    with transaction.atomic():
        rows = list(
            # By primary key, so that a caller's joins or DISTINCT never reach the FOR UPDATE.
            CheckRun.objects.filter(current, pk__in=runs.values("pk"), status__in=UNFINISHED_RUNS)
            .select_for_update(skip_locked=True)
            .order_by("pk")
            .values_list("pk", "status", "attempts", "requeues", "lease_expires_at")[:limit]
        )
        for pk, status, attempts, requeues, lease_expires_at in rows:
            # The compare-and-set: only the sweeper that still sees `requeues` unchanged acts.
            unchanged = CheckRun.objects.filter(current, pk=pk, status=status, requeues=requeues)
            lost = lease_expires_at < now
            if status == Status.RUNNING and attempts >= MAX_ATTEMPTS and lost:
                given_up = unchanged.update(
                    status=Status.FAILED, error=lost_worker_error(attempts), finished_at=now
                )
                if given_up:
                    sweep.given_up.append(pk)
                continue
            lease = timedelta(seconds=lease_seconds() * min(2**requeues, MAX_BACKOFF))
            if unchanged.update(requeues=F("requeues") + 1, lease_expires_at=now + lease):
                sweep.requeued.append(pk)
        if sweep.requeued:
            transaction.on_commit(partial(send_runs, sweep.requeued))
    if sweep:
        logger.warning(
            "check runs: sent %d stale run(s) again %s, gave up on %d %s",
            len(sweep.requeued),
            sweep.requeued[:20],
            len(sweep.given_up),
            sweep.given_up[:20],
        )
    return sweep
