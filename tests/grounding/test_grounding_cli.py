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
    assert out[2]["error"]["message"].startswith("line 3: groundingSpec.citationThreshold:")
    assert out[3] == out[0]
    assert "4 lines, 2 errors" in result.stderr


@pytest.mark.model
def test_cli_lines_no_parser_expects_are_each_their_own_error() -> None:
    good = json.dumps(
        {"answerCandidate": "Paris is in France.", "facts": [{"factText": "Paris is in France."}]}
    ).encode()
    lines = [
        good,
        b'{"answerCandidate": "caf\xe9 is open."}',  # Latin-1, not UTF-8
        b'{"\\ud800x": 1}',  # an unknown field named with a lone surrogate
        b"[" * 100_000 + b"]" * 100_000,
        b'{"answerCandidate": "x", "groundingSpec": {"citationThreshold": 1' + b"0" * 400 + b"}}",
        good,
    ]
    # Strict UTF-8 on stdin, as a UTF-8 terminal or a pipe on most machines gives.
    result = subprocess.run(
        [sys.executable, "-m", "groundview.grounding", "--threads", "1"],
        input=b"\n".join(lines) + b"\n",
        cwd=ROOT,
        capture_output=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"},
    )

    assert result.returncode == 0, result.stderr.decode()
    out = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert len(out) == 6
    assert out[0]["claims"][0]["citationIndices"] == [0] and out[5] == out[0]
    messages = [item["error"]["message"] for item in out[1:5]]
    assert messages[0] == "line 2: not UTF-8: byte 0xe9 at offset 24"
    assert messages[1].startswith("line 3: ") and "x" in messages[1]
    assert messages[2] == "line 4: invalid JSON: nested too deeply to read"
    assert messages[3].startswith("line 5: groundingSpec.citationThreshold: must be in [0, 1]")


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


def _cli(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "groundview.grounding", "--threads", "1", *args],
        input=stdin,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_cli_reports_a_missing_rows_file_before_loading_the_model(tmp_path: Path) -> None:
    result = _cli(["--rows", str(tmp_path / "nowhere.jsonl")], "")

    assert result.returncode == 2
    assert f"--rows {tmp_path / 'nowhere.jsonl'}: no such file" in result.stderr
    assert "Traceback" not in result.stderr and "ready" not in result.stderr


def test_cli_refuses_a_min_support_outside_0_to_1() -> None:
    result = _cli(["--rows", "-", "--min-support", "70"], "")

    assert result.returncode == 2
    assert "--min-support: must be between 0 and 1, got 70.0" in result.stderr


@pytest.mark.model
def test_rows_gate_fails_the_build_on_an_ungrounded_ragas_row() -> None:
    # Given a grounded Ragas row, an ungrounded DeepEval row and a row with no answer
    rows = [
        {
            "user_input": "How tall is the Eiffel Tower?",
            "response": "The Eiffel Tower is 330 metres tall.",
            "retrieved_contexts": ["The Eiffel Tower is 330 metres tall. It is in Paris."],
        },
        {
            "input": "How tall is the Eiffel Tower?",
            "actual_output": "The Eiffel Tower is 120 metres tall and made of glass.",
            "retrieval_context": ["The Eiffel Tower is 330 metres tall. It is in Paris."],
        },
        {"question": "Who?", "contexts": ["x"]},
    ]
    stdin = "\n".join(json.dumps(r) for r in rows) + "\n"
    # When checked with a minimum support
    result = _cli(["--rows", "-", "--min-support", "0.6"], stdin)
    # Then one line per claim, the bad row is named, and the build fails
    assert result.returncode == 1
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(o["row"], o["supported"]) for o in out] == [(1, True), (2, False)]
    assert out[0]["sources"] == ["0"] and out[1]["sources"] == []
    assert "row 3: no answer field" in result.stderr
    assert "3 rows, 2 failed" in result.stderr


