"""/healthz, /readyz and /metrics: a live server whose PostgreSQL and Redis go away and come back
(through TCP proxies to the real services), and the metrics read from the runs table."""

import json
import os
import subprocess
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from groundview.answers.models import Answer, CheckRun

from .conftest import VENV_BIN, TcpProxy, free_port, get, service_address, wait_until_up


def readyz(base):
    status, body, _ = get(base + "/readyz")
    return status, json.loads(body)


def readyz_state(base):
    status, body = readyz(base)
    return body["status"], (status, body)


def eventually(probe, expected_status, seconds=15):
    """/readyz after a change: the first probe may still see the old state of a socket."""
    deadline = time.monotonic() + seconds
    while True:
        status, body = probe()
        if status == expected_status or time.monotonic() > deadline:
            return status, body
        time.sleep(0.3)


def test_readyz_follows_postgres_and_redis(tmp_path, stop_process):
    db = TcpProxy(service_address("DATABASE_URL", 5432))
    broker = TcpProxy(service_address("GROUNDVIEW_TEST_BROKER_URL", 6379))
    db.start()
    broker.start()
    port = free_port()
    env = {
        **os.environ,
        # The maintenance database: readiness only asks the server for SELECT 1.
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{db.port}/postgres",
        "CELERY_BROKER_URL": f"redis://127.0.0.1:{broker.port}/13",
        "GROUNDVIEW_DATA_DIR": str(tmp_path),
        # Only the production Host: the probes must not depend on it.
        "ALLOWED_HOSTS": "groundview.example.com",
    }
    proc = subprocess.Popen(
        [VENV_BIN / "groundview", "serve", "--port", str(port), "--workers", "1"]
        + ["--no-migrate", "--no-collectstatic"],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=open(tmp_path / "server.log", "wb"),  # noqa: SIM115 - closed with the process
    )
    stop_process(proc)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, proc)
        assert readyz(base) == (
            200,
            {"status": "ready", "checks": {"database": "ok", "broker": "ok", "model": "ok"}},
        )
        # Any other path with this Host is refused, as ALLOWED_HOSTS says.
        assert get(base + "/accounts/login/")[0] == 400

        db.stop()
        status, body = eventually(lambda: readyz(base), 503)
        assert status == 503
        assert body["status"] == "unavailable"
        assert body["checks"]["database"].startswith("unreachable")
        assert body["checks"]["broker"] == "ok"
        # Liveness is not readiness: the process is up and says so.
        assert get(base + "/healthz")[:2] == (200, b"ok\n")

        db.start()
        assert eventually(lambda: readyz(base), 200)[0] == 200

        # Without the broker checks wait in the database, and reviewing goes on: still ready.
        broker.stop()
        state, (status, body) = eventually(lambda: readyz_state(base), "degraded")
        assert (state, status) == ("degraded", 200)
        assert body["checks"]["broker"].startswith("unreachable")
        assert body["checks"]["database"] == "ok"

        broker.start()
        assert eventually(lambda: readyz_state(base), "ready")[0] == "ready"
    finally:
        db.stop()
        broker.stop()
    # Failures are logged for the operator with the reason the probe leaves out.
    assert b"readiness: database" in (tmp_path / "server.log").read_bytes()


@pytest.mark.django_db
def test_readyz_names_missing_model_files(client, settings, tmp_path):
    settings.GROUNDING = {**settings.GROUNDING, "EMBEDDER_PATH": str(tmp_path / "nowhere")}
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["model"] == "missing config.json"


@pytest.mark.django_db
def test_readyz_broker_on_a_closed_port(client, settings):
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{free_port()}/0"
    response = client.get("/readyz", HTTP_HOST="10.0.0.7:8000")
    assert response.status_code == 200
    assert response.json()["status"] == "degraded"
    assert response.json()["checks"]["broker"] == "unreachable (ConnectionError)"


@pytest.mark.django_db
def test_metrics_count_requests_and_check_runs(client, settings):
    answer = Answer.objects.create(name="a1", raw={})
    for status in ["queued", "queued", "running", "failed"]:
        CheckRun.objects.create(answer=answer, status=status)
    finished = timezone.now()
    CheckRun.objects.create(
        answer=answer,
        status="succeeded",
        started_at=finished - timedelta(seconds=2.5),
        finished_at=finished,
    )
    client.get("/accounts/login/")

    response = client.get("/metrics", HTTP_HOST="web:8000")
    assert response.status_code == 200
    text = response.content.decode()
    assert 'groundview_check_runs{status="queued"} 2.0' in text
    assert 'groundview_check_runs{status="failed"} 1.0' in text
    assert "groundview_check_queue_depth 2.0" in text
    assert "groundview_check_runs_succeeded_recently 1.0" in text
    assert "groundview_check_run_recent_duration_seconds 2.5" in text
    assert (
        'groundview_http_requests_total{method="GET",route="accounts/login/",status="200"}' in text
    )
    assert "groundview_metrics_database_up 1.0" in text

    settings.GROUNDVIEW_METRICS_TOKEN = "s3cret"
    assert client.get("/metrics").status_code == 401
    authorized = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret")
    assert authorized.status_code == 200


def test_request_ids(client):
    response = client.get("/healthz")
    assert response.content == b"ok\n"
    given = client.get("/accounts/login/", HTTP_X_REQUEST_ID="lb-1234")
    assert given["X-Request-ID"] == "lb-1234"
    # Anything else a client sends is replaced, since it ends up in the logs.
    made = client.get("/accounts/login/", HTTP_X_REQUEST_ID="a b\nc")
    assert len(made["X-Request-ID"]) == 32


def run_manage(args, **env):
    # The browser tests' conftest allows async-unsafe ORM calls for the whole test process; a
    # deployment never sets that, and check --deploy rightly refuses it.
    inherited = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    return subprocess.run(
        [VENV_BIN / "python", "manage.py", *args],
        env={**inherited, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_https():
    secret = "x" * 20 + "-not-a-real-secret-key-but-long-and-varied-enough-0123456789"
    env = {"DEBUG": "false", "SECRET_KEY": secret, "ALLOWED_HOSTS": "groundview.example.com"}
    https = run_manage(
        ["check", "--deploy", "--fail-level", "WARNING"], GROUNDVIEW_HTTPS="1", **env
    )
    assert https.returncode == 0, https.stderr
    assert "WARNING" not in https.stdout + https.stderr
    plain = run_manage(["check", "--deploy", "--fail-level", "WARNING"], **env)
    assert plain.returncode == 1
    assert "security.W008" in plain.stderr


def test_json_logs_have_time_level_logger_and_request_id(tmp_path):
    code = (
        "from django.test import Client; import logging; "
        "Client().get('/accounts/login/', HTTP_X_REQUEST_ID='req-77'); "
        "logging.getLogger('groundview.test').warning('plain %s', 'line')"
    )
    result = run_manage(
        ["shell", "-c", code], GROUNDVIEW_LOG_FORMAT="json", GROUNDVIEW_DATA_DIR=str(tmp_path)
    )
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
    access = next(line for line in lines if line["logger"] == "groundview.access")
    assert access["request_id"] == "req-77"
    assert access["status"] == 200
    assert access["level"] == "INFO"
    plain = next(line for line in lines if line["logger"] == "groundview.test")
    assert plain["message"] == "plain line"
    assert plain["level"] == "WARNING"
    assert plain["time"].endswith("+00:00")
