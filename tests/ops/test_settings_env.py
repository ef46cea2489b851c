"""A mistyped environment variable stops start-up with a message naming it, rather than a bare
ValueError at start-up or a 500 on a later request (settings.py's env_* helpers)."""

import os
import subprocess
import sys

import pytest

START = "import django; django.setup(); from django.conf import settings; print(settings.{})"


def start(setting: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return subprocess.run(
        [sys.executable, "-c", START.format(setting)],
        env={**clean, "DJANGO_SETTINGS_MODULE": "groundview.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"GROUNDVIEW_THROTTLE_ANON": "100"}, "GROUNDVIEW_THROTTLE_ANON='100': expected requests"),
        (
            {"GROUNDVIEW_CHECK_BATCH_SIZE": "5m"},
            "GROUNDVIEW_CHECK_BATCH_SIZE='5m': expected a number",
        ),
        (
            {"GROUNDVIEW_STALE_RUN_SECONDS": "0"},
            "GROUNDVIEW_STALE_RUN_SECONDS='0': must be at least 1",
        ),
        ({"DEBUG": "ture"}, "DEBUG='ture': use 1/0, true/false"),
        ({"LOG_LEVEL": "verbose"}, "LOG_LEVEL='VERBOSE': use one of DEBUG, INFO"),
    ],
)
def test_a_bad_value_names_its_variable(env, message):
    result = start("DEBUG", **env)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert message in result.stderr


def test_good_values_as_people_write_them_are_read():
    result = start(
        "GROUNDVIEW_THROTTLE_RATES",
        LOG_LEVEL="info",
        GROUNDVIEW_THROTTLE_ANON=" 10/second ",
        GROUNDVIEW_THROTTLE_USER="",
        GROUNDVIEW_THROTTLE_CHECK_GROUNDING="60/minutes",  # DRF reads the period's first letter
        GROUNDVIEW_API_TOKEN_DAYS="0",  # never expire
        DEBUG="Yes",
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "{'anon': '10/second', 'user': None, 'check_grounding': '60/minutes'}"
    )