def test_a_context_longer_than_a_fact_is_cut_where_sentences_end() -> None:
    from groundview.grounding.rows import pieces, to_request

    # Given a document of 1,000 sentences (about 40,000 characters, some CJK and emoji) and one
    # sentence with no end that is longer than a fact may be
    sentences = [f"Fact {i} says the tower is {i} metres tall 🗼 東京." for i in range(1000)]
    document = " ".join(sentences)
    run_on = "word " * 3000
    # When it is cut into facts
    parts = pieces(document)
    # Then every part fits, ends at a sentence end, and nothing is lost or reordered
    assert len(parts) > 3 and all(len(p) <= 10_000 for p in parts)
    assert all(p.endswith("東京.") for p in parts)
    assert " ".join(parts) == document
    assert all(len(p) <= 10_000 for p in pieces(run_on))
    assert " ".join(pieces(run_on)).split() == run_on.split()
    assert pieces("Short.") == ["Short."]
    # And a row's facts remember the context they came from
    row = to_request({"response": "x", "contexts": ["Short.", document]}, 1)
    assert row.contexts == (0,) + (1,) * len(parts)
    assert [f["factText"] for f in row.request["facts"]] == ["Short.", *parts]
    # and a title line that opens the document is the title of every part cut from it
    titled = to_request({"response": "x", "contexts": [f"Title: Tokyo towers\n{document}"]}, 1)
    facts = titled.request["facts"]
    assert len(facts) > 3 and facts[0]["factText"].startswith("Title: Tokyo towers\n")
    assert "attributes" not in facts[0]
    assert all(f["attributes"] == {"title": "Tokyo towers"} for f in facts[1:])


@pytest.mark.model
def test_rows_gate_cites_a_long_context_by_its_own_index() -> None:
    # Given a Ragas row whose second context is a whole document longer than a fact may be, with the
    # supporting sentence at its end
    filler = " ".join(f"The museum hosted exhibition number {i} in spring." for i in range(400))
    document = filler + " The Eiffel Tower is 330 metres tall."
    row = {
        "response": "The Eiffel Tower is 330 metres tall.",
        "retrieved_contexts": ["Paris is in France.", document],
    }
    # When the rows gate checks it
    result = _cli(["--rows", "-"], json.dumps(row) + "\n")
    # Then it is accepted, supported, and the source is the context, not a fact cut from it
    assert result.returncode == 0, result.stderr
    [out] = [json.loads(line) for line in result.stdout.splitlines()]
    assert out["supported"] is True
    assert out["sources"] == ["1"]


@pytest.mark.model
def test_rows_gate_passes_grounded_csv_rows_and_writes_csv() -> None:
    stdin = (
        "question,answer,contexts\n"
        '"How tall?","The Eiffel Tower is 330 metres tall.","[""The Eiffel Tower is 330 metres tall.""]"\n'
    )
    result = _cli(["--rows", "-", "--input-format", "csv", "--format", "csv"], stdin)
    assert result.returncode == 0, result.stderr
    header, line = result.stdout.splitlines()
    assert header.startswith("row,claim,startPos,endPos,claimText")
    assert line.startswith("1,0,0,36,The Eiffel Tower is 330 metres tall.,True,")


@pytest.mark.model
def test_cli_precisions_give_the_same_answer() -> None:
    # Given a request with a supported, a wrong and an uncheckable sentence
    request = {
        "answerCandidate": (
            "Google was founded in 1998 by Larry Page and Sergey Brin. It has 50 employees. "
            "Hope this helps!"
        ),
        "facts": [
            {"factText": "Google was founded in September 1998 by Larry Page and Sergey Brin."},
            {"factText": "Google had 182,502 employees at the end of 2023."},
        ],
        "groundingSpec": {"enableClaimLevelScore": True},
    }
    # When checked with the embedder in float32 and in bfloat16
    out = {}
    for precision in ("float32", "bfloat16"):
        result = _cli(["--precision", precision], json.dumps(request) + "\n")
        assert result.returncode == 0, result.stderr
        out[precision] = json.loads(result.stdout)
    # Then claims, citations and flags agree, and scores within rounding
    full, half = out["float32"], out["bfloat16"]
    strip = ("score",)
    assert [{k: v for k, v in c.items() if k not in strip} for c in full["claims"]] == [
        {k: v for k, v in c.items() if k not in strip} for c in half["claims"]
    ]
    assert full["claims"][0]["citationIndices"] and not full["claims"][1]["citationIndices"]
    for a, b in zip(full["claims"], half["claims"], strict=True):
        assert abs(a.get("score", 1.0) - b.get("score", 1.0)) < 0.02
    assert abs(full["supportScore"] - half["supportScore"]) < 0.02


