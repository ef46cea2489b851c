"""Long imports show a progress bar on stderr for a person at a terminal, and nothing else:
not into a pipe or a log, and not with --quiet."""

import fcntl
import io
import json
import os
import pty
import struct
import subprocess
import termios

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from groundview.answers.models import Answer

from .conftest import VENV_BIN

SESSION = "projects/p/locations/global/collections/c/engines/e/sessions/s"
TEXTS = [
    "Paris is the capital of France. 🇫🇷",
    "巴黎是法国的首都。",
    "Cafe\u0301 de Flore opened in 1887.",
]


class Terminal(io.StringIO):
    def isatty(self):
        return True


def answers_file(tmp_path, count=30, bad_line=None):
    lines = [
        json.dumps(
            {
                "name": f"{SESSION}/answers/a{i}",
                "state": "SUCCEEDED",
                "answerText": TEXTS[i % len(TEXTS)],
            },
            ensure_ascii=False,
        )
        for i in range(count)
    ]
    if bad_line is not None:
        lines[bad_line - 1] = '{"name": "broken", "answerText": 7}'
    path = tmp_path / "answers.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.django_db
def test_a_terminal_gets_a_progress_bar_and_the_summary(tmp_path):
    path = answers_file(tmp_path, bad_line=4)
    stderr, stdout = Terminal(), io.StringIO()

    with pytest.raises(CommandError):
        call_command("import_answers", str(path), stdout=stdout, stderr=stderr)

    # tqdm redraws in place with carriage returns and counts records as they are stored
    assert "\r" in stderr.getvalue()
    assert "30 records" in stderr.getvalue()
    assert "line 4 (broken): answerText" in stderr.getvalue()
    assert "29 imported (29 new, 0 updated, 0 unchanged), 1 rejected" in stdout.getvalue()
    assert Answer.objects.count() == 29


@pytest.mark.django_db
@pytest.mark.parametrize("quiet, stream", [(True, Terminal), (False, io.StringIO)])
def test_no_bar_with_quiet_or_without_a_terminal(tmp_path, quiet, stream):
    stderr, stdout = stream(), io.StringIO()

    call_command(
        "import_answers", str(answers_file(tmp_path)), quiet=quiet, stdout=stdout, stderr=stderr
    )

    assert stderr.getvalue() == ""
    assert "30 imported (30 new" in stdout.getvalue()


def run_on_a_terminal(args):
    """`groundview import ...` with its stderr on a pseudo-terminal; (exit code, stderr text)."""
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
    }
    leader, follower = pty.openpty()
    # 80 columns: a new pseudo-terminal is 0 wide, and tqdm fits its bar into that.
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    try:
        process = subprocess.run(
            [VENV_BIN / "groundview", "import", *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=follower,
            timeout=120,
        )
        os.close(follower)
        follower = -1
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal is closed once everything was read
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if follower != -1:
            os.close(follower)
        os.close(leader)
    return process.returncode, seen.decode("utf-8", "replace")


@pytest.mark.django_db(transaction=True)
def test_the_groundview_command_on_a_real_terminal(tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("the command runs in another process: it needs the PostgreSQL test database")
    path = answers_file(tmp_path)

    code, shown = run_on_a_terminal([str(path)])
    quiet_code, quiet_shown = run_on_a_terminal(["--quiet", str(path)])

    assert code == 0 and quiet_code == 0, (shown, quiet_shown)
    assert "30 records" in shown
    assert "records" not in quiet_shown
    assert Answer.objects.count() == 30
