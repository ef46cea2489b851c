"""The `groundview` command's argument handling (serving and the wheel: test_package.py)."""

import json
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


def test_check_gates_ragas_and_deepeval_rows_on_their_support_score(tmp_path):
    # Given a Ragas row the context backs and a DeepEval row it does not (CJK and emoji in the text)
    rows = tmp_path / "rows.jsonl"
    rows.write_text(
        "\n".join(
            json.dumps(row, ensure_ascii=False)
            for row in (
                {
                    "user_input": "When was Google founded?",
                    "response": "Google was founded in 1998 by Larry Page and Sergey Brin. 🎉",
                    "retrieved_contexts": [
                        "Google was founded in September 1998 by Larry Page and Sergey Brin."
                    ],
                },
                {
                    "input": "東京タワーの高さは?",
                    "actual_output": "The tower is 500 metres tall and opened in 1970.",
                    "retrieval_context": ["Tokyo Tower is 333 metres tall. It opened in 1958."],
                },
            )
        ),
        encoding="utf-8",
    )
    out = tmp_path / "claims.jsonl"
    # When `groundview check` runs them as a CI gate
    result = subprocess.run(
        [VENV_BIN / "groundview", "check", rows, "--min-support", "0.7", "-o", out],
        capture_output=True,
        text=True,
        timeout=300,
    )
    # Then the build fails on the second row, and every claim is reported with its byte span
    assert result.returncode == 1, result.stderr
    assert "2 rows, 1 failed" in result.stderr
    claims = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    first = [c for c in claims if c["row"] == 1]
    text = "Google was founded in 1998 by Larry Page and Sergey Brin. 🎉".encode()
    assert first[0]["supported"] is True
    assert text[first[0]["startPos"] : first[0]["endPos"]].decode() == first[0]["claimText"]
    assert all(
        c["supported"] is False for c in claims if c["row"] == 2 and c["groundingCheckRequired"]
    )


