import sys

from django.core.management.base import BaseCommand, CommandError

from groundview.answers.exporting import answer_jsonl
from groundview.answers.models import Answer, Session
from groundview.errors import FieldError
from groundview.review.filters import ANSWER_FILTERS, filter_answers


class Command(BaseCommand):
    help = (
        "Write stored answers as JSONL, in Vertex's REST form. Filters are the answer list's "
        "(--session takes a session's id or full name)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--output", "-o", help="file to write (default: stdout)")
        parser.add_argument(
            "--with-sessions",
            action="store_true",
            help="write each answer that has a session as an :answer response "
            "({answer, session}), so the questions go with it",
        )
        # The one filter spec, so the command filters as the review list and the API export do.
        for name, (_, description) in ANSWER_FILTERS.items():
            parser.add_argument(f"--{name.replace('_', '-')}", dest=name, help=description)

    def handle(self, *args, **options):
        params = {name: options[name] for name in ANSWER_FILTERS if options[name] is not None}
        session = params.get("session")
        if session and not known_session(session):
            # Most often a short name: the list would be empty, and an empty export looks done.
            raise CommandError(f"session: no session has the id or full name {session!r}")
        try:
            answers = filter_answers(Answer.objects.all(), params, strict=True)
        except FieldError as error:
            raise CommandError(str(error)) from error
        lines = answer_jsonl(answers, with_sessions=options["with_sessions"])
        if not options["output"]:
            sys.stdout.writelines(lines)
            return
        try:
            out = open(options["output"], "w", encoding="utf-8")  # noqa: SIM115
        except OSError as error:
            raise CommandError(f"{options['output']}: cannot write: {error.strerror}") from None
        with out:
            out.writelines(lines)


def known_session(value: str) -> bool:
    value = value.strip()  # as filter_answers reads it
    if value.isascii() and value.isdigit() and Session.objects.filter(pk=int(value)).exists():
        return True
    return Session.objects.filter(name=value).exists()
