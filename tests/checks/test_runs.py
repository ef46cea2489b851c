"""Running checks in-process (Celery eager mode, the embedded default) with a fake engine."""

import copy

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connections
from django.utils import timezone

from groundview.answers import checks
from groundview.answers.exporting import answer_jsonl
from groundview.answers.models import Answer, CheckRun, Reference
from tests.factories import create_sourced_answer

from .conftest import wait_for

pytestmark = pytest.mark.django_db

Status = CheckRun.Status


def queue(answers, capture, **kwargs):
    # Tasks go out on commit; the test's transaction never commits, so run the callbacks here.
    with capture(execute=True):
        return checks.queue_checks(answers, **kwargs)


def test_a_queued_check_stores_one_succeeded_run(fake_engine, django_capture_on_commit_callbacks):
    answer = create_sourced_answer("Paris is the capital of France. 🗼")
    raw_before = copy.deepcopy(answer.raw)
    exported_before = list(answer_jsonl(Answer.objects.all()))
    references_before = list(Reference.objects.values())

    batch = queue([answer], django_capture_on_commit_callbacks, description="first")

    run = CheckRun.objects.get()
    assert run.batch == batch
    assert run.status == Status.SUCCEEDED
    assert run.error == ""
    assert run.attempts == 1
    assert run.request == checks.build_request(answer)
    assert run.response["citedChunks"] == [
        {"chunkText": "Paris is the capital of France.", "source": "0"}
    ]
    assert run.support_score == run.response["supportScore"]
    assert run.fact_sources == [{"reference": 0, "chunk": None}]
    assert (run.engine_version, run.model_id) == ("fake-1", "fake-word-overlap")
    assert run.citation_threshold == run.request["groundingSpec"]["citationThreshold"]
    assert {"queue_ms", "build_ms", "engine_ms", "total_ms"} <= set(run.timings)
    assert run.started_at <= run.finished_at
    answer.refresh_from_db()
    assert answer.latest_check == run
    # The imported Vertex data is untouched.
    assert answer.raw == raw_before
    assert list(answer_jsonl(Answer.objects.all())) == exported_before
    assert list(Reference.objects.values()) == references_before


def test_runs_are_kept_and_the_answer_points_at_the_newest(
    fake_engine, django_capture_on_commit_callbacks
):
    answer = create_sourced_answer()
    queue([answer], django_capture_on_commit_callbacks)
    queue(Answer.objects.all(), django_capture_on_commit_callbacks)

    first, second = CheckRun.objects.order_by("pk")
    assert first.status == second.status == Status.SUCCEEDED
    answer.refresh_from_db()
    assert answer.latest_check == second

    # An older run finishing late does not take the answer back.
    checks.finish(first, first.request, [], first.response, "", {}, None)
    answer.refresh_from_db()
    assert answer.latest_check == second


def test_a_run_whose_text_was_replaced_while_it_ran_does_not_become_the_latest(
    fake_engine, django_capture_on_commit_callbacks
):
    answer = create_sourced_answer("Paris is the capital of France.")
    queue([answer], django_capture_on_commit_callbacks)
    run = CheckRun.objects.get()
    # A re-import replaced the text (and cleared the latest check) while the run was running.
    Answer.objects.filter(pk=answer.pk).update(answer_text="Lyon is 🦁.", latest_check=None)
    CheckRun.objects.filter(pk=run.pk).update(status=Status.RUNNING)
    run.refresh_from_db()

    assert checks.finish(run, run.request, [], run.response, "", {}, None)

    run.refresh_from_db()
    answer.refresh_from_db()
    assert run.status == Status.SUCCEEDED
    assert answer.latest_check is None


def test_running_a_finished_check_again_changes_nothing(
    fake_engine, django_capture_on_commit_callbacks
):
    answer = create_sourced_answer()
    queue([answer], django_capture_on_commit_callbacks)
    run = CheckRun.objects.get()

    again = checks.run_check(run.pk)

    assert CheckRun.objects.count() == 1
    assert again.finished_at == run.finished_at
    assert again.attempts == 1
    assert checks.run_checks([run.pk]) == checks.Outcome(skipped=1)


def test_a_run_left_running_by_a_dead_worker_is_taken_over(fake_engine):
    answer = create_sourced_answer()
    run = CheckRun.objects.create(answer=answer, status=Status.RUNNING, attempts=1)

    run = checks.run_check(run.pk)

    assert run.status == Status.SUCCEEDED
    assert run.attempts == 2