def run_check(*args, timeout=300):
    return subprocess.run(
        [VENV_BIN / "groundview", "check", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_check_reads_one_pretty_printed_request_and_jsonl_with_a_bad_line(tmp_path):
    request = {
        "answerCandidate": "Tokyo Tower is 333 metres tall. 🗼",
        "facts": [{"factText": "Tokyo Tower (東京タワー) is 333 metres tall."}],
    }
    pretty = tmp_path / "one.json"
    pretty.write_text(json.dumps(request, indent=2, ensure_ascii=False), encoding="utf-8")
    lines = tmp_path / "many.jsonl"
    good = json.dumps(request, ensure_ascii=False)
    lines.write_text(f'{good}\n\n{{"answerCandidate": "a",\n{good}\n', encoding="utf-8")

    one = run_check(pretty)
    many = run_check(lines)

    assert one.returncode == 0, one.stderr
    (response,) = [json.loads(line) for line in one.stdout.splitlines()]
    assert response["claims"][0]["citationIndices"] == [0]
    # The bad line answers in its place, by its line number; the lines around it are checked.
    assert many.returncode == 1
    assert "3 request(s), 1 error(s)" in many.stderr
    first, bad, last = [json.loads(line) for line in many.stdout.splitlines()]
    assert first == last == response
    assert bad["error"]["message"].startswith("line 3: invalid JSON: ")


def test_check_of_a_missing_file_says_so_without_a_traceback(tmp_path):
    result = run_check(tmp_path / "nowhere.jsonl", timeout=60)

    assert result.returncode == 2
    assert result.stderr.strip() == f"groundview check: {tmp_path / 'nowhere.jsonl'}: no such file"


def test_min_support_must_be_a_score():
    result = run_check("-", "--min-support", "2", timeout=60)

    assert result.returncode == 2
    assert "--min-support: must be between 0 and 1, got 2.0" in result.stderr


def test_token_create_on_a_database_never_migrated_says_to_migrate(tmp_path):
    env = {**os.environ, "GROUNDVIEW_DATA_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)

    result = subprocess.run(
        [VENV_BIN / "groundview", "token", "create", "--user", "ada"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "no such table" in result.stderr
    assert "run `groundview manage migrate` first" in result.stderr


def test_check_of_one_broken_pretty_printed_request_names_where_it_breaks(tmp_path):
    broken = tmp_path / "one.json"
    broken.write_text('{\n  "answerCandidate": "a",\n  "facts": [\n}\n', encoding="utf-8")

    result = run_check(broken, timeout=120)

    assert result.returncode == 2
    assert result.stderr.strip().startswith(f"groundview check: {broken}: ")
    assert "line 4 column 1" in result.stderr


def test_check_reads_the_csv_excel_and_pandas_write(tmp_path):
    # Given DeepEval rows saved by Excel as "CSV UTF-8" (a byte-order mark, the answer column
    # first, an upper-case name) with contexts as pandas writes a list column: a Python literal
    rows = tmp_path / "EVAL.CSV"
    rows.write_text(
        "actual_output,input,retrieval_context\r\n"
        '"Tokyo Tower is 333 metres tall.",Height?,"[\'Tokyo Tower is 333 metres tall.\', '
        "'It opened in 1958.']\"\r\n",
        encoding="utf-8-sig",
    )

    result = run_check(rows, "--min-support", "0.6")

    assert result.returncode == 0, result.stderr
    [claim] = [json.loads(line) for line in result.stdout.splitlines()]
    assert (claim["row"], claim["supported"], claim["sources"]) == (1, True, ["0"])


def test_check_as_a_gate_fails_on_requests_under_the_bar_and_on_rows_from_stdin(tmp_path):
    # Given a request the facts do not back, and Ragas rows piped in with nothing but a header
    request = {
        "answerCandidate": "Tokyo Tower is 500 metres tall.",
        "facts": [{"factText": "Tokyo Tower is 333 metres tall."}],
    }
    requests = tmp_path / "requests.jsonl"
    requests.write_text(json.dumps(request) + "\n", encoding="utf-8")

    under = run_check(requests, "--min-support", "0.5")
    empty = subprocess.run(
        [VENV_BIN / "groundview", "check", "-", "--min-support", "0.5"],
        input="user_input,response,retrieved_contexts\n",
        capture_output=True,
        text=True,
        timeout=300,
    )

    # Then both fail the build: a score under the bar, and an eval step that produced nothing
    assert under.returncode == 1, under.stderr
    assert "1 request(s), 0 error(s), 1 under supportScore 0.5" in under.stderr
    assert empty.returncode == 1, empty.stderr
    assert "0 rows, 0 failed" in empty.stderr and "no rows to check" in empty.stderr


def test_check_refuses_what_it_cannot_read_or_write_before_loading_anything(tmp_path):
    latin = tmp_path / "rows.jsonl"
    latin.write_bytes('{"response": "Café", "contexts": ["Café"]}\n'.encode("latin-1"))
    good = tmp_path / "requests.jsonl"
    good.write_text('{"answerCandidate": "a", "facts": []}\n', encoding="utf-8")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    earlier = tmp_path / "earlier.jsonl"
    earlier.write_text("kept\n", encoding="utf-8")

    cases = {
        "not UTF-8: byte 0xe9 at offset 17; save it as UTF-8": [latin],
        "cannot write: No such file or directory": [good, "-o", tmp_path / "no" / "out.jsonl"],
        "--batch: must be at least 1, not 0": [good, "--batch", "0"],
        "--format csv is for Ragas/DeepEval rows": [good, "--format", "csv"],
        "nested too deeply to read": [deep],
    }
    for message, args in cases.items():
        result = run_check(*args, timeout=60)
        assert result.returncode == 2, (message, result.stderr)
        assert message in result.stderr
        assert "Traceback" not in result.stderr
    # A broken input leaves an earlier result file as it was.
    assert run_check(deep, "-o", earlier, timeout=60).returncode == 2
    assert earlier.read_text(encoding="utf-8") == "kept\n"
