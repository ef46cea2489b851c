"""Labels that stand alone: one row per answer with everything needed to use its labels without
groundview's database - question, answer text, contexts, every reviewer's verdicts, the final
verdicts, and the checker's claims, scores and version.

One document shape (`answer_documents`) is written five ways:

- `jsonl`: the documents as they are, one per line (the lossless one);
- `csv`: one row per answer; nested values (contexts, labels, claims) are JSON text in their cell,
  and text cells that a spreadsheet would run as a formula get a leading apostrophe;
- `parquet`: the same columns with nested types (lists of structs), one row group per chunk
  (needs pyarrow: `pip install 'groundview[parquet]'`);
- `argilla`: a JSON array of Argilla 2 records in the shape `Record.to_dict()` writes and
  `Record.from_dict()` / `dataset.records.from_json()` read (fields, metadata, suggestions,
  responses); see ARGILLA_SETTINGS;
- `label-studio`: a JSON array of Label Studio tasks (`data`, `meta`, `annotations`,
  `predictions`) for a project created with LABEL_STUDIO_CONFIG.

Offsets. A claim is a UTF-8 byte span of the answer text, as everywhere in groundview
(`start_byte`, `end_byte`, end exclusive). `start_char`/`end_char` are the same span in Unicode
code points (Python string indices), which is what Label Studio's Text regions (since its
frontend stores code points, not JavaScript's UTF-16 units) and Argilla's span questions count.
A stored span that does not fall on character boundaries has no character offsets (null) and is
left out of the Argilla and Label Studio regions rather than moved.

Final verdicts follow `review.adjudication.final_verdict`: an adjudicated claim has its settled
verdict (`final_source` "adjudicated"), a claim every reviewer gave the same verdict has that
one ("agreed"), a disputed claim has none. Answer-level verdicts have no adjudication: their final
verdict is the agreed one, if the reviewers agree.

Streaming: answers are read in chunks (a server-side cursor on PostgreSQL) and each chunk's labels,
references, adjudications and check runs in a few queries, so memory stays flat however many
answers are exported.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from groundview.answers.exporting import jsonl_line
from groundview.review.label_export.reading import (
    ExportError,
    answer_documents,
    char_offset,
    select_labelled_answers,
)
from groundview.review.label_export.tables import (
    CSV_COLUMNS,
    csv_lines,
    parquet_available,
    parquet_chunks,
)
from groundview.review.label_export.tools import (
    ARGILLA_SETTINGS,
    LABEL_STUDIO_CONFIG,
    argilla_record,
    label_studio_task,
)

__all__ = [
    "ARGILLA_SETTINGS",
    "CSV_COLUMNS",
    "FORMATS",
    "LABEL_STUDIO_CONFIG",
    "ExportError",
    "answer_documents",
    "char_offset",
    "parquet_available",
    "select_labelled_answers",
    "write",
]

FORMATS = {
    # name: (content type, file name)
    "jsonl": ("application/jsonl; charset=utf-8", "labelled-answers.jsonl"),
    "csv": ("text/csv; charset=utf-8", "labelled-answers.csv"),
    "parquet": ("application/vnd.apache.parquet", "labelled-answers.parquet"),
    "argilla": ("application/json; charset=utf-8", "labelled-answers.argilla.json"),
    "label-studio": ("application/json; charset=utf-8", "labelled-answers.label-studio.json"),
}


def write(format: str, documents: Iterable[dict[str, Any]]) -> Iterator[str | bytes]:
    """The export in `format` (see FORMATS), as pieces to stream: str, or bytes for Parquet."""
    if format == "jsonl":
        return (jsonl_line(document) for document in documents)
    if format == "csv":
        return csv_lines(documents)
    if format == "parquet":
        return parquet_chunks(documents)
    if format == "argilla":
        return json_array(argilla_record(document) for document in documents)
    if format == "label-studio":
        return json_array(label_studio_task(document) for document in documents)
    raise ExportError(f"{format!r} is not one of {', '.join(FORMATS)}")


def json_array(items: Iterable[dict[str, Any]]) -> Iterator[str]:
    """A JSON array written an element at a time (one per line, so it also diffs well)."""
    first = True
    yield "["
    for item in items:
        # jsonl_line: the same escaping of U+2028/U+2029/U+0085 as every JSONL export.
        yield ("\n" if first else ",\n") + jsonl_line(item).rstrip("\n")
        first = False
    yield "\n]\n"
