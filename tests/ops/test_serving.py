"""`groundview serve` runs gunicorn with groundview/gunicorn_conf.py: a request that lasts longer
than the worker timeout is served, not killed, and a SIGTERM lets requests in flight finish."""

import json
import os
import signal
import socket
import subprocess
import time

import pytest
from django.db import connection

from groundview import cli
from groundview.api.models import ApiToken

from .conftest import VENV_BIN, free_port, wait_until_up

CHECK = "/v1/projects/p/locations/global/groundingConfigs/default_grounding_config:check"
# Ill-typed on purpose: the answer needs no model, and names the field it rejects.
BODY = json.dumps({"answerCandidate": 7, "facts": [{"factText": "巴黎 🇫🇷"}]}).encode()
WORKER_TIMEOUT = 2


def test_serve_runs_gunicorn_with_groundviews_settings(monkeypatch):
    seen = []
    monkeypatch.setattr(cli, "_exec", lambda argv: seen.append(argv) or 0)
    monkeypatch.setattr(cli, "_django", lambda: None)
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", "/tmp/unused")

    cli.main(["serve", "--no-migrate", "--no-collectstatic", "--port", "8123"])
    cli.main(["serve", "--no-migrate", "--no-collectstatic", "--workers", "3", "--timeout", "9"])

    default, explicit = seen
    assert default[default.index("--config") + 1] == "python:groundview.gunicorn_conf"
    assert "--workers" not in default and "--timeout" not in default  # the config file decides
    assert explicit[explicit.index("--workers") + 1] == "3"
    assert explicit[explicit.index("--timeout") + 1] == "9"


def slow_request(port: int, token: str) -> socket.socket:
    """Send the headers and half the body now; the rest is sent by finish_request()."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    sock.sendall(
        (
            f"POST {CHECK} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(BODY)}\r\n"
            "Connection: close\r\n\r\n"
        ).encode()
        + BODY[: len(BODY) // 2]
    )
    return sock


def finish_request(sock: socket.socket) -> tuple[int, dict]:
    with sock:
        sock.sendall(BODY[len(BODY) // 2 :])
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    assert data, "the connection was closed without a response (the worker was killed)"
    head, _, payload = data.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    assert head.lower().count(b"application/json"), (status, data[:500])
    return status, json.loads(payload)


@pytest.fixture
def server(transactional_db, django_user_model, tmp_path, stop_process):
    if connection.vendor != "postgresql":
        pytest.skip("the server is another process: it needs the PostgreSQL test database")
    user = django_user_model.objects.create_user(username="rita", password="pw-rita-123")
    _, token = ApiToken.issue(user, "serving test")
    db = connection.settings_dict
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "GROUNDVIEW_DATA_DIR": str(tmp_path),
        "WEB_CONCURRENCY": "1",
        # Short, so the test's slow request outlasts it by far.
        "GROUNDVIEW_WEB_TIMEOUT": str(WORKER_TIMEOUT),
    }
    env.pop("CELERY_BROKER_URL", None)
    log = open(tmp_path / "server.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [VENV_BIN / "groundview", "serve", "--port", str(port), "--no-migrate"]
        + ["--no-collectstatic"],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    stop_process(proc)
    wait_until_up(f"http://127.0.0.1:{port}", proc)
    yield proc, port, token
    log.close()


def test_long_requests_are_served_and_sigterm_lets_them_finish(server, tmp_path):
    # One server for both (starting one costs more than the rest of the test).
    # Given a server whose workers are killed after 2 s without a heartbeat
    proc, port, token = server

    # When a client takes well over that to send its request
    sock = slow_request(port, token)
    time.sleep(WORKER_TIMEOUT * 2.5)
    status, body = finish_request(sock)

    # Then it gets its answer (a sync worker would have been killed: no heartbeat mid-request)
    assert status == 400, body
    assert body["error"]["message"].startswith("answerCandidate:")
    assert b"WORKER TIMEOUT" not in (tmp_path / "server.log").read_bytes()

    # When the server is told to stop while a request is in flight
    sock = slow_request(port, token)
    time.sleep(0.5)  # the worker has taken the connection
    proc.send_signal(signal.SIGTERM)
    time.sleep(1)
    status, body = finish_request(sock)

    # Then that request is still answered, and the server exits cleanly
    assert status == 400, body
    assert body["error"]["status"] == "INVALID_ARGUMENT"
    assert proc.wait(timeout=60) == 0
