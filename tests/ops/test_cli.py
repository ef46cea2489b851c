"""The `groundview` command's argument handling (serving and the wheel: test_package.py)."""

import os
import subprocess

from groundview import cli

from .conftest import VENV_BIN


def test_worker_and_manage_pass_their_other_options_on(monkeypatch):
    seen = {}
    monkeypatch.setattr(cli, "worker", lambda args: seen.update(worker=args.celery_args) or 0)
    monkeypatch.setattr(cli, "manage", lambda args: seen.update(manage=args.rest) or 0)
    # parse_args binds run= at parser build time; build it after patching.
    assert cli.main(["worker", "--concurrency=1", "--without-gossip", "--without-mingle"]) == 0
    assert seen["worker"] == ["--without-gossip", "--without-mingle"]
    assert cli.main(["manage", "migrate", "--no-input"]) == 0
    assert seen["manage"] == ["migrate", "--no-input"]


def test_worker_without_a_broker_says_what_to_set():
    env = {k: v for k, v in os.environ.items() if k != "CELERY_BROKER_URL"}
    result = subprocess.run(
        [VENV_BIN / "groundview", "worker"], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert "set CELERY_BROKER_URL" in result.stderr


def test_unknown_options_are_refused():
    result = subprocess.run(
        [VENV_BIN / "groundview", "export", "--bogus"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert "unrecognized arguments: --bogus" in result.stderr
