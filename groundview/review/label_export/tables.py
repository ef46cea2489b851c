"""The table formats: CSV (nested values as JSON text) and Parquet (nested types)."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from typing import Any

from groundview.review.label_export import reading
from groundview.review.label_export.reading import ExportError

# --- CSV ----------------------------------------------------------------------------------------

CSV_COLUMNS = [
    "answer_id",
    "answer",
    "session",
    "state",
    "question",
    "answer_text",
    "contexts",
    "producer_grounding_score",
    "checker_run",
    "checker_engine_version",
    "checker_model_id",
    "checker_citation_threshold",
    "checker_support_score",
    "reviewers",
    "labels",
    "final_verdict",
    "final_source",
    "claims",
]


class CsvLine:
    """csv.writer target that hands back the line it was given."""

    def write(self, value: str) -> str:
        return value


def spreadsheet_safe(value: str | None) -> str:
    # A cell starting with = + - @ is run as a formula by spreadsheets (CSV injection); a leading
    # apostrophe makes it text. The JSONL and Parquet exports keep the text as it is. The
    # per-label CSV (api/exports.py) uses this too.
    if not value:
        return ""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def as_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def csv_lines(documents: Iterable[dict[str, Any]]) -> Iterator[str]:
    writer = csv.writer(CsvLine())
    yield writer.writerow(CSV_COLUMNS)
    for document in documents:
        checker = document["checker"] or {}
        yield writer.writerow(
            [
                document["answer_id"],
                spreadsheet_safe(document["answer"]),
                spreadsheet_safe(document["session"]),
                document["state"],
                spreadsheet_safe(document["question"]),
                spreadsheet_safe(document["answer_text"]),
                as_json(document["contexts"]),
                blank(document["producer_grounding_score"]),
                blank(checker.get("run")),
                checker.get("engine_version", ""),
                checker.get("model_id", ""),
                blank(checker.get("citation_threshold")),
                blank(checker.get("support_score")),
                as_json([label["reviewer"] for label in document["labels"]]),
                as_json(document["labels"]),
                document["final_verdict"] or "",
                document["final_source"] or "",
                as_json(document["claims"]),
            ]
        )


def blank(value: Any) -> Any:
    return "" if value is None else value


# --- Parquet ------------------------------------------------------------------------------------


def parquet_schema():
    import pyarrow as pa

    text = pa.string()
    verdict = pa.struct(
        [
            ("reviewer", text),
            ("verdict", text),
            ("corrected_citations", pa.list_(text)),
            ("note", text),
        ]
    )
    claim = pa.struct(
        [
            ("start_byte", pa.int64()),
            ("end_byte", pa.int64()),
            ("start_char", pa.int64()),
            ("end_char", pa.int64()),
            ("text", text),
            ("verdicts", pa.list_(verdict)),
            ("final_verdict", text),
            ("final_source", text),
            ("adjudicated_by", text),
            ("adjudication_note", text),
            ("checker_score", pa.float64()),
            ("checker_verdict", text),
            ("checker_check_required", pa.bool_()),
            ("checker_citations", pa.list_(text)),
        ]
    )
    return pa.schema(
        [
            ("answer_id", pa.int64()),
            ("answer", text),
            ("session", text),
            ("state", text),
            ("question", text),
            ("answer_text", text),
            (
                "contexts",
                pa.list_(
                    pa.struct(
                        [
                            ("reference", pa.int64()),
                            ("chunk", pa.int64()),
                            ("chunk_name", text),
                            ("title", text),
                            ("uri", text),
                            ("document", text),
                            ("text", text),
                        ]
                    )
                ),
            ),
            ("producer_grounding_score", pa.float64()),
            (
                "checker",
                pa.struct(
                    [
                        ("run", pa.int64()),
                        ("engine_version", text),
                        ("model_id", text),
                        ("citation_threshold", pa.float64()),
                        ("support_score", pa.float64()),
                        ("finished_at", text),
                    ]
                ),
            ),
            (
                "labels",
                pa.list_(
                    pa.struct(
                        [
                            ("reviewer", text),
                            ("verdict", text),
                            ("verdict_from_claims", pa.bool_()),
                            ("note", text),
                            ("created_at", text),
                            ("updated_at", text),
                        ]
                    )
                ),
            ),
            ("final_verdict", text),
            ("final_source", text),
            ("claims", pa.list_(claim)),
        ]
    )


class _Pieces:
    """A write-only file that keeps what was written until it is taken, for streaming."""

    def __init__(self) -> None:
        self.pieces: list[bytes] = []
        self.position = 0
        self.closed = False

    def write(self, data) -> int:
        piece = bytes(data)
        self.pieces.append(piece)
        self.position += len(piece)
        return len(piece)

    def tell(self) -> int:
        return self.position

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True

    def take(self) -> bytes:
        data = b"".join(self.pieces)
        self.pieces = []
        return data


def parquet_chunks(documents: Iterable[dict[str, Any]]) -> Iterator[bytes]:
    """Parquet, one row group per CHUNK answers, each sent as soon as it is written."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ExportError("Parquet needs pyarrow: pip install 'groundview[parquet]'") from None
    schema = parquet_schema()
    sink = _Pieces()
    writer = pq.ParquetWriter(pa.PythonFile(sink, mode="w"), schema, compression="zstd")
    batch: list[dict[str, Any]] = []
    try:
        for document in documents:
            batch.append(document)
            if len(batch) == reading.CHUNK:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                batch = []
                yield sink.take()
        if batch:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
    finally:
        writer.close()
    yield sink.take()


def parquet_available() -> bool:
    try:
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return False
    return True
