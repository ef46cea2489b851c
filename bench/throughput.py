"""Grounding checks per minute through Celery workers, against the engine's own in-process rate.

    .venv/bin/python bench/throughput.py [--answers 60]

Needs PostgreSQL and Redis (BENCH_DATABASE_URL, default a `gv_bench` database it creates, and
BENCH_BROKER_URL, default Redis database 14, which it flushes). Each answer is a typical request:
five sentences and ten facts of about 1,000 characters, every text distinct so the engine's embedding
cache cannot help. The in-process rates use a fresh engine, warmed up; each worker configuration runs
fresh worker processes, warmed up on other answers before the clock starts. The clock then runs from
queueing the batch to the last run stored, so the ratio is what the queue (task messages, claiming,
loading answers, storing runs) costs on top of the engine's work.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATABASE_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gv_bench")
BROKER_URL = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/14")
SESSION = "projects/bench/locations/global/collections/c/engines/e/sessions/bench"

WORDS = [
    "river",
    "harbour",
    "council",
    "festival",
    "railway",
    "museum",
    "bridge",
    "province",
    "market",
    "library",
    "century",
    "treaty",
    "engineer",
    "vineyard",
    "glacier",
    "observatory",
    "cathedral",
    "tramway",
    "orchard",
    "lighthouse",
    "canal",
    "senate",
    "archive",
    "fortress",
    "meadow",
    "quarry",
    "factory",
    "theatre",
    "academy",
    "monastery",
    "pavilion",
]
MONTHS = "January February March April May June July August September October November December"


def sentence(rng: random.Random, tag: str) -> str:
    words = rng.sample(WORDS, 6)
    return (
        f"The {words[0]} of {tag} opened its {words[1]} in {rng.choice(MONTHS.split())} "
        f"{rng.randint(1700, 2020)} with {rng.randint(2, 9000):,} {words[2]}s near the {words[3]}, "
        f"after the {words[4]} approved the {words[5]}."
    )


def answer_document(index: int, prefix: str) -> dict:
    rng = random.Random(f"{prefix}{index}")
    tag = f"{prefix.title()}town-{index}"
    facts = []
    for _ in range(10):
        text = " ".join(sentence(rng, tag) for _ in range(8))
        facts.append(text[:1000])
    # Claims: some copied from the facts (supported), some made up.
    claims = [rng.choice(facts).split(". ")[0] + "." for _ in range(3)]
    claims += [sentence(rng, tag) for _ in range(2)]
    return {
        "name": f"{SESSION}/answers/{prefix}{index}",
        "state": "SUCCEEDED",
        "answerText": " ".join(claims),
        "references": [
            {"chunkInfo": {"content": fact, "documentMetadata": {"title": f"{tag} {k}"}}}
            for k, fact in enumerate(facts)
        ],
    }


def setup_django() -> None:
    import psycopg

    base, _, name = DATABASE_URL.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = DATABASE_URL
    os.environ["CELERY_BROKER_URL"] = BROKER_URL
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "groundview.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def load_answers(count: int, prefix: str) -> list[int]:
    import json

    from groundview.answers import importing
    from groundview.answers.models import Answer

    text = "\n".join(json.dumps(answer_document(i, prefix)) for i in range(count))
    result = importing.import_text(text)
    assert not result.problems, result.problems
    return list(
        Answer.objects.filter(name__startswith=f"{SESSION}/answers/{prefix}").values_list(
            "pk", flat=True
        )
    )


def in_process_rates(answer_ids: list[int], batch_size: int) -> tuple[float, float]:
    """Answers per minute: engine.check one at a time, and engine.check_many in batches."""
    from groundview.answers import checks
    from groundview.answers.models import Answer
    from groundview.grounding import Engine

    requests = [checks.build_request(a) for a in Answer.objects.filter(pk__in=answer_ids)]
    rates = []
    for batched in (False, True):
        engine = Engine(checks.engine_config())  # fresh: an empty embedding cache
        engine.warm_up()
        started = time.perf_counter()
        if batched:
            for start in range(0, len(requests), batch_size):
                engine.check_many(requests[start : start + batch_size])
        else:
            for request in requests:
                engine.check(request)
        rates.append(len(requests) / (time.perf_counter() - started) * 60)
    return rates[0], rates[1]


def start_worker(processes: int, threads: int, log: Path) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": DATABASE_URL,
        "CELERY_BROKER_URL": BROKER_URL,
        "GROUNDING_NUM_THREADS": str(threads),
        "PYTHONPATH": str(ROOT),
    }
    return subprocess.Popen(
        [
            str(Path(sys.executable).with_name("celery")),
            "-A",
            "groundview",
            "worker",
            f"--concurrency={processes}",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=WARNING",
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def run_batch(answer_ids: list[int], batch_size: int, timeout: float = 1800) -> float:
    """Seconds from queueing a batch of checks to its last run stored."""
    from django.conf import settings

    from groundview.answers import checks
    from groundview.answers.models import Answer

    settings.GROUNDVIEW_CHECK_BATCH_SIZE = batch_size
    started = time.perf_counter()
    batch = checks.queue_checks(Answer.objects.filter(pk__in=answer_ids), description="bench")
    deadline = started + timeout
    while True:
        progress = checks.batch_progress(batch)
        if progress.finished:
            break
        if time.perf_counter() > deadline:
            raise SystemExit(f"timed out: {progress}")
        time.sleep(0.05)
    elapsed = time.perf_counter() - started
    if progress.failed:
        raise SystemExit(f"{progress.failed} check(s) failed: {progress.failures[:3]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--answers", type=int, default=60)
    parser.add_argument("--batch-size", type=int, default=8, help="checks per task (batched runs)")
    args = parser.parse_args()

    setup_django()
    import redis

    from groundview.answers.models import Answer, CheckBatch

    redis.Redis.from_url(BROKER_URL).flushdb()
    CheckBatch.objects.all().delete()
    Answer.objects.filter(name__startswith=SESSION).delete()
    cores = os.cpu_count() or 1
    timed = load_answers(args.answers, "a")
    print(
        f"{args.answers} answers, each 5 sentences and 10 facts of ~1,000 characters; {cores} cores"
    )

    single, batched = in_process_rates(timed, args.batch_size)
    print(f"in-process engine.check:                     {single:7.1f} answers/min")
    print(
        f"in-process engine.check_many (batch {args.batch_size}):     {batched:7.1f} answers/min "
        f"({batched / single:.2f}x)"
    )

    rows = []
    configs = [(1, 1), (1, args.batch_size), (2, 1), (2, args.batch_size)]
    for round_, (processes, batch_size) in enumerate(configs):
        threads = max(1, cores // processes)
        warm = load_answers(2 * processes, f"w{round_}-")
        timed_round = load_answers(args.answers, f"r{round_}-")
        with tempfile.TemporaryDirectory() as tmp:
            worker = start_worker(processes, threads, Path(tmp) / "worker.log")
            try:
                run_batch(warm, 1)  # model loaded in every process before the clock starts
                seconds = run_batch(timed_round, batch_size)
            except SystemExit:
                print((Path(tmp) / "worker.log").read_text()[-3000:], file=sys.stderr)
                raise
            finally:
                os.killpg(worker.pid, signal.SIGTERM)
                worker.wait(timeout=60)
        rate = args.answers / seconds * 60
        rows.append((processes, threads, batch_size, seconds, rate))

    print()
    print(
        "worker processes | torch threads each | checks per task | seconds | answers/min | vs in-process check"
    )
    for processes, threads, batch_size, seconds, rate in rows:
        print(
            f"{processes:16d} | {threads:18d} | {batch_size:15d} | {seconds:7.1f} | {rate:11.1f} | "
            f"{rate / single:.2f}"
        )
    redis.Redis.from_url(BROKER_URL).flushdb()


if __name__ == "__main__":
    main()
