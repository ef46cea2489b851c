import contextlib

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from groundview.review import checker_versions
from groundview.review.checker_versions import CalibrationError


class Command(BaseCommand):
    help = (
        "Fit a new checker version on the stored human claim labels and compare it, on held-out "
        "answers, with the configured head and earlier versions. The engine reads every labelled "
        "claim again (model time). The version is saved, not made the default: an admin does "
        "that on the checker versions page."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--method",
            choices=sorted(checker_versions.PRIOR_STRENGTH),
            default="platt",
            help="platt: slope and offset on the head's log-odds (default); "
            "features: refit every coefficient (needs many more labels)",
        )
        parser.add_argument(
            "--min-labels",
            type=int,
            default=None,
            help="refuse below this many labelled claims "
            "(default: GROUNDVIEW_CALIBRATION_MIN_LABELS)",
        )

    def handle(self, *args, **options):
        with contextlib.ExitStack() as stack:

            def progress_bar(total):
                bar = stack.enter_context(
                    tqdm(total=total, unit="claim", desc="reading claims", file=self.stderr._out)
                )
                return bar.update

            try:
                version = checker_versions.calibrate(
                    method=options["method"],
                    needed=options["min_labels"],
                    progress_factory=progress_bar,
                )
            except CalibrationError as exc:
                raise CommandError(str(exc)) from exc
        fitted = version.fitted_on
        self.stdout.write(
            f"Saved checker version {version.name} ({version.get_method_display()}, from "
            f"{version.calibrated_from}): fitted on {fitted['train']['claims']} claims of "
            f"{fitted['train']['answers']} answers; held out {fitted['heldout']['claims']} claims "
            f"of {fitted['heldout']['answers']} answers ({fitted['split']})."
        )
        if fitted["without_evidence"]:
            self.stdout.write(
                f"Left out {fitted['without_evidence']} claims of answers with no evidence to read."
            )
        self.stdout.write(
            f"Held out, at threshold {fitted['threshold']:g}:"
            f"\n  {'head':32s} {'bal. acc.':>9s} {'AUC':>6s} {'Brier':>6s}"
        )
        for row in version.comparison:
            self.stdout.write(
                f"  {row['name']:32s} {fmt(row['balanced_accuracy']):>9s} "
                f"{fmt(row['auc']):>6s} {fmt(row['brier']):>6s}"
            )
        self.stdout.write("Make it the default on the checker versions page (staff only).")


def fmt(value):
    return "—" if value is None else f"{value:.3f}"
