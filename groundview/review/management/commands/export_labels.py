from django.core.management.base import BaseCommand, CommandError

from groundview.errors import FieldError
from groundview.review import label_export
from groundview.review.filters import ANSWER_FILTERS


class Command(BaseCommand):
    help = (
        "Write labelled answers - question, answer, contexts, every reviewer's verdicts, final "
        "verdicts and the checker's scores - one per answer, as JSONL, CSV, Parquet, or Argilla / "
        "Label Studio import JSON. Filters are the answer list's (label_status defaults to "
        "labelled; give --label-status '' for every answer)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--format", "-f", choices=sorted(label_export.FORMATS), default="jsonl")
        parser.add_argument("--output", "-o", help="file to write (default: stdout)")
        # Every filter of the one filter spec, so the command filters as the review list does.
        for name, (_, description) in ANSWER_FILTERS.items():
            parser.add_argument(f"--{name.replace('_', '-')}", dest=name, help=description)

    def handle(self, *args, **options):
        params = {name: options[name] for name in ANSWER_FILTERS if options[name] is not None}
        try:
            answers = label_export.select_labelled_answers(params)
            pieces = label_export.write(options["format"], label_export.answer_documents(answers))
            self.write_out(pieces, options["output"])
        except (FieldError, label_export.ExportError) as error:
            raise CommandError(str(error)) from error

    def write_out(self, pieces, output):
        if output:
            try:
                out = open(output, "wb")  # noqa: SIM115
            except OSError as error:
                raise CommandError(f"{output}: cannot write: {error.strerror}") from None
            with out:
                for piece in pieces:
                    out.write(piece if isinstance(piece, bytes) else piece.encode("utf-8"))
            return
        out = self.stdout._out
        binary = getattr(out, "buffer", None)
        out.flush()
        for piece in pieces:
            if binary is not None:
                binary.write(piece if isinstance(piece, bytes) else piece.encode("utf-8"))
            elif isinstance(piece, bytes):
                raise CommandError("Parquet is binary: write it to a file with --output")
            else:
                out.write(piece)
        (binary or out).flush()
