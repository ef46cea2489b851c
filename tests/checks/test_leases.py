"""Run leases and the sweep that sends stranded runs again (groundview/answers/checks/leases.py)."""

import threading
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection, connections
from django.db.models.query import QuerySet
from django.urls import reverse
from django.utils import timezone

from groundview.answers import checks
from groundview.answers.models import CheckRun
from tests.factories import create_sourced_answer

pytestmark = pytest.mark.django_db

Status = CheckRun.Status


@pytest.fixture
def sent(monkeypatch):
    """The run ids of every task published, in order (no task is run)."""
    from groundview.answers import tasks

    published = []
    lock = threading.Lock()

    def delay(run_ids):
        with lock:
            published.extend(run_ids)

    monkeypatch.setattr(tasks.check_runs, "delay", delay)
    return published


def stale(answer, status=Status.QUEUED, **fields):
    past = timezone.now() - timedelta(seconds=1)
    return CheckRun.objects.create(answer=answer, status=status, lease_expires_at=past, **fields)


def test_a_queued_run_holds_a_lease_and_a_started_one_renews_it(settings):
    settings.GROUNDVIEW_STALE_RUN_SECONDS = 120
    before = timezone.now()
    run = CheckRun.objects.create(answer=create_sourced_answer())
    assert before + timedelta(seconds=120) <= run.lease_expires_at
    assert run.lease_expires_at <= timezone.now() + timedelta(seconds=120)

    CheckRun.objects.filter(pk=run.pk).update(
        status=Status.RUNNING, lease_expires_at=before - timedelta(hours=1)
    )
    assert checks.renew_leases([run.pk]) == 1
    run.refresh_from_db()
    assert run.lease_expires_at >= before + timedelta(seconds=120)


def test_the_sweep_sends_stale_runs_once_and_leaves_the_rest(
    settings, sent, django_capture_on_commit_callbacks
):
    settings.GROUNDVIEW_STALE_RUN_SECONDS = 60
    answer = create_sourced_answer()
    lost_message = stale(answer)
    lost_worker = stale(answer, Status.RUNNING, attempts=1)
    fresh = CheckRun.objects.create(answer=answer)
    done = stale(answer, Status.SUCCEEDED)

    with django_capture_on_commit_callbacks(execute=True):
        sweep = checks.requeue_stale()
    with django_capture_on_commit_callbacks(execute=True):
        again = checks.requeue_stale()

    assert sweep.requeued == [lost_message.pk, lost_worker.pk]
    assert not again
    assert sent == [lost_message.pk, lost_worker.pk]
    for run in (lost_message, lost_worker, fresh, done):
        run.refresh_from_db()
    # Statuses stay: a worker that gets the message takes the run over (attempts count there).
    assert (lost_message.status, lost_worker.status) == (Status.QUEUED, Status.RUNNING)
    assert (lost_message.requeues, lost_worker.requeues, fresh.requeues) == (1, 1, 0)
    assert lost_message.lease_expires_at > timezone.now() + timedelta(seconds=50)


def test_a_run_requeued_again_and_again_waits_longer_each_time(settings, sent):
    settings.GROUNDVIEW_STALE_RUN_SECONDS = 60
    run = stale(create_sourced_answer(), requeues=3)

    checks.requeue_stale()

    run.refresh_from_db()
    # 2**3 leases: a run waiting behind a long queue is not sent once a lease.
    wait = run.lease_expires_at - timezone.now()
    assert timedelta(seconds=8 * 60 - 5) < wait <= timedelta(seconds=8 * 60)


def test_a_run_that_lost_its_worker_max_attempts_times_is_given_up(
    sent, django_capture_on_commit_callbacks
):
    run = stale(create_sourced_answer(), Status.RUNNING, attempts=checks.MAX_ATTEMPTS)

    with django_capture_on_commit_callbacks(execute=True):
        sweep = checks.requeue_stale()

    assert (sweep.requeued, sweep.given_up) == ([], [run.pk])
    assert sent == []
    run.refresh_from_db()
    assert run.status == Status.FAILED
    assert run.error == "the worker was lost 3 times while checking this answer"
    assert run.finished_at is not None


