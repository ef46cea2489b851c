"""The built wheel, installed into a fresh virtual environment, is a working groundview.

No network: the wheel is built without build isolation and installed with --no-deps; the new
environment sees the project venv's packages (Django, torch, ...) through a .pth line, after its
own site-packages, so `groundview` itself comes from the wheel and nothing from the checkout.
"""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import urllib.parse
import zipfile
from pathlib import Path

import pytest

from .conftest import REPO, VENV_BIN, free_port, get, wait_until_up

pytestmark = pytest.mark.slow

REQUEST = {
    "answerCandidate": "The Eiffel Tower is in Paris.",
    "facts": [{"factText": "The Eiffel Tower is a landmark in Paris, France."}],
}


def run(args, **kwargs):
    result = subprocess.run(args, capture_output=True, text=True, timeout=600, **kwargs)
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    root = tmp_path_factory.mktemp("package")
    # Build from a copy: an in-tree build would leave build/ in the checkout others work in.
    source = root / "source"
    source.mkdir()
    for name in ["pyproject.toml", "README.md", "LICENSE", "templates", "static"]:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name)
        elif path.exists():
            shutil.copy(path, source / name)
    shutil.copytree(
        REPO / "groundview",
        source / "groundview",
        symlinks=True,  # templates/ and static/ are links; the wheel must follow them itself
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
    )
    run(
        [VENV_BIN / "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
        + ["-w", root / "dist", source],
        cwd=root,
    )
    (wheel,) = (root / "dist").glob("groundview-*.whl")

    venv = root / "venv"
    run([sys._base_executable, "-m", "venv", "--without-pip", venv])
    python = venv / "bin" / "python"
    site = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
    Path(site.stdout.strip(), "project-venv.pth").write_text(sysconfig.get_paths()["purelib"])
    run([python, "-m", "pip", "install", "--no-deps", "--no-index", "-q", wheel], cwd=root)

    data = root / "data"
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"}
    }
    # Production-like: no DEBUG, so static files come from collectstatic out of the package.
    env.update(
        DEBUG="false",
        SECRET_KEY="package-test-" + "k" * 50,
        XDG_DATA_HOME=str(data),
        GROUNDVIEW_LOG_FORMAT="text",
        DJANGO_SUPERUSER_PASSWORD="pw-ada-123",
    )
    return {"root": root, "wheel": wheel, "bin": venv / "bin", "env": env, "data": data}


def groundview(installed, *args, **kwargs):
    return run(
        [installed["bin"] / "groundview", *args],
        env=installed["env"],
        cwd=installed["root"],
        **kwargs,
    )


def test_wheel_carries_templates_static_and_engine_data(installed):
    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    assert "groundview/templates/registration/login.html" in names
    assert "groundview/static/review/review.css" in names
    assert "groundview/grounding/head.json" in names
    engine_files = REPO / "groundview" / "grounding" / "verifier"
    for path in engine_files.glob("*"):
        assert f"groundview/grounding/verifier/{path.name}" in names
    python = installed["bin"] / "python"
    where = run(
        [python, "-c", "import groundview; print(groundview.__file__)"], cwd=installed["root"]
    )
    assert where.stdout.startswith(str(installed["root"] / "venv"))


def test_serve_and_a_token_the_api_accepts(installed, stop_process):
    groundview(installed, "manage", "migrate", "--no-input", "-v", "0")
    # Data goes to the user's data folder, not into site-packages.
    assert (installed["data"] / "groundview" / "groundview.sqlite3").is_file()
    groundview(
        installed,
        "manage",
        "createsuperuser",
        "--no-input",
        "--username",
        "ada",
        "--email",
        "a@x.org",
    )
    token = groundview(
        installed, "token", "create", "--user", "ada", "--expires", "1"
    ).stdout.strip()
    assert token.startswith("gv_")

    port = free_port()
    proc = subprocess.Popen(
        [installed["bin"] / "groundview", "serve", "--port", str(port), "--workers", "1"],
        env=installed["env"],
        cwd=installed["root"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    stop_process(proc)
    base = f"http://127.0.0.1:{port}"
    wait_until_up(base, proc)
    status, body, _ = get(base + "/accounts/login/")
    assert status == 200 and b'name="password"' in body
    status, body, headers = get(base + "/static/review/review.css")
    assert status == 200 and headers["Content-Type"].startswith("text/css")
    assert get(base + "/api/answers")[0] == 401
    status, body, _ = get(base + "/api/answers", {"Authorization": f"Bearer {token}"})
    assert status == 200 and "results" in json.loads(body)

    # Search on SQLite finds accented text however it is encoded and whatever its case.
    answers = installed["root"] / "accents.jsonl"
    texts = {"a1": "Le cafe\u0301 Marly est ouvert.", "a2": "Ça va, merci.", "a3": "Plain."}
    answers.write_text(
        "".join(
            json.dumps({"name": f"projects/p/sessions/s/answers/{k}", "answerText": v}) + "\n"
            for k, v in texts.items()
        )
    )
    groundview(installed, "import", str(answers))
    for query, names in [("café", ["a1"]), ("CAFÉ", ["a1"]), ("ça", ["a2"]), ("ÇA VA", ["a2"])]:
        status, body, _ = get(
            f"{base}/api/answers?{urllib.parse.urlencode({'q': query})}",
            {"Authorization": f"Bearer {token}"},
        )
        found = [a["name"].rsplit("/", 1)[1] for a in json.loads(body)["results"]]
        assert (status, found) == (200, names), query


@pytest.mark.model
def test_check_runs_the_packaged_engine(installed):
    requests = installed["root"] / "requests.jsonl"
    requests.write_text(json.dumps(REQUEST) + "\n")
    result = groundview(installed, "check", str(requests))
    (response,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert response["supportScore"] > 0.5
    assert "1 request(s), 0 error(s)" in result.stderr
