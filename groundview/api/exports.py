"""Streaming exports of labels (answers are exported by groundview.answers.exporting).

Rows come from the database in chunks (`.iterator(chunk_size=...)`, a server-side cursor on
PostgreSQL) and go out as they are produced, so an export of 100,000 labels never sits in memory.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from groundview.answers.exporting import jsonl_line
from groundview.review.models import AnswerLabel, ClaimLabel

CHUNK = 500

CSV_COLUMNS = [
    "label_id",
    "answer",
    "reviewer",
    "answer_verdict",
    "label_note",
    "created_at",
    "updated_at",
    "claim_start_index",
    "claim_end_index",
    "claim_text",
    "claim_verdict",
    "corrected_citations",
    "claim_note",
]


@dataclass
class ClaimRow:
    start_index: int
    end_index: int
    claim_text: str
    verdict: str
    corrected_citations: list[str]
    note: str


@dataclass
class LabelRow:
    pk: int
    answer: str
    reviewer: str
    verdict: str
    note: str
    created_at: datetime
    updated_at: datetime
    claims: list[ClaimRow] = field(default_factory=list)


def label_rows(labels: QuerySet[AnswerLabel]) -> Iterator[LabelRow]:
    """Labels with their claims, read as plain tuples in chunks (model instances cost ~4x more)."""
    rows = labels.order_by("pk").values_list(
        "pk", "answer__name", "reviewer__username", "verdict", "note", "created_at", "updated_at"
    )
    chunk: list[LabelRow] = []
    for row in rows.iterator(chunk_size=CHUNK):
        chunk.append(LabelRow(*row))
        if len(chunk) == CHUNK:
            yield from with_claims(chunk)
            chunk = []
    yield from with_claims(chunk)


def with_claims(chunk: list[LabelRow]) -> list[LabelRow]:
    if not chunk:
        return chunk
    by_label = {label.pk: label for label in chunk}
    claims = (
        ClaimLabel.objects.filter(label_id__in=by_label)
        .order_by("label_id", "start_index", "end_index")
        .values_list(
            "label_id",
            "start_index",
            "end_index",
            "claim_text",
            "verdict",
            "corrected_citations",
            "note",
        )
    )
    for label_id, *claim in claims:
        by_label[label_id].claims.append(ClaimRow(*claim))
    return chunk


def label_document(label: LabelRow) -> dict[str, Any]:
    return {
        "id": label.pk,
        "answer": label.answer,
        "reviewer": label.reviewer,
        "verdict": label.verdict,
        "note": label.note,
        "created_at": label.created_at.isoformat(),
        "updated_at": label.updated_at.isoformat(),
        "claims": [asdict(claim) for claim in label.claims],
    }


def labels_jsonl(labels: QuerySet[AnswerLabel]) -> Iterator[str]:
    for label in label_rows(labels):
        yield jsonl_line(label_document(label))


class _Line:
    """csv.writer target that hands back the line it was given."""

    def write(self, value: str) -> str:
        return value


def spreadsheet_safe(value: str) -> str:
    # A cell starting with = + - @ is run as a formula by spreadsheets (CSV injection); a leading
    # apostrophe makes it text. The JSONL export is the lossless one.
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def labels_csv(labels: QuerySet[AnswerLabel]) -> Iterator[str]:
    writer = csv.writer(_Line())
    yield writer.writerow(CSV_COLUMNS)
    for label in label_rows(labels):
        head = [
            label.pk,
            spreadsheet_safe(label.answer),
            spreadsheet_safe(label.reviewer),
            label.verdict,
            spreadsheet_safe(label.note),
            label.created_at.isoformat(),
            label.updated_at.isoformat(),
        ]
        if not label.claims:
            yield writer.writerow([*head, "", "", "", "", "", ""])
        for claim in label.claims:
            yield writer.writerow(
                [
                    *head,
                    claim.start_index,
                    claim.end_index,
                    spreadsheet_safe(claim.claim_text),
                    claim.verdict,
                    " ".join(claim.corrected_citations),
                    spreadsheet_safe(claim.note),
                ]
            )
