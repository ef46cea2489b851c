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
        out = open(options["output"], "w", encoding="utf-8") if options["output"] else sys.stdout
        try:
            for line in answer_jsonl(answers):
                out.write(line)
        finally:
            if out is not sys.stdout:
                out.close()
