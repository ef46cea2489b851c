import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from groundview.answers import checks, importing


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

    def handle(self, *args, **options):
        paths = options["paths"]
        total = importing.ImportResult()
        for path in paths:
            try:
                text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as error:
                raise CommandError(f"{path}: cannot read: {error}") from None
            is_csv = options["csv"] or path.lower().endswith(".csv")
            result = importing.import_text(text, csv=is_csv)
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
