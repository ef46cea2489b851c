"""compose.yaml and the gunicorn settings agree: the web service serves with
groundview/gunicorn_conf.py, keeps the shared environment, and gives in-flight requests their
graceful timeout before Docker kills the container."""

import re
from pathlib import Path

import yaml

from groundview import gunicorn_conf

ROOT = Path(__file__).resolve().parents[2]


def compose():
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def seconds(duration: str) -> int:
    match = re.fullmatch(r"(?:(\d+)m)?(?:(\d+)s)?", duration)
    assert match and any(match.groups()), duration
    minutes, secs = (int(part or 0) for part in match.groups())
    return minutes * 60 + secs


def test_web_stops_only_after_gunicorns_graceful_timeout():
    web = compose()["services"]["web"]

    assert seconds(web["stop_grace_period"]) > gunicorn_conf.graceful_timeout


def test_web_serves_with_the_config_files_workers_and_timeout():
    web = compose()["services"]["web"]

    assert web["command"][:2] == ["groundview", "serve"]
    # --workers/--timeout on the command line would override gunicorn_conf.py.
    assert "--workers" not in web["command"] and "--timeout" not in web["command"]
    assert web["environment"]["WEB_CONCURRENCY"].endswith("2}")


def test_web_keeps_the_shared_environment_and_runs_one_check_per_process():
    services = compose()["services"]
    web, worker = services["web"]["environment"], services["worker"]["environment"]

    assert {key: value for key, value in web.items() if key in worker} == worker
    assert "GROUNDVIEW_TRUSTED_PROXIES" in worker
    assert web["GROUNDVIEW_MAX_CONCURRENT_CHECKS"] == "${GROUNDVIEW_MAX_CONCURRENT_CHECKS:-1}"
