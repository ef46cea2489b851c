"""Grounding checks of stored answers: one `CheckRun` row per check, the Celery task carries ids.

    requests.py  the Check Grounding request built from a stored answer
    queueing.py  creating runs and sending them to the workers on commit
    running.py   taking a run, calling the engine, storing the outcome once
    leases.py    run leases and the sweep that sends stranded runs again
    progress.py  a batch's progress, counted from its runs
    engine.py    this process's engine
    versions.py  the default checker version's head, which the engine scores with

Callers use the names below (`from groundview.answers import checks; checks.queue_checks(...)`).
Nothing here imports groundview/answers/tasks.py, which imports this package.
"""

from groundview.answers.checks.engine import (
    base_config,
    describe,
    engine_config,
    engine_version,
    get_engine,
    get_engine_and_version,
    warm_engine,
)
from groundview.answers.checks.leases import (
    MAX_ATTEMPTS,
    Sweep,
    lease_seconds,
    renew_leases,
    requeue_runs,
    requeue_stale,
    select_stale_runs,
)
from groundview.answers.checks.progress import BatchProgress, batch_progress
from groundview.answers.checks.queueing import (
    STOPPED,
    fail_task_runs,
    fail_unfinished,
    join_or_queue_check,
    queue_check,
    queue_checks,
    queue_checks_after_import,
    release_task_runs,
    send_runs,
)
from groundview.answers.checks.requests import build_request, prepare_request
from groundview.answers.checks.running import Outcome, finish, run_check, run_checks
from groundview.answers.checks.versions import get_default_version, head_file

__all__ = [
    "MAX_ATTEMPTS",
    "STOPPED",
    "BatchProgress",
    "Outcome",
    "Sweep",
    "base_config",
    "batch_progress",
    "build_request",
    "describe",
    "engine_config",
    "engine_version",
    "fail_task_runs",
    "fail_unfinished",
    "finish",
    "get_default_version",
    "get_engine",
    "get_engine_and_version",
    "join_or_queue_check",
    "head_file",
    "lease_seconds",
    "prepare_request",
    "queue_check",
    "queue_checks",
    "queue_checks_after_import",
    "release_task_runs",
    "renew_leases",
    "requeue_runs",
    "requeue_stale",
    "run_check",
    "run_checks",
    "select_stale_runs",
    "send_runs",
    "warm_engine",
]
