"""Checks through real Celery workers (subprocesses) on the Redis test broker and PostgreSQL."""

import time

import pytest

from groundview.answers import checks
from groundview.answers.models import Answer, CheckRun
from groundview.answers.tasks import check_runs
from tests.factories import create_answer, create_sourced_answer

from .conftest import wait_for

pytestmark = pytest.mark.worker

Status = CheckRun.Status

TEXTS = [
    "Paris is the capital of France. It has about 2.1 million inhabitants.",
    "The Eiffel Tower was completed in 1889 and is 330 metres tall.",
    "巴黎是法国的首都。埃菲尔铁塔建于1889年。",
    "Die Seine fließt durch Paris. Café de Flore öffnete 1887. 🗼",
]
FACTS = [
    "Paris is the capital and largest city of France, with about 2.1 million residents.",
    "The Eiffel Tower, completed in 1889, is 330 metres (1,083 ft) tall.",
    "巴黎是法国的首都和最大城市。埃菲尔铁塔于1889年建成。",
    "Café de Flore, on the Left Bank of Paris, opened in 1887.",
]


def twenty_answers():
    return [
        create_answer(
            TEXTS[i % 4] + f" Answer {i}.",
            references=[
                {
                    "chunkInfo": {
                        "content": FACTS[(i + k) % 4],
                        "documentMetadata": {"title": f"t{k}"},
                    }
                }
                for k in range(3)
            ],
        )
        for i in range(20)
    ]


def finished(batch):
    return lambda: checks.batch_progress(batch).finished


@pytest.mark.model
def test_twenty_answers_each_get_one_succeeded_run_same_as_eager(workers, settings):
    # The real engine with the real MiniLM model, in the worker and, for eager mode, in this process.
    answers = twenty_answers()
    worker = workers.start(engine="")

    batch = checks.queue_checks(Answer.objects.all(), description="twenty")
    wait_for(finished(batch), 600, f"the batch to finish\n{workers.logs()}")

    progress = checks.batch_progress(batch)
    assert (progress.succeeded, progress.failed) == (20, 0), progress.failures
    assert CheckRun.objects.count() == 20
    assert sorted(CheckRun.objects.values_list("answer_id", flat=True)) == sorted(
        a.pk for a in answers
    )
    workers.kill(worker)

    # Eager mode (no broker): the same answers, checked in this process.
    from groundview.celery import app

    app.conf.task_always_eager = True
    eager = checks.queue_checks(Answer.objects.all(), description="eager")
    assert checks.batch_progress(eager).succeeded == 20
    for answer in answers:
        by_worker = CheckRun.objects.get(answer=answer, batch=batch)
        in_process = CheckRun.objects.get(answer=answer, batch=eager)
        assert in_process.request == by_worker.request
        assert_same_response(in_process.response, by_worker.response)
        assert by_worker.response["claims"]
        assert (in_process.engine_version, in_process.model_id) == (
            by_worker.engine_version,
            by_worker.model_id,
        )
        answer.refresh_from_db()
        assert answer.latest_check == in_process


def assert_same_response(a, b, path="response"):
    """Equal, except that scores may differ in the fourth decimal: in bfloat16 a sentence's
    embedding depends slightly on what else shares its batch (or was cached from an earlier one)."""
    if isinstance(a, float) or isinstance(b, float):
        assert a == pytest.approx(b, abs=2e-3), path
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), path
        for key in a:
            assert_same_response(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same_response(x, y, f"{path}[{i}]")
    else:
        assert a == b, path


def test_a_killed_worker_task_is_completed_by_another_worker(workers):
    answer = create_sourced_answer("Paris is the capital of France.")
    # The slow engine keeps the task running until the kill; Redis hands an unacknowledged task
    # to another consumer once the visibility timeout has passed.
    first = workers.start(
        engine="slow_engine", GROUNDVIEW_FAKE_ENGINE_DELAY=600, CELERY_VISIBILITY_TIMEOUT=5
    )
    checks.queue_checks([answer])
    run = CheckRun.objects.get()
    wait_for(
        lambda: CheckRun.objects.get().status == Status.RUNNING,
        120,
        f"the first worker to start the check\n{workers.logs()}",
    )

    workers.kill(first)  # SIGKILL to the worker and its pool processes
    run.refresh_from_db()
    assert (run.status, run.attempts) == (Status.RUNNING, 1)
    time.sleep(6)  # past the visibility timeout
    workers.start(engine="slow_engine", GROUNDVIEW_FAKE_ENGINE_DELAY=0, CELERY_VISIBILITY_TIMEOUT=5)

    wait_for(lambda: CheckRun.objects.get().is_finished, 120, f"the takeover\n{workers.logs()}")
    run.refresh_from_db()
    assert run.status == Status.SUCCEEDED
    assert run.attempts == 2
    assert CheckRun.objects.count() == 1
    assert not CheckRun.objects.filter(status__in=[Status.QUEUED, Status.RUNNING]).exists()
    answer.refresh_from_db()
    assert answer.latest_check == run


def test_a_task_delivered_twice_stores_one_run(workers):
    answer = create_sourced_answer()
    workers.start(engine="slow_engine", concurrency=2, GROUNDVIEW_FAKE_ENGINE_DELAY=1)
    batch = checks.queue_checks([answer])
    run = CheckRun.objects.get()
    check_runs.delay([run.pk])  # the duplicate

    wait_for(finished(batch), 120, f"the check\n{workers.logs()}")
    # Give the duplicate time to be consumed too, then make sure it changed nothing.
    time.sleep(2)
    run.refresh_from_db()
    assert run.status == Status.SUCCEEDED
    assert run.attempts == 1
    assert CheckRun.objects.count() == 1


def test_a_worker_whose_engine_raises_fails_the_run_and_the_batch_counts_it(workers):
    good = create_sourced_answer("Paris is the capital of France.")
    bad = create_sourced_answer("Paris 💥 France.")
    workers.start(engine="failing_engine")

    batch = checks.queue_checks([good, bad])
    wait_for(finished(batch), 120, f"the batch\n{workers.logs()}")

    progress = checks.batch_progress(batch)
    assert (progress.total, progress.succeeded, progress.failed) == (2, 1, 1)
    run = CheckRun.objects.get(answer=bad)
    assert progress.failures == [(run.pk, bad.name, "RuntimeError: engine exploded on 💥")]
    assert run.status == Status.FAILED