@pytest.mark.django_db(transaction=True)
def test_a_run_another_worker_holds_is_left_alone(fake_engine):
    if connections["default"].vendor != "postgresql":
        pytest.skip("run locks are PostgreSQL session locks")
    answer = create_sourced_answer()
    run = CheckRun.objects.create(answer=answer, status=Status.RUNNING, attempts=1)
    # Another connection stands for a live worker that is checking this run right now.
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s)", [run.pk])
        assert checks.run_checks([run.pk]) == checks.Outcome(skipped=1)
        run.refresh_from_db()
        assert (run.status, run.attempts) == (Status.RUNNING, 1)
    finally:
        other.close()
    # The live worker's connection is gone, so is its lock (once the server has noticed): the
    # run can be taken over now.
    outcomes = []
    wait_for(lambda: outcomes.append(checks.run_checks([run.pk])) or outcomes[-1].succeeded, 30, "")
    assert outcomes[-1] == checks.Outcome(succeeded=1)
    run.refresh_from_db()
    assert (run.status, run.attempts) == (Status.SUCCEEDED, 2)


def test_an_engine_that_raises_fails_its_run_and_the_batch_counts_it(
    settings, django_capture_on_commit_callbacks
):
    settings.GROUNDVIEW_CHECK_ENGINE = "tests.checks.fake_engines.failing_engine"
    good = create_sourced_answer("Paris is the capital of France.")
    bad = create_sourced_answer("Paris 💥 is the capital of France.")
    invalid = create_sourced_answer("INVALID Paris.")

    batch = queue([good, bad, invalid], django_capture_on_commit_callbacks)

    progress = checks.batch_progress(batch)
    assert (progress.total, progress.succeeded, progress.failed) == (3, 1, 2)
    assert (progress.queued, progress.running) == (0, 0)
    assert progress.finished
    bad_run = CheckRun.objects.get(answer=bad)
    invalid_run = CheckRun.objects.get(answer=invalid)
    assert progress.failures == [
        (bad_run.pk, bad.name, "RuntimeError: engine exploded on 💥"),
        (
            invalid_run.pk,
            invalid.name,
            "ValueError: answerCandidate: the fake engine rejects INVALID",
        ),
    ]
    assert bad_run.status == Status.FAILED
    assert bad_run.response is None
    assert bad_run.request == checks.build_request(bad)
    bad.refresh_from_db()
    assert bad.latest_check is None
    good.refresh_from_db()
    assert good.latest_check.status == Status.SUCCEEDED


def test_an_invalid_request_in_a_batch_fails_alone(settings):
    settings.GROUNDVIEW_CHECK_ENGINE = "tests.checks.fake_engines.fake_engine"
    runs = [
        CheckRun.objects.create(answer=create_sourced_answer(text))
        for text in ("Paris is nice.", "INVALID text.", "France is big.")
    ]

    outcome = checks.run_checks([run.pk for run in runs])

    assert outcome == checks.Outcome(succeeded=2, failed=1)
    runs[1].refresh_from_db()
    assert runs[1].status == Status.FAILED
    assert runs[1].error == "RequestError: answerCandidate: the fake engine rejects INVALID"
    runs[0].refresh_from_db()
    assert runs[0].timings["batch_size"] == 3


def test_batches_of_tasks_follow_the_batch_size_setting(
    fake_engine, settings, django_capture_on_commit_callbacks, monkeypatch
):
    settings.GROUNDVIEW_CHECK_BATCH_SIZE = 2
    sent = []
    from groundview.answers import tasks

    monkeypatch.setattr(tasks.check_runs, "delay", sent.append)
    answers = [create_sourced_answer() for _ in range(5)]

    queue(answers, django_capture_on_commit_callbacks)

    run_ids = list(CheckRun.objects.order_by("pk").values_list("pk", flat=True))
    assert sent == [run_ids[0:2], run_ids[2:4], run_ids[4:5]]


def test_nothing_is_sent_before_the_transaction_commits(
    fake_engine, django_capture_on_commit_callbacks
):
    answer = create_sourced_answer()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        checks.queue_checks([answer])
        assert CheckRun.objects.get().status == Status.QUEUED
    assert len(callbacks) == 1


