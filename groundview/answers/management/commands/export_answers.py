import sys

from django.core.management.base import BaseCommand

from groundview.answers.exporting import answer_jsonl
from groundview.answers.models import Answer


class Command(BaseCommand):
    help = "Write stored answers as JSONL, exactly as imported."

    def add_arguments(self, parser):
        parser.add_argument("--session", help="only answers of this session name")
        parser.add_argument("--output", "-o", help="file to write (default: stdout)")

    def handle(self, *args, **options):
        answers = Answer.objects.all()
        if options["session"]:
            answers = answers.filter(session__name=options["session"])
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as out:
                out.writelines(answer_jsonl(answers))
        else:
            sys.stdout.writelines(answer_jsonl(answers))
