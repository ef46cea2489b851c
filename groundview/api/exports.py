"""Streaming exports of labels (answers are exported by groundview.answers.exporting).

Rows come from the database in chunks (`.iterator(chunk_size=...)`, a server-side cursor on
PostgreSQL) and go out as they are produced, so an export of 100,000 labels never sits in memory.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from typing import Any

from django.db.models import F, QuerySet

from groundview.review.models import AnswerLabel

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


def label_rows(labels: QuerySet[AnswerLabel]) -> Iterator[AnswerLabel]:
    queryset = (
        labels.order_by("pk")
        .select_related("reviewer")
        .annotate(answer_name=F("answer__name"))
        .prefetch_related("claims")
    )
    yield from queryset.iterator(chunk_size=CHUNK)


def label_document(label: AnswerLabel) -> dict[str, Any]:
    return {
        "id": label.pk,
        "answer": label.answer_name,
        "reviewer": label.reviewer.username,
        "verdict": label.verdict,
        "note": label.note,
        "created_at": label.created_at.isoformat(),
        "updated_at": label.updated_at.isoformat(),
        "claims": [
            {
                "start_index": claim.start_index,
                "end_index": claim.end_index,
                "claim_text": claim.claim_text,
                "verdict": claim.verdict,
                "corrected_citations": claim.corrected_citations,
                "note": claim.note,
            }
            for claim in label.claims.all()
        ],
    }


def labels_jsonl(labels: QuerySet[AnswerLabel]) -> Iterator[str]:
    for label in label_rows(labels):
        yield json.dumps(label_document(label), ensure_ascii=False) + "\n"


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
            spreadsheet_safe(label.answer_name),
            spreadsheet_safe(label.reviewer.username),
            label.verdict,
            spreadsheet_safe(label.note),
            label.created_at.isoformat(),
            label.updated_at.isoformat(),
        ]
        claims = list(label.claims.all())
        if not claims:
            yield writer.writerow([*head, "", "", "", "", "", ""])
        for claim in claims:
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