def test_checks_after_import_follow_the_setting(
    fake_engine, settings, django_capture_on_commit_callbacks
):
    answer = create_sourced_answer()
    settings.GROUNDVIEW_CHECK_ON_IMPORT = False
    assert checks.queue_checks_after_import([answer.pk]) is None
    assert not CheckRun.objects.exists()

    settings.GROUNDVIEW_CHECK_ON_IMPORT = True
    with django_capture_on_commit_callbacks(execute=True):
        batch = checks.queue_checks_after_import([answer.pk])
    assert checks.batch_progress(batch).succeeded == 1


@pytest.mark.parametrize("state", ["STREAMING", "IN_PROGRESS"])
def test_an_answer_still_being_generated_is_not_checked_after_import(fake_engine, settings, state):
    settings.GROUNDVIEW_CHECK_ON_IMPORT = True
    streaming = create_sourced_answer(state=state)

    assert checks.queue_checks_after_import([streaming.pk]) is None
    assert not CheckRun.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_check_answers_command_filters_and_waits(
    fake_engine, django_capture_on_commit_callbacks, capsys
):
    checked = create_sourced_answer()
    create_sourced_answer(state="FAILED")
    unchecked = create_sourced_answer()
    queue([checked], django_capture_on_commit_callbacks)

    with django_capture_on_commit_callbacks(execute=True):
        call_command(
            "check_answers", "--session", "s1", "--state", "SUCCEEDED", "--only-unchecked", "--wait"
        )

    out, err = capsys.readouterr()
    run = CheckRun.objects.get(answer=unchecked)
    assert run.status == Status.SUCCEEDED
    assert CheckRun.objects.count() == 2
    assert f"Queued 1 check(s) in batch {run.batch_id}." in out
    assert f"Batch {run.batch_id}: 1 succeeded, 0 failed." in out
    assert "succeeded=1" in err  # the progress bar


@pytest.mark.django_db(transaction=True)
def test_check_answers_command_exits_non_zero_on_failures(settings, capsys):
    settings.GROUNDVIEW_CHECK_ENGINE = "tests.checks.fake_engines.failing_engine"
    bad = create_sourced_answer("💥")

    with pytest.raises(CommandError) as error:
        call_command("check_answers", "--wait", "--timeout", "60")

    assert str(error.value) == "1 check(s) failed"
    assert f"({bad.name}): RuntimeError: engine exploded on 💥" in capsys.readouterr().err


def test_check_answers_command_with_nothing_to_do(capsys):
    call_command("check_answers", "--state", "STREAMING")

    assert capsys.readouterr().out == "No answers match; nothing queued.\n"
    assert not CheckRun.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_import_answers_queues_checks_when_configured(fake_engine, settings, tmp_path, capsys):
    settings.GROUNDVIEW_CHECK_ON_IMPORT = True
    path = tmp_path / "answers.jsonl"
    path.write_text(
        '{"name": "projects/1/locations/global/collections/c/engines/e/sessions/s/answers/x",'
        ' "answerText": "Paris.", "references": [{"chunkInfo": {"content": "Paris."}}]}\n',
        encoding="utf-8",
    )

    call_command("import_answers", str(path))
    call_command("import_answers", str(path))  # unchanged: nothing new to check

    run = CheckRun.objects.get()
    assert run.status == Status.SUCCEEDED
    assert f"queued grounding checks: batch {run.batch_id}" in capsys.readouterr().out


def test_a_run_that_keeps_taking_its_worker_down_is_failed(fake_engine):
    answer = create_sourced_answer()
    run = CheckRun.objects.create(
        answer=answer, status=Status.RUNNING, attempts=checks.MAX_ATTEMPTS
    )

    run = checks.run_check(run.pk)

    assert run.status == Status.FAILED
    assert run.error == "the worker was lost 3 times while checking this answer"
    assert run.attempts == checks.MAX_ATTEMPTS


def flaky(monkeypatch, failures):
    """Make checks.run_checks raise a database OperationalError the first `failures` times."""
    from django.db import OperationalError

    calls = []
    real = checks.run_checks

    def run_checks(run_ids, taken_ids=None):
        calls.append(run_ids)
        if len(calls) <= failures:
            raise OperationalError("server closed the connection unexpectedly")
        return real(run_ids, taken_ids)

    monkeypatch.setattr(checks, "run_checks", run_checks)
    return calls


