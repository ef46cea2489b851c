from django.core.management.base import BaseCommand, CommandError

from groundview.answers import importing
from groundview.answers.demo import demo_records


class Command(BaseCommand):
    help = (
        "Load the demo data set: about 30 Vertex answers in 8 sessions, in several languages. "
        "Safe to run again: records are keyed by name, so a second run changes nothing."
    )

    def handle(self, *args, **options):
        records = [
            importing.Record(where=f"demo {index}", data=data)
            for index, data in enumerate(demo_records())
        ]
        result = importing.import_records(records)
        for problem in result.problems:
            self.stderr.write(str(problem))
        self.stdout.write(f"demo: {result.summary()}")
        if result.problems:
            raise CommandError(
                f"{result.rejected} demo record(s) rejected: the demo data is out of step with "
                "the importer",
                returncode=1,
            )
