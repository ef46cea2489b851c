"""The `groundview` command: run, feed and administer an installed groundview.

    groundview serve [--host H] [--port P]     web app (migrates and collects static files first)
    groundview worker [--concurrency N] ...    Celery worker for grounding checks (other options
                                               go on to `celery worker`)
    groundview import FILE...                  Vertex answers (JSON or JSONL) into the database
    groundview export [--output FILE] ...      stored answers as JSONL (the answer list's
                                               filters as --session, --state...)
    groundview export-labels [--format F] ...  labelled answers, one per answer: JSONL, CSV,
                                               Parquet, Argilla or Label Studio JSON (the
                                               answer list's filters as --state, --reviewer...)
    groundview check FILE                      Check Grounding requests (JSON/JSONL) -> responses
    groundview token create --user NAME        an API token, printed once
    groundview manage ARGS...                  any other Django management command

Configuration comes from the environment exactly as for manage.py (README, "Configuration").
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
from pathlib import Path


def _django():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "groundview.settings")
    import django

    django.setup()


def _exec(argv: list[str]) -> int:
    """Replace this process, so the server or worker gets the signals (stop, reload) directly."""
    from django.conf import settings
    from django.db import connections

    if settings.configured:  # serve set Django up to migrate; worker never did
        connections.close_all()
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(argv[0], argv)
    return 0  # not reached


def serve(args) -> int:
    _django()
    from django.conf import settings
    from django.core.management import call_command

    if not args.no_migrate:
        call_command("migrate", interactive=False, verbosity=0)
    if not args.no_collectstatic:
        call_command("collectstatic", interactive=False, verbosity=0)
    workers = args.workers or int(os.environ.get("WEB_CONCURRENCY") or 2)
    if workers > 1 and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # Each gunicorn worker counts its own requests; a shared folder lets /metrics add them up.
        folder = Path(settings.DATA_DIR) / "prometheus"
        shutil.rmtree(folder, ignore_errors=True)  # counters from a previous run are stale
        folder.mkdir(parents=True)
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(folder)
    print(f"groundview: serving on http://{args.host}:{args.port}/", file=sys.stderr)
    return _exec(gunicorn_argv(args))


def gunicorn_argv(args) -> list[str]:
    """gunicorn with groundview's settings (threads, timeouts, worker recycling: see
    groundview/gunicorn_conf.py); --workers and --timeout override them when given."""
    argv = [sys.executable, "-m", "gunicorn", "--config", "python:groundview.gunicorn_conf"]
    argv += ["--bind", f"{args.host}:{args.port}"]
    if args.workers:
        argv += ["--workers", str(args.workers)]
    if args.timeout:
        argv += ["--timeout", str(args.timeout)]
    return argv + ["groundview.wsgi"]


def worker(args) -> int:
    if not os.environ.get("CELERY_BROKER_URL"):
        print(
            "groundview worker: set CELERY_BROKER_URL (e.g. redis://127.0.0.1:6379/0) and "
            "DATABASE_URL; without a broker, checks run in the web process",
            file=sys.stderr,
        )
        return 2
    argv = [sys.executable, "-m", "celery", "-A", "groundview", "worker"]
    argv += [f"--loglevel={args.loglevel}", f"--concurrency={args.concurrency}"]
    return _exec(argv + list(args.celery_args))


def import_(args) -> int:
    _django()
    from django.core.management import call_command
    from django.core.management.base import CommandError

    try:
        call_command("import_answers", *args.files, quiet=args.quiet)
    except CommandError as exc:
        print(f"groundview import: {exc}", file=sys.stderr)
        return exc.returncode
    return 0


def export(args) -> int:
    """`manage.py export_answers` with the same arguments: its parser holds the filter spec."""
    _django()
    from django.core.management import call_command
    from django.core.management.base import CommandError

    try:
        call_command("export_answers", *args.rest)
    except CommandError as exc:
        return _command_failed("export", exc)
    return 0


def _command_failed(name: str, exc) -> int:
    """A management command's error in one line: 2 for a usage mistake (Django's parser says
    "Error: ..."), 1 for anything else."""
    print(f"groundview {name}: {exc}", file=sys.stderr)
    return 2 if str(exc).startswith("Error: ") else 1


def export_labels(args) -> int:
    """`manage.py export_labels` with the same arguments: its parser holds the filter spec."""
    _django()
    from django.core.management import call_command
    from django.core.management.base import CommandError

    try:
        call_command("export_labels", *args.rest)
    except CommandError as exc:
        return _command_failed("export-labels", exc)
    return 0


def _requests(text: str) -> list:
    """The requests in a text: a JSON array or one request (pretty-printed or not), else one per
    line, where a line that is no JSON stays in its place as its RequestError and the others are
    still checked."""
    from groundview.grounding.schema import RequestError

    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        return []
    try:
        whole = json.loads(text)
    except (ValueError, RecursionError):
        # A document that is not one JSON value is JSONL, unless its first line is not JSON
        # either: then it is one broken document, and its own error says where.
        if not _is_json(lines[0][1]):
            raise
    else:
        return whole if isinstance(whole, list) else [whole]
    payloads: list = []
    for number, line in lines:
        try:
            payloads.append(json.loads(line))
        except (ValueError, RecursionError) as exc:
            reason = "nested too deeply to read" if isinstance(exc, RecursionError) else exc
            payloads.append(RequestError("", f"line {number}: invalid JSON: {reason}"))
    return payloads


def _score(text: str) -> float:
    # Imported when used: the engine package loads numpy, which `groundview serve` need not wait for.
    from groundview.grounding.schema import score_argument

    return score_argument(text)


def _positive(text: str) -> int:
    from groundview.grounding.gate import positive_int

    return positive_int(text)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def check(args) -> int:
    """Check Grounding requests, or Ragas / DeepEval rows (the CI gate), with the engine the server
    would use (settings.GROUNDING and the default checker version). Exit 2 for input or output
    that cannot be used; 1 for a failed gate (an error, a score under --min-support, or, with
    --min-support, nothing to check)."""
    from groundview.grounding.rows import InputError, read_input, rows_format

    if args.file != "-" and not Path(args.file).is_file():
        return _check_failed(f"{args.file}: no such file")
    try:
        text = read_input(args.file)
    except InputError as exc:
        return _check_failed(f"{args.file}: {exc}")
    found = rows_format(text, args.file)
    rows = args.rows or args.input_format == "csv" or found is not None
    if rows:
        args.input_format = args.input_format or found or "jsonl"  # check_rows need not look again
    if not rows and args.format == "csv":
        return _check_failed("--format csv is for Ragas/DeepEval rows; requests give JSONL")
    payloads: list = []
    if not rows:
        # Before the output is opened, so a broken input leaves an earlier result file alone.
        try:
            payloads = _requests(text)
        except (ValueError, RecursionError) as exc:
            message = "nested too deeply to read" if isinstance(exc, RecursionError) else exc
            return _check_failed(f"{args.file}: {message}")
    with contextlib.ExitStack() as stack:
        try:
            out = (
                stack.enter_context(open(args.output, "w", encoding="utf-8", newline=""))
                if args.output
                else sys.stdout
            )
        except OSError as exc:
            return _check_failed(f"{args.output}: cannot write: {exc.strerror or exc}")
        _django()
        from groundview.answers import checks

        if rows:
            from groundview.grounding.gate import check_rows

            args.rows = args.file
            stack.enter_context(contextlib.redirect_stdout(out))
            return check_rows(checks.get_engine(), args, text)
        return _check_requests(checks.get_engine(), payloads, out, args)


def _check_failed(message: str) -> int:
    print(f"groundview check: {message}", file=sys.stderr)
    return 2


def _check_requests(engine, payloads: list, out, args) -> int:
    from tqdm import tqdm

    from groundview.grounding.schema import RequestError

    errors = under = 0
    # A bar only for a person watching; logs and pipes get the summary line alone.
    with tqdm(
        total=len(payloads),
        unit="request",
        disable=args.quiet or not sys.stderr.isatty(),
        file=sys.stderr,
    ) as bar:
        for start in range(0, len(payloads), args.batch):
            batch = payloads[start : start + args.batch]
            good = [p for p in batch if not isinstance(p, RequestError)]
            checked = iter(engine.check_many(good, return_errors=True))
            for payload in batch:
                bad = isinstance(payload, RequestError)
                response = payload.to_json() if bad else next(checked)
                if "error" in response:
                    errors += 1
                elif args.min_support is not None and response["supportScore"] < args.min_support:
                    under += 1
                out.write(json.dumps(response, ensure_ascii=False) + "\n")
            bar.update(len(batch))
    summary = f"{len(payloads)} request(s), {errors} error(s)"
    if args.min_support is not None:
        summary += f", {under} under supportScore {args.min_support}"
    print(f"groundview check: {summary}", file=sys.stderr)
    if args.min_support is not None and not payloads:
        print("groundview check: no requests to check", file=sys.stderr)
        return 1
    return 1 if errors or under else 0


def token(args) -> int:
    _django()
    from django.core.management import call_command
    from django.core.management.base import CommandError
    from django.db import DatabaseError

    # As words, so the command's own parser checks them (call_command's keywords skip it).
    # "--user=X", so a value that starts with "-" is still a value.
    words = [f"--user={args.user}", f"--name={args.name}"]
    if args.expires is not None:
        words.append(f"--expires={args.expires}")
    try:
        call_command("create_api_token", *words)
    except CommandError as exc:
        return _command_failed("token create", exc)
    except DatabaseError as exc:
        # Most often a database nobody migrated yet ("no such table: auth_user").
        print(
            f"groundview token create: {exc}; if the database is new, run "
            "`groundview manage migrate` first",
            file=sys.stderr,
        )
        return 1
    return 0


def manage(args) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "groundview.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(["groundview manage", *args.rest])
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="groundview",
        description="Review grounded (RAG) answers. Configuration comes from the environment.",
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = commands.add_parser("serve", help="run the web app with gunicorn")
    p.add_argument("--host", default=os.environ.get("GROUNDVIEW_HOST", "127.0.0.1"))
    p.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    p.add_argument("--workers", type=int, help="processes (default: WEB_CONCURRENCY, else 2)")
    p.add_argument(
        "--timeout",
        type=int,
        help="seconds before a worker that stopped heartbeating is killed (default 120; "
        "requests run in threads and may take longer)",
    )
    p.add_argument("--no-migrate", action="store_true", help="skip `migrate` before starting")
    p.add_argument(
        "--no-collectstatic", action="store_true", help="skip `collectstatic` before starting"
    )
    p.set_defaults(run=serve)

    p = commands.add_parser("worker", help="run a Celery worker for grounding checks")
    p.add_argument("--concurrency", type=int, default=1, help="processes (each loads the model)")
    p.add_argument("--loglevel", default="INFO")
    # Any other option goes on to `celery worker` (main() collects them).
    p.set_defaults(run=worker)

    p = commands.add_parser("import", help="import Vertex answers (JSON or JSONL files, - = stdin)")
    p.add_argument("files", nargs="+")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar on a terminal")
    p.set_defaults(run=import_)

    p = commands.add_parser(
        "export",
        help="write stored answers as JSONL, filtered as the answer list is (see export --help)",
        add_help=False,
    )
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(run=export)

    p = commands.add_parser(
        "export-labels",
        help="write labelled answers for use without groundview (see export-labels --help)",
        add_help=False,
    )
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(run=export_labels)

    p = commands.add_parser(
        "check",
        help="check Check Grounding requests (JSON/JSONL) or Ragas/DeepEval rows (JSONL/CSV; the CI "
        "gate with --min-support) from a file (- = stdin)",
    )
    p.add_argument("file")
    p.add_argument("--output", "-o", help="file for the JSONL responses (default: stdout)")
    p.add_argument("--batch", type=_positive, default=16, help="requests checked together")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar on a terminal")
    p.add_argument(
        "--rows",
        action="store_true",
        help="the file holds Ragas/DeepEval rows (found out by itself for .csv and JSONL rows)",
    )
    p.add_argument("--input-format", choices=["jsonl", "csv"], help="rows: file format")
    p.add_argument(
        "--format", choices=["jsonl", "csv"], default="jsonl", help="rows: one line per claim as"
    )
    p.add_argument(
        "--min-support",
        type=_score,
        help="exit 1 when a row's or request's supportScore is under this, or nothing is checked",
    )
    p.set_defaults(run=check)

    p = commands.add_parser("token", help="API tokens")
    tokens = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    p = tokens.add_parser("create", help="create a token for a user and print it once")
    p.add_argument("--user", required=True, help="username the token acts as")
    p.add_argument("--name", default="cli", help="what the token is for")
    p.add_argument(
        "--expires", metavar="DAYS", help="days until it stops working (0: never; default 90)"
    )
    p.set_defaults(run=token)

    p = commands.add_parser("manage", help="any Django management command", add_help=False)
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(run=manage)
    return top


def main(argv: list[str] | None = None) -> int:
    top = parser()
    args, extra = top.parse_known_args(argv)
    if args.command == "worker":
        args.celery_args = extra
    elif args.command in ("manage", "export", "export-labels"):
        # Options before the first word (`groundview manage --help`) are Django's too.
        args.rest = [*extra, *args.rest]
    elif extra:
        top.error(f"unrecognized arguments: {' '.join(extra)}")
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