def test_transient_database_errors_are_retried(fake_engine, monkeypatch):
    from groundview.answers.tasks import check_runs

    run = CheckRun.objects.create(answer=create_sourced_answer())
    calls = flaky(monkeypatch, failures=2)

    check_runs.apply(args=[[run.pk]])

    assert len(calls) == 3
    run.refresh_from_db()
    assert run.status == Status.SUCCEEDED


def test_retries_after_a_take_are_not_counted_as_lost_workers(fake_engine, monkeypatch):
    # A database that drops the connection each time after the run was taken, more times than
    # a run may lose its worker: the retries are the same worker, so the run still succeeds.
    from django.db import OperationalError

    from groundview.answers.checks.running import take_run
    from groundview.answers.tasks import check_runs

    run = CheckRun.objects.create(answer=create_sourced_answer())
    failures = checks.MAX_ATTEMPTS + 1
    real = checks.run_checks
    calls = []

    def run_checks(run_ids, taken_ids=None):
        calls.append(run_ids)
        if len(calls) <= failures:
            taken_ids.append(take_run(run_ids[0]).pk)
            raise OperationalError("server closed the connection unexpectedly")
        return real(run_ids, taken_ids)

    monkeypatch.setattr(checks, "run_checks", run_checks)

    check_runs.apply(args=[[run.pk]])

    assert len(calls) == failures + 1
    run.refresh_from_db()
    assert (run.status, run.error) == (Status.SUCCEEDED, "")
    assert run.attempts == 1


def test_a_task_that_keeps_failing_transiently_fails_its_runs(fake_engine, monkeypatch):
    from groundview.answers.tasks import MAX_RETRIES, check_runs

    run = CheckRun.objects.create(answer=create_sourced_answer())
    calls = flaky(monkeypatch, failures=100)

    check_runs.apply(args=[[run.pk]])

    assert len(calls) == MAX_RETRIES + 1
    run.refresh_from_db()
    assert run.status == Status.FAILED
    assert run.error == (
        f"gave up after {MAX_RETRIES + 1} attempts: "
        "OperationalError: server closed the connection unexpectedly"
    )


def test_runs_whose_task_cannot_be_sent_wait_for_the_sweep(
    fake_engine, monkeypatch, settings, django_capture_on_commit_callbacks
):
    from kombu.exceptions import OperationalError

    from groundview.answers import tasks

    attempts = []

    def unreachable(run_ids):
        attempts.append(run_ids)
        raise OperationalError("Error 111 connecting to redis:6379. Connection refused.")

    monkeypatch.setattr(tasks.check_runs, "delay", unreachable)
    settings.GROUNDVIEW_CHECK_BATCH_SIZE = 1

    # Given a broker that is down while two checks are queued
    batch = queue(
        [create_sourced_answer(), create_sourced_answer("Rome is old.")],
        django_capture_on_commit_callbacks,
    )

    # then the runs stay queued, due at once, and one publish was tried, not one per run
    progress = checks.batch_progress(batch)
    assert (progress.failed, progress.queued) == (0, 2)
    assert len(attempts) == 1
    assert set(checks.select_stale_runs()) == set(CheckRun.objects.filter(batch=batch))

    # and once the broker is back, the sweep sends them and they are checked
    sweep = checks.requeue_stale()
    assert sorted(sweep.requeued) == sorted(r.pk for r in CheckRun.objects.filter(batch=batch))
    checks.run_checks(sweep.requeued)
    assert checks.batch_progress(batch).succeeded == 2


@pytest.mark.model
@pytest.mark.parametrize("text", ["", "Let me know if you have other questions."])
def test_an_answer_with_nothing_to_check_gets_no_score(text, django_capture_on_commit_callbacks):
    # Given an answer with no claim that needs a check, checked by the real engine
    answer = create_sourced_answer(text)

    queue([answer], django_capture_on_commit_callbacks)

    run = CheckRun.objects.get()
    assert run.status == Status.SUCCEEDED
    assert run.response["supportScore"] == 1.0  # the engine's answer is stored as it was ...
    assert run.support_score is None  # ... but it does not rank the answer as well grounded


