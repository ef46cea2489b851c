import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from groundview.answers import checks, importing
from groundview.answers.reading import read_csv_records, read_records


class Command(BaseCommand):
    help = (
        "Import Vertex answers from JSON (an Answer in any proto3 JSON form, an :answer response "
        "or an array of them) or JSONL, and Ragas or DeepEval rows from JSON, JSONL or CSV "
        "(files ending in .csv, or --csv). Re-importing updates by name. Exits 1 if any record "
        "was rejected."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="files to import; '-' reads stdin")
        parser.add_argument(
            "--csv", action="store_true", help="read every file as CSV rows, whatever its name"
        )
        parser.add_argument(
            "--quiet",
            action="store_true",
            help="no progress bar (there is none anyway unless stderr is a terminal)",
        )

    def handle(self, *args, **options):
        paths = options["paths"]
        # A bar only for a person watching: logs, pipes and CI get the summary lines alone.
        show_progress = not options["quiet"] and options["verbosity"] > 0 and self.stderr.isatty()
        total = importing.ImportResult()
        for path in paths:
            try:
                text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as error:
                raise CommandError(f"{path}: cannot read: {error}") from None
            is_csv = options["csv"] or path.lower().endswith(".csv")
            records = read_csv_records(text) if is_csv else read_records(text)
            with tqdm(
                records,
                desc=Path(path).name,
                unit=" records",
                disable=not show_progress,
                # The raw stream: Django's wrapper would end every redraw with a newline.
                file=self.stderr._out,
            ) as progress:
                result = importing.import_records(progress, rows_only=is_csv)
            for problem in result.problems:
                self.stderr.write(f"{path}: {problem}")
            self.stdout.write(f"{path}: {result.summary()}")
            total.created += result.created
            total.updated += result.updated
            total.unchanged += result.unchanged
            total.problems += result.problems
            total.changed_answer_ids += result.changed_answer_ids
        if len(paths) > 1:
            self.stdout.write(f"total: {total.summary()}")
        batch = checks.queue_checks_after_import(total.changed_answer_ids)
        if batch is not None:
            self.stdout.write(f"queued grounding checks: batch {batch.pk}")
        if total.problems:
            raise CommandError(f"{total.rejected} record(s) rejected", returncode=1)
        if not (total.created or total.updated or total.unchanged):
            # As the API's 400 for an empty body: a pipeline that exported nothing has not passed.
            raise CommandError("nothing to import: the input holds no records", returncode=1)
