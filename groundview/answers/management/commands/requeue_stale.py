from django.core.management.base import BaseCommand

from groundview.answers import checks
from groundview.answers.models import CheckRun


class Command(BaseCommand):
    help = (
        "Send grounding check runs again whose lease ran out (GROUNDVIEW_STALE_RUN_SECONDS): their "
        "worker or their broker message was lost. Workers do this by themselves; this is for "
        "when none is running the sweep, e.g. checks that ran in a web process that died."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--all",
            action="store_true",
            help="every queued or running run, whatever its lease (a duplicate is harmless)",
        )

    def handle(self, *args, **options):
        if options["all"]:
            sweep = checks.requeue_runs(CheckRun.objects.all())
        else:
            sweep = checks.requeue_stale(limit=None)
        self.stdout.write(
            f"Sent {len(sweep.requeued)} stale run(s) again"
            + (f": {', '.join(map(str, sweep.requeued))}" if sweep.requeued else "")
            + "."
        )
        if sweep.given_up:
            self.stdout.write(
                f"Failed {len(sweep.given_up)} run(s) that lost their worker "
                f"{checks.MAX_ATTEMPTS} times: {', '.join(map(str, sweep.given_up))}."
            )
