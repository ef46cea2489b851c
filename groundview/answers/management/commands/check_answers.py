import time

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q
from tqdm import tqdm

from groundview.answers import checks
from groundview.answers.models import Answer


class Command(BaseCommand):
    help = (
        "Queue grounding checks of stored answers (one new run each, in one batch). "
        "With --wait, show progress until every check has finished; exits 1 if any failed."
    )

    def add_arguments(self, parser):
        parser.add_argument("--session", help="session name, or its last part")
        parser.add_argument("--state", help="answer state, e.g. SUCCEEDED")
        parser.add_argument(
            "--only-unchecked", action="store_true", help="skip answers with a succeeded check"
        )
        parser.add_argument("--wait", action="store_true", help="wait for the checks to finish")
        parser.add_argument(
            "--timeout",
            type=float,
            default=None,
            help="with --wait: give up after this many seconds",
        )

    def handle(self, *args, **options):
        answers = Answer.objects.all()
        if options["session"]:
            name = options["session"]
            answers = answers.filter(
                Q(session__name=name) | Q(session__name__endswith=f"/sessions/{name}")
            )
        if options["state"]:
            answers = answers.filter(state=options["state"])
        if options["only_unchecked"]:
            answers = answers.filter(latest_check__isnull=True)
        if not answers.exists():
            self.stdout.write("No answers match; nothing queued.")
            return
        description = " ".join(
            f"{key}={options[key]}" for key in ("session", "state") if options[key]
        )
        batch = checks.queue_checks(answers, description=f"check_answers {description}".strip())
        progress = checks.batch_progress(batch)
        self.stdout.write(f"Queued {progress.total} check(s) in batch {batch.pk}.")
        if options["wait"]:
            progress = self.wait(batch, options["timeout"])
            for run_id, answer_name, error in progress.failures:
                self.stderr.write(f"run {run_id} ({answer_name}): {error}")
            self.stdout.write(
                f"Batch {batch.pk}: {progress.succeeded} succeeded, {progress.failed} failed."
            )
            if progress.failed:
                raise CommandError(f"{progress.failed} check(s) failed", returncode=1)

    def wait(self, batch, timeout):
        deadline = None if timeout is None else time.monotonic() + timeout
        progress = checks.batch_progress(batch, failure_limit=None)
        with tqdm(total=progress.total, unit="answer", file=self.stderr._out) as bar:
            while True:
                bar.n = progress.done
                bar.set_postfix(
                    queued=progress.queued,
                    running=progress.running,
                    succeeded=progress.succeeded,
                    failed=progress.failed,
                )
                if progress.finished:
                    return progress
                if deadline is not None and time.monotonic() > deadline:
                    raise CommandError(
                        f"timed out: {progress.done} of {progress.total} check(s) finished"
                    )
                time.sleep(0.5)
                progress = checks.batch_progress(batch, failure_limit=None)
