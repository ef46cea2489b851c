import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
ENGINES = "tests.checks.fake_engines"


@pytest.fixture
def fake_engine(settings):
    settings.GROUNDVIEW_CHECK_ENGINE = f"{ENGINES}.fake_engine"


def wait_for(predicate, timeout, what):
    """Poll until predicate() is true. The timeout only stops a hung test; it measures nothing."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"gave up after {timeout} s waiting for {what}")


class Workers:
    """Celery worker subprocesses on the test broker and the test database."""

    def __init__(self, broker_url, database_url, log_dir):
        self.broker_url = broker_url
        self.database_url = database_url
        self.log_dir = log_dir
        self.processes = []

    def start(self, engine="fake_engine", concurrency=1, **env):
        index = len(self.processes)
        environment = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "CELERY_BROKER_URL": self.broker_url,
            "GROUNDVIEW_CHECK_ENGINE": f"{ENGINES}.{engine}" if engine else "",
            "PYTHONPATH": str(ROOT),
            **{key: str(value) for key, value in env.items()},
        }
        log = open(self.log_dir / f"worker{index}.log", "w")  # noqa: SIM115 - closed in stop()
        process = subprocess.Popen(
            [
                str(Path(sys.executable).with_name("celery")),
                "-A",
                "groundview",
                "worker",
                "--pool=prefork",
                f"--concurrency={concurrency}",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel=INFO",
                f"--hostname=test{index}@%h",
            ],
            cwd=ROOT,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
            # Its own process group, so a kill reaches the pool's children too.
            start_new_session=True,
        )
        process.log = log
        self.processes.append(process)
        return process

    def kill(self, process, sig=signal.SIGKILL):
        if process.poll() is None:
            os.killpg(process.pid, sig)
        process.wait(timeout=30)

    def stop(self):
        # No warm shutdown: the test is over, and the broker's database is flushed next.
        for process in self.processes:
            self.kill(process)
            process.log.close()

    def logs(self):
        return "\n".join(
            f"--- worker{i} ---\n" + (self.log_dir / f"worker{i}.log").read_text()
            for i in range(len(self.processes))
        )


def database_url():
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def workers(transactional_db, tmp_path):
    """Start real workers with workers.start(); the test process queues tasks on the same broker.

    Needs committed data (the worker is another process), hence transactional_db.
    """
    broker_url = os.environ.get("GROUNDVIEW_TEST_BROKER_URL")
    if not broker_url:
        pytest.skip(
            "GROUNDVIEW_TEST_BROKER_URL is not set (`make test` sets it to a Redis database)"
        )
    if connection.vendor != "postgresql":
        pytest.skip(
            "worker tests need PostgreSQL: a worker process cannot share an in-memory SQLite"
        )
    import redis

    from groundview.celery import app

    broker = redis.Redis.from_url(broker_url)
    broker.flushdb()
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=broker_url, task_always_eager=False)
    reset_producers(app)
    pool = Workers(broker_url, database_url(), tmp_path)
    try:
        yield pool
    finally:
        pool.stop()
        app.conf.update(saved)
        reset_producers(app)
        broker.flushdb()


def reset_producers(app):
    # The producer pool is bound to the broker URL it was first created with.
    app.close()
    if "amqp" in app.__dict__:
        app.amqp._producer_pool = None