def test_a_sweep_that_cannot_publish_leaves_the_run_for_the_next(
    monkeypatch, django_capture_on_commit_callbacks
):
    from kombu.exceptions import OperationalError

    from groundview.answers import tasks

    def unreachable(run_ids):
        raise OperationalError("Error 111 connecting to redis:6379. Connection refused.")

    monkeypatch.setattr(tasks.check_runs, "delay", unreachable)
    run = stale(create_sourced_answer())

    with django_capture_on_commit_callbacks(execute=True):
        checks.requeue_stale()

    run.refresh_from_db()
    assert (run.status, run.error, run.requeues) == (Status.QUEUED, "", 1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("row_locks", [True, False], ids=["row locks", "no row locks"])
def test_concurrent_sweeps_send_each_stale_run_once(sent, monkeypatch, row_locks):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent sweeps need a database that takes concurrent writers")
    if not row_locks:
        # As on a database without SELECT ... FOR UPDATE: the compare-and-set alone must do.
        monkeypatch.setattr(QuerySet, "select_for_update", lambda self, **kwargs: self)
    answer = create_sourced_answer()
    runs = [stale(answer) for _ in range(60)] + [
        stale(answer, Status.RUNNING, attempts=1) for _ in range(60)
    ]
    start = threading.Barrier(4)
    errors = []

    def sweep():
        try:
            start.wait()
            checks.requeue_stale()
        except Exception as exc:  # reported below, with the test's traceback
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=sweep) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert not errors
    assert sorted(sent) == sorted(run.pk for run in runs)
    assert set(CheckRun.objects.values_list("requeues", flat=True)) == {1}


@pytest.mark.django_db(transaction=True)
def test_a_running_run_keeps_its_lease_while_the_worker_works(settings):
    if connection.vendor != "postgresql":
        pytest.skip("the renewing thread needs its own connection to the same database")
    settings.GROUNDVIEW_STALE_RUN_SECONDS = 1
    run = CheckRun.objects.create(
        answer=create_sourced_answer(), status=Status.RUNNING, lease_expires_at=timezone.now()
    )

    with checks.leases.holding_leases([run.pk]):
        time.sleep(1.5)  # longer than a lease: only renewals keep it from going stale
        assert not checks.select_stale_runs().exists()

    run.refresh_from_db()
    assert run.lease_expires_at > timezone.now()


def test_requeue_stale_command(sent, capsys, django_capture_on_commit_callbacks):
    answer = create_sourced_answer()
    lost = stale(answer)
    given_up = stale(answer, Status.RUNNING, attempts=checks.MAX_ATTEMPTS)
    fresh = CheckRun.objects.create(answer=answer)

    with django_capture_on_commit_callbacks(execute=True):
        call_command("requeue_stale")
    out = capsys.readouterr().out
    assert f"Sent 1 stale run(s) again: {lost.pk}." in out
    assert f"Failed 1 run(s) that lost their worker 3 times: {given_up.pk}." in out
    assert sent == [lost.pk]

    with django_capture_on_commit_callbacks(execute=True):
        call_command("requeue_stale", "--all")
    assert sent == [lost.pk, lost.pk, fresh.pk]


def test_admin_action_sends_selected_unfinished_runs_again(
    admin_client, sent, django_capture_on_commit_callbacks
):
    answer = create_sourced_answer()
    queued = CheckRun.objects.create(answer=answer)  # lease not run out: the admin decides
    done = stale(answer, Status.SUCCEEDED)

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            reverse("admin:answers_checkrun_changelist"),
            {"action": "requeue", "_selected_action": [queued.pk, done.pk]},
            follow=True,
        )

    assert response.status_code == 200
    assert "Sent 1 run(s) again" in response.content.decode()
    assert sent == [queued.pk]
    done.refresh_from_db()
    assert done.status == Status.SUCCEEDED
