"""What a Celery worker does besides running tasks; apps.py connects these to Celery's signals.

- Each pool process loads the grounding engine when it starts, not in its first task.
- The worker's main process sweeps for stranded check runs (checks/leases.py) when the worker is
  ready and then every half lease, from a thread: so `celery worker`, `make worker` and
  `groundview worker` all sweep, with no beat process to run or forget. Workers sweeping at the
  same time is fine, a stale run is still sent once.
"""

from __future__ import annotations

import logging
import threading

from django.db import connection

from groundview.answers import checks

logger = logging.getLogger(__name__)


def warm_engine(**kwargs) -> None:
    # Once per worker process, before its first task (prefork pool; other pools load lazily).
    try:
        checks.warm_engine()
    except Exception:
        # Keep the process: its tasks then fail their runs with this error, visibly, instead of
        # Celery restarting a process that can never start.
        logger.exception("cannot load the grounding engine")


class Sweeper(threading.Thread):
    def __init__(self, interval: float) -> None:
        super().__init__(name="check-run-sweeper", daemon=True)
        self.interval = interval
        self.stopping = threading.Event()

    def run(self) -> None:
        while True:
            try:
                checks.requeue_stale()
            except Exception:
                logger.exception("the sweep for stale check runs failed; trying again later")
            finally:
                # This thread's own connection. Closed between rounds so the pool's processes,
                # forked from this one at any time, never inherit a connection in use.
                connection.close()
            if self.stopping.wait(self.interval):
                return


_sweeper: Sweeper | None = None


def start_sweeper(**kwargs) -> None:
    global _sweeper
    if _sweeper is None:
        _sweeper = Sweeper(interval=checks.lease_seconds() / 2)
        _sweeper.start()
        logger.info("sweeping for stale check runs every %.0f s", _sweeper.interval)


def stop_sweeper(**kwargs) -> None:
    global _sweeper
    if _sweeper is not None:
        _sweeper.stopping.set()
        _sweeper = None
