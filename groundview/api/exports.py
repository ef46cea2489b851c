"""Streaming exports of labels (answers are exported by groundview.answers.exporting).

Rows come from the database in chunks (`.iterator(chunk_size=...)`, a server-side cursor on
PostgreSQL) and go out as they are produced, so an export of 100,000 labels never sits in memory.

Every claim verdict says which verdict is the claim's final label (`review.adjudication`):
`final_verdict` with `final_source` "adjudicated" (settled by `adjudicated_by`), "agreed" (every
reviewer of the claim gave that verdict), or "" with no final verdict (reviewers disagree and
nobody has settled it). A row's own `verdict` stays what its reviewer said.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from groundview.answers.exporting import jsonl_line
from groundview.review.adjudication import final_verdict
from groundview.review.label_export.tables import CsvLine, spreadsheet_safe
from groundview.review.models import Adjudication, AnswerLabel, ClaimLabel

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
    "final_verdict",
    "final_source",
    "adjudicated_by",
]


@dataclass
class ClaimRow:
    start_index: int
    end_index: int
    claim_text: str
    verdict: str
    corrected_citations: list[str]
    note: str
    final_verdict: str = ""
    final_source: str = ""
    adjudicated_by: str = ""


@dataclass
class LabelRow:
    pk: int
    answer: str
    reviewer: str
    verdict: str
    note: str
    created_at: datetime
    updated_at: datetime
    answer_id: int
    claims: list[ClaimRow] = field(default_factory=list)


def label_rows(labels: QuerySet[AnswerLabel]) -> Iterator[LabelRow]:
    """Labels with their claims, read as plain tuples in chunks (model instances cost ~4x more)."""
    rows = labels.order_by("pk").values_list(
        "pk",
        "answer__name",
        "reviewer__username",
        "verdict",
        "note",
        "created_at",
        "updated_at",
        "answer_id",
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
    add_final_verdicts(chunk)
    return chunk


def add_final_verdicts(chunk: list[LabelRow]) -> None:
    """Each claim's final verdict, from every reviewer's verdict on it (not only the exported
    labels': a filter by reviewer must not make a disputed claim look agreed) and its
    adjudication. Two queries per chunk."""
    answer_ids = {label.answer_id for label in chunk if label.claims}
    if not answer_ids:
        return
    verdicts: dict[tuple[int, int, int], set[str]] = defaultdict(set)
    for answer_id, start, end, verdict in (
        ClaimLabel.objects.filter(label__answer_id__in=answer_ids)
        .order_by()
        .values_list("label__answer_id", "start_index", "end_index", "verdict")
        .distinct()
    ):
        verdicts[(answer_id, start, end)].add(verdict)
    settled = {
        (answer_id, start, end): (verdict, adjudicator)
        for answer_id, start, end, verdict, adjudicator in Adjudication.objects.filter(
            answer_id__in=answer_ids
        )
        .order_by()
        .values_list("answer_id", "start_index", "end_index", "verdict", "adjudicator__username")
    }
    for label in chunk:
        for claim in label.claims:
            key = (label.answer_id, claim.start_index, claim.end_index)
            adjudicated, adjudicator = settled.get(key, ("", ""))
            claim.final_verdict, claim.final_source = final_verdict(verdicts[key], adjudicated)
            claim.adjudicated_by = adjudicator


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


def labels_csv(labels: QuerySet[AnswerLabel]) -> Iterator[str]:
    writer = csv.writer(CsvLine())
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
            yield writer.writerow([*head, *[""] * 9])
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
                    claim.final_verdict,
                    claim.final_source,
                    spreadsheet_safe(claim.adjudicated_by),
                ]
            )