def test_an_answer_whose_request_cannot_be_built_fails_alone(fake_engine, monkeypatch):
    from groundview.answers.checks import running

    good = CheckRun.objects.create(answer=create_sourced_answer("Paris is nice."))
    broken = CheckRun.objects.create(answer=create_sourced_answer("France is big."))
    build = running.prepare_request

    def prepare(answer):
        if answer.pk == broken.answer_id:
            raise KeyError("references")
        return build(answer)

    monkeypatch.setattr(running, "prepare_request", prepare)

    assert checks.run_checks([broken.pk, good.pk]) == checks.Outcome(succeeded=1, failed=1)
    broken.refresh_from_db()
    assert (broken.status, broken.error) == (
        Status.FAILED,
        "cannot build the request: KeyError: 'references'",
    )
    good.refresh_from_db()
    assert (good.status, good.timings["batch_size"]) == (Status.SUCCEEDED, 1)


def test_a_failing_task_leaves_the_runs_another_worker_is_running(fake_engine, monkeypatch):
    if connections["default"].vendor != "postgresql":
        pytest.skip("run locks are PostgreSQL session locks")
    from groundview.answers.checks import running
    from groundview.answers.tasks import check_runs

    mine = CheckRun.objects.create(answer=create_sourced_answer("Paris is nice."))
    untaken = CheckRun.objects.create(answer=create_sourced_answer("Rome is old."))
    theirs = CheckRun.objects.create(
        answer=create_sourced_answer("France is big."), status=Status.RUNNING, attempts=1
    )

    def finish(*args, **kwargs):
        raise RuntimeError("a bug while storing")

    monkeypatch.setattr(running, "finish", finish)
    other = connections.create_connection("default")
    try:
        # A live worker is checking `theirs` (the sweep sent its message again, with the others).
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_lock(%s)", [theirs.pk])
        # `untaken` is in the message too, but the task fails before it gets to it.
        monkeypatch.setattr(running, "take_run", taking_only(running.take_run, mine.pk))
        check_runs.apply(args=[[mine.pk, theirs.pk, untaken.pk]])
    finally:
        other.close()

    statuses = {
        run.pk: (run.status, run.error)
        for run in CheckRun.objects.filter(pk__in=[mine.pk, theirs.pk, untaken.pk])
    }
    assert statuses == {
        mine.pk: (Status.FAILED, "RuntimeError: a bug while storing"),
        untaken.pk: (Status.FAILED, "RuntimeError: a bug while storing"),
        theirs.pk: (Status.RUNNING, ""),
    }


def taking_only(take_run, run_id):
    return lambda pk: take_run(pk) if pk == run_id else None


def test_with_a_broker_a_rerun_joins_a_queued_run_the_sweep_will_send(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    answer = create_sourced_answer()
    # Its message could not be published (the broker was down): due at once for the sweep.
    waiting = CheckRun.objects.create(answer=answer, lease_expires_at=timezone.now())

    joined, created = checks.join_or_queue_check(answer, send=lambda run_ids: None)

    assert (joined.pk, created) == (waiting.pk, False)
    assert CheckRun.objects.filter(answer=answer).count() == 1


def test_a_rerun_joins_a_live_run_and_replaces_one_nothing_will_finish(settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    answer = create_sourced_answer()
    live = CheckRun.objects.create(answer=answer, status=Status.RUNNING, attempts=1)

    joined, created = checks.join_or_queue_check(answer, send=lambda run_ids: None)
    assert (joined.pk, created) == (live.pk, False)

    # The process running it was restarted: its lease ran out and nothing sweeps in eager mode.
    CheckRun.objects.filter(pk=live.pk).update(lease_expires_at=timezone.now())
    new, created = checks.join_or_queue_check(answer, send=lambda run_ids: None)

    assert created and new.pk != live.pk
    live.refresh_from_db()
    assert live.status == Status.FAILED
    assert live.error == checks.STOPPED


def test_a_worker_session_lets_the_server_notice_a_vanished_worker_in_minutes(fake_engine):
    if connections["default"].vendor != "postgresql":
        pytest.skip("run locks are PostgreSQL session locks")
    run = CheckRun.objects.create(answer=create_sourced_answer())

    checks.run_checks([run.pk])

    # The locks die with the session; the server now probes a silent client after a minute.
    with connections["default"].cursor() as cursor:
        cursor.execute("SHOW tcp_keepalives_idle")
        assert cursor.fetchone()[0] == "60"
