"""Grounding checks per minute through Celery workers, against the engine's own in-process rate.

    .venv/bin/python bench/throughput.py [--answers 60]

Needs PostgreSQL and Redis (BENCH_DATABASE_URL, default a `gv_bench` database it creates, and
BENCH_BROKER_URL, default Redis database 14, which it flushes). Each answer is a typical request:
five sentences and ten facts of about 1,000 characters, every text distinct so the engine's
embedding cache cannot help. For each configuration (worker processes x torch threads, checks per
task) it measures, back to back on the same answers: a fresh, warm engine in this process with the
same threads and batching, then fresh worker processes, warmed up on other answers before the clock
starts; their clock runs from queueing the batch to the last run stored. The ratio, workers' rate
over processes x in-process rate, is what the queue (task messages, claiming runs, loading answers,
storing results) and imperfect scaling cost on top of the engine's own work.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchdb import ROOT, use_database  # noqa: E402

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
    os.environ["CELERY_BROKER_URL"] = BROKER_URL
    use_database(DATABASE_URL.rpartition("/")[2])


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


def in_process_rate(answer_ids: list[int], threads: int, batch_size: int) -> float:
    """Answers per minute of a fresh, warm engine in this process: engine.check one request at a
    time (batch_size 1) or engine.check_many over batch_size requests."""
    from dataclasses import replace

    from groundview.answers import checks
    from groundview.answers.models import Answer
    from groundview.grounding import Engine

    requests = [checks.build_request(a) for a in Answer.objects.filter(pk__in=answer_ids)]
    # Fresh, so its embedding cache is as empty as a new worker's.
    engine = Engine(replace(checks.engine_config(), num_threads=threads))
    engine.warm_up()
    started = time.perf_counter()
    if batch_size == 1:
        for request in requests:
            engine.check(request)
    else:
        for start in range(0, len(requests), batch_size):
            engine.check_many(requests[start : start + batch_size])
    return len(requests) / (time.perf_counter() - started) * 60


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
        time.sleep(0.25)  # polling is light, but the workers need the cores
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
    print(
        f"{args.answers} answers, each 5 sentences and 10 facts of ~1,000 characters; {cores} cores"
    )

    rows = []
    configs = [(1, 1), (1, args.batch_size), (2, 1), (2, args.batch_size)]
    for round_, (processes, batch_size) in enumerate(configs):
        threads = max(1, cores // processes)
        warm = load_answers(2 * processes, f"w{round_}-")
        answers = load_answers(args.answers, f"r{round_}-")
        # The baseline runs right before the workers, on the same answers: the machine is shared
        # and its load drifts, so only neighbours in time compare well.
        baseline = in_process_rate(answers, threads, batch_size)
        with tempfile.TemporaryDirectory() as tmp:
            worker = start_worker(processes, threads, Path(tmp) / "worker.log")
            try:
                run_batch(warm, 1)  # the model is loaded in every process before the clock starts
                seconds = run_batch(answers, batch_size)
            except SystemExit:
                print((Path(tmp) / "worker.log").read_text()[-3000:], file=sys.stderr)
                raise
            finally:
                os.killpg(worker.pid, signal.SIGTERM)
                worker.wait(timeout=60)
        rate = args.answers / seconds * 60
        rows.append((processes, threads, batch_size, baseline, rate))
        print(
            f"{processes} worker process(es) x {threads} torch thread(s), {batch_size} check(s)/task: "
            f"{rate:.1f} answers/min; in-process {baseline:.1f}",
            flush=True,
        )

    print()
    print(
        "In-process: one warm engine, same torch threads and batching, same answers, just before."
    )
    print("ratio: workers' rate / in-process rate;")
    print(
        "per process: workers' rate / (processes x in-process rate), 1.00 = the queue costs nothing"
    )
    print("and the processes scale perfectly (they cannot when other work holds the cores).")
    print()
    print(
        "processes | threads each | checks/task | in-process /min | workers /min | ratio | per process"
    )
    for processes, threads, batch_size, baseline, rate in rows:
        print(
            f"{processes:9d} | {threads:12d} | {batch_size:11d} | {baseline:15.1f} | {rate:12.1f} | "
            f"{rate / baseline:5.2f} | {rate / (processes * baseline):11.2f}"
        )
    load = os.getloadavg()
    print(f"\nload average during the run (1/5/15 min): {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    redis.Redis.from_url(BROKER_URL).flushdb()


if __name__ == "__main__":
    main()
