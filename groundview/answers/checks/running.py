"""Running check runs through the engine and storing their outcome.

Running a check takes the row (queued -> running), calls the engine and writes the outcome once, so
a task delivered twice, or again after its worker died or the sweep sent it anew, still leaves
exactly one result per run. The answer's imported Vertex data is only read here: the result lives
on the run, and `Answer.latest_check` (groundview's own bookkeeping) points at the newest success.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.db import DatabaseError, connection, transaction
from django.db.models import Q
from django.utils import timezone

from groundview.answers.checks.engine import describe, engine_version, get_engine_and_version
from groundview.answers.checks.leases import MAX_ATTEMPTS, holding_leases, lost_worker_error
from groundview.answers.checks.queueing import fail_unfinished
from groundview.answers.checks.requests import prepare_request
from groundview.answers.models import Answer, CheckerVersion, CheckRun, lease_deadline

logger = logging.getLogger(__name__)

# Errors that are not the engine's verdict on a request: they abort the whole task.
ABORTING = (SoftTimeLimitExceeded,)

# Run locks live as long as the worker's session. Were its machine to vanish (power, network),
# the server would keep the session, and the locks, until its TCP keepalive gave up: over two hours
# by default. About a minute and a half instead, so another worker can take the runs over.
SERVER_KEEPALIVE = (
    "SET tcp_keepalives_idle = 60; SET tcp_keepalives_interval = 10; SET tcp_keepalives_count = 3"
)

Status = CheckRun.Status


def run_check(run_id: int) -> CheckRun:
    """Run one queued check (a no-op for a finished one) and return the run as stored."""
    run_checks([run_id])
    return CheckRun.objects.get(pk=run_id)


@dataclass
class Outcome:
    succeeded: int = 0
    failed: int = 0
    skipped: int = 0


def run_checks(run_ids: Sequence[int], taken_ids: list[int] | None = None) -> Outcome:
    """Run the given checks through the engine together. Idempotent.

    A run already finished, or being run right now by a live worker, is skipped. A run left
    "running" by a worker that died is taken over: its row lock died with the worker's connection.
    The runs' leases are renewed while the engine works on them (leases.py).
    Engine errors fail the run they belong to; database errors propagate, for the task to retry.
    `taken_ids` is filled with the runs taken as they are taken, so a task that fails midway
    knows which runs are its own (queueing.fail_task_runs).
    """
    outcome = Outcome()
    with run_locks(run_ids) as locked:
        outcome.skipped += len(run_ids) - len(locked)
        taken = []
        for run_id in locked:
            run = take_run(run_id)
            if run is not None:
                taken.append(run)
                if taken_ids is not None:
                    taken_ids.append(run.pk)
        outcome.skipped += len(locked) - len(taken)
        if taken:
            with holding_leases([run.pk for run in taken]):
                succeeded = run_taken(taken)
            outcome.succeeded += succeeded
            outcome.failed += len(taken) - succeeded
    return outcome


def run_taken(taken: list[CheckRun]) -> int:
    """Check runs this worker has taken, in one engine call; the number that succeeded."""
    timings: list[dict[str, Any]] = []
    requests: list[dict[str, Any]] = []
    sources: list[list[dict[str, Any]]] = []
    ready: list[CheckRun] = []
    for run in taken:
        started = time.monotonic()
        try:
            request, fact_sources = prepare_request(run.answer)
        except (DatabaseError, *ABORTING):
            raise
        except Exception as exc:
            # One answer whose request cannot be built must not sink the others (as in check_all).
            logger.exception("check run %s: cannot build its request", run.pk)
            fail_unfinished([run.pk], f"cannot build the request: {describe(exc)}")
            continue
        ready.append(run)
        requests.append(request)
        sources.append(fact_sources)
        timings.append(
            {
                "queue_ms": ms_between(run.queued_at, run.started_at),
                "build_ms": round((time.monotonic() - started) * 1000, 1),
            }
        )
    if not ready:
        return 0
    results, engine_ms, engine, version = check_all(requests)
    succeeded = 0
    for run, request, fact_sources, run_timings, (response, error) in zip(
        ready, requests, sources, timings, results, strict=True
    ):
        run_timings["engine_ms"] = round(engine_ms / len(ready), 1)
        run_timings["batch_engine_ms"] = round(engine_ms, 1)
        run_timings["batch_size"] = len(ready)
        succeeded += finish(
            run, request, fact_sources, response, error, run_timings, engine, version
        )
    return succeeded


@contextmanager
def run_locks(run_ids: Sequence[int]) -> Iterator[list[int]]:
    """Hold a PostgreSQL session lock on each run this worker may work on.

    The lock lives as long as the worker's database connection: a second delivery of the same task
    finds it taken and leaves the run to the live worker, while a dead worker's lock is gone.
    SQLite (the embedded, single-process default) needs none.
    """
    if connection.vendor != "postgresql":
        yield list(run_ids)
        return
    locked = []
    try:
        with connection.cursor() as cursor:
            cursor.execute(SERVER_KEEPALIVE)
            for run_id in run_ids:
                cursor.execute("SELECT pg_try_advisory_lock(%s)", [run_id])
                if cursor.fetchone()[0]:
                    locked.append(run_id)
        yield locked
    finally:
        try:
            with connection.cursor() as cursor:
                for run_id in locked:
                    cursor.execute("SELECT pg_advisory_unlock(%s)", [run_id])
        except DatabaseError:
            # The connection is gone, and its locks with it.
            pass


def take_run(run_id: int) -> CheckRun | None:
    """Mark a run running (queued, or running for a lost worker); None if there is nothing to do."""
    with transaction.atomic():
        run = (
            CheckRun.objects.select_for_update(of=("self",))
            .select_related("answer")
            .filter(pk=run_id)
            .first()
        )
        if run is None or run.is_finished:
            return None
        if run.status == Status.RUNNING:
            if run.attempts >= MAX_ATTEMPTS:
                # Running it again would only take another worker down (leases.MAX_ATTEMPTS).
                run.status = Status.FAILED
                run.error = lost_worker_error(run.attempts)
                run.finished_at = timezone.now()
                run.save(update_fields=["status", "error", "finished_at"])
                return None
            logger.warning("check run %s: taking over from a worker that stopped", run_id)
        run.status = Status.RUNNING
        run.started_at = timezone.now()
        run.lease_expires_at = lease_deadline()
        run.attempts += 1
        run.save(update_fields=["status", "started_at", "lease_expires_at", "attempts"])
    return run


def check_all(
    requests: list[dict[str, Any]],
) -> tuple[list[tuple[dict[str, Any] | None, str]], float, Any, CheckerVersion | None]:
    """(response, error) per request, the engine's time in ms, the engine and the checker version
    whose head it scored with."""
    started = time.monotonic()
    try:
        engine, version = get_engine_and_version()
    except ABORTING:
        raise
    except Exception as exc:
        logger.exception("cannot load the grounding engine")
        return [(None, describe(exc)) for _ in requests], 0.0, None, None
    try:
        responses = engine.check_many(requests, return_errors=True)
        results = [as_result(response) for response in responses]
    except ABORTING:
        raise
    except Exception:
        # One bad request (or an engine bug) must not sink the others: check them one by one.
        logger.exception("check_many failed; checking the batch one request at a time")
        results = [check_one(engine, request) for request in requests]
    return results, (time.monotonic() - started) * 1000, engine, version


def check_one(engine, request: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    try:
        return engine.check(request), ""
    except ABORTING:
        raise
    except Exception as exc:
        logger.exception("grounding check failed")
        return None, describe(exc)


def as_result(response: dict[str, Any]) -> tuple[dict[str, Any] | None, str]:
    # check_many(return_errors=True) puts a Google-style 400 body where a request was invalid.
    if isinstance(response, dict) and isinstance(response.get("error"), dict):
        return None, f"RequestError: {response['error'].get('message', '')}"
    return response, ""


def finish(
    run: CheckRun,
    request: dict[str, Any],
    fact_sources: list[dict[str, Any]],
    response: dict[str, Any] | None,
    error: str,
    timings: dict[str, Any],
    engine,
    version: CheckerVersion | None = None,
) -> bool:
    """Store the outcome on a running run; point the answer at it if it is the newest success."""
    succeeded = response is not None
    now = timezone.now()
    timings["total_ms"] = ms_between(run.started_at, now)
    fields: dict[str, Any] = {
        "status": Status.SUCCEEDED if succeeded else Status.FAILED,
        "request": request,
        "response": response,
        "fact_sources": fact_sources,
        "citation_threshold": request["groundingSpec"]["citationThreshold"],
        "support_score": score_of(response) if succeeded else None,
        "error": error,
        "timings": timings,
        "finished_at": now,
    }
    if engine is not None:
        fields["engine_version"] = engine_version(engine)
        fields["model_id"] = str(engine.model_id)
        fields["checker_version"] = version
    with transaction.atomic():
        stored = CheckRun.objects.filter(pk=run.pk, status=Status.RUNNING).update(**fields)
        if stored and succeeded:
            # Not when the answer's text changed while the run ran: it checked the old text.
            Answer.objects.filter(pk=run.answer_id, answer_text=request["answerCandidate"]).filter(
                Q(latest_check__isnull=True) | Q(latest_check_id__lt=run.pk)
            ).update(latest_check_id=run.pk)
    return succeeded


def score_of(response: dict[str, Any]) -> float | None:
    """The run's score for sorting and filtering: none when no claim needed a check.

    The engine answers supportScore 1.0 for an empty answer or one of pleasantries only (nothing
    to contradict); ranking those as perfectly grounded would put them on top of every review.
    """
    claim_results = response.get("claims", [])
    if not any(result.get("groundingCheckRequired") for result in claim_results):
        return None
    return response.get("supportScore")


def ms_between(start, end) -> float | None:
    if start is None or end is None:
        return None
    return round((end - start).total_seconds() * 1000, 1)
