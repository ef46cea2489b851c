"""`python -m groundview.grounding`: JSONL in, JSONL out, one error line per bad line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.model
def test_cli_good_bad_good_lines() -> None:
    # Given three lines: a valid request, a broken one, a valid one
    good = {
        "answerCandidate": "The Eiffel Tower is 330 metres tall.",
        "facts": [{"factText": "The Eiffel Tower is 330 metres tall."}],
    }
    lines = [
        json.dumps(good),
        "{not json",
        json.dumps({**good, "groundingSpec": {"citationThreshold": 2}}),
    ]
    lines.append(json.dumps(good, ensure_ascii=False))
    # When piped through the CLI
    result = subprocess.run(
        [sys.executable, "-m", "groundview.grounding", "--threads", "1"],
        input="\n".join(lines) + "\n",
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    # Then every line yields one line, in order, errors in place, progress on stderr
    assert result.returncode == 0, result.stderr
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(out) == 4
    assert out[0]["claims"][0]["citationIndices"] == [0]
    assert out[1]["error"]["code"] == 400 and "invalid JSON" in out[1]["error"]["message"]
    assert out[2]["error"]["message"].startswith("groundingSpec.citationThreshold:")
    assert out[3] == out[0]
    assert "4 lines, 2 errors" in result.stderr


def test_cli_reports_a_missing_model_without_traceback(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "groundview.grounding", "--embedder", str(tmp_path / "missing")],
        input="",
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 2
    assert "error: embedder model not found" in result.stderr
    assert "Traceback" not in result.stderr