def test_cli_rejects_an_unknown_precision() -> None:
    result = _cli(["--precision", "fp8"], "")
    assert result.returncode == 2
    assert "--precision: invalid choice: 'fp8'" in result.stderr


@pytest.mark.model
def test_cli_model_file_is_the_head_that_scores() -> None:
    from groundview.grounding.fit_head import neutral_head

    # A head that gives every claim 0.5 (all coefficients zero), passed as --model
    request = {
        "answerCandidate": "The Eiffel Tower is 330 metres tall.",
        "facts": [{"factText": "The Eiffel Tower is 330 metres tall."}],
        "groundingSpec": {"enableClaimLevelScore": True},
    }
    scores = []
    for extra in ([], ["--model", str(neutral_head())]):
        result = _cli(extra, json.dumps(request) + "\n")
        assert result.returncode == 0, result.stderr
        scores.append(json.loads(result.stdout)["claims"][0]["score"])
    # The shipped head is sure of a sentence the fact states word for word; the given head is not.
    assert scores[0] > 0.9
    assert scores[1] == pytest.approx(0.5)


@pytest.mark.model
def test_cli_checks_a_page_sent_one_sentence_per_fact() -> None:
    # 300 facts: past the API's 200, as an evaluation sends a long page sentence by sentence
    facts = [{"factText": f"Room {i} of the museum shows pottery."} for i in range(300)]
    facts[250] = {"factText": "The Eiffel Tower is 330 metres tall."}
    request = {"answerCandidate": "The Eiffel Tower is 330 metres tall.", "facts": facts}
    line = json.dumps(request) + "\n"
    result = _cli([], line)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    cited = out["claims"][0]["citationIndices"]
    assert [out["citedChunks"][i]["source"] for i in cited] == ["250"]
    # --max-facts brings back the API's limit, with its error on the line
    result = _cli(["--max-facts", "200"], line)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["error"]["message"] == (
        "line 1: facts: at most 200 facts are allowed, got 300"
    )


@pytest.mark.model
def test_cli_checks_an_article_sent_as_one_fact() -> None:
    # A whole article in one fact, past the API's 10,000 characters, as a summary benchmark sends it
    filler = " ".join(f"Room {i} of the museum shows pottery from the coast." for i in range(400))
    article = f"{filler} The Eiffel Tower is 330 metres tall. {filler}"
    assert len(article) > 40_000
    request = {
        "answerCandidate": "The Eiffel Tower is 330 metres tall.",
        "facts": [{"factText": article}],
    }
    line = json.dumps(request) + "\n"
    result = _cli([], line)
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    claim = out["claims"][0]
    assert [out["citedChunks"][i]["chunkText"] for i in claim["citationIndices"]] == [
        "The Eiffel Tower is 330 metres tall."
    ]
    assert out["citedChunks"][0]["source"] == "0"
    # --max-fact-chars brings back the API's limit, with its error on the line
    result = _cli(["--max-fact-chars", "10000"], line)
    assert json.loads(result.stdout)["error"]["message"] == (
        f"line 1: facts[0].factText: must be at most 10000 characters, got {len(article)}"
    )


def test_rows_are_told_from_requests_by_their_content_not_only_their_name() -> None:
    from groundview.grounding.rows import list_cell, rows_format

    ragas = json.dumps({"user_input": "q", "response": "a", "retrieved_contexts": ["c"]})
    request = json.dumps({"answerCandidate": "a", "facts": []})
    assert rows_format(ragas + "\n", "-") == "jsonl"
    assert rows_format(request + "\n", "-") is None
    assert rows_format("input,actual_output,retrieval_context\nq,a,c\n", "-") == "csv"
    assert rows_format("anything", "ROWS.CSV") == "csv"
    assert rows_format("", "-") is None
    assert list_cell("['a', \"b's\"]") == ["a", "b's"]
    assert list_cell('["a"]') == ["a"]
    with pytest.raises(ValueError, match="neither JSON nor a Python list literal"):
        list_cell("[a, b")
