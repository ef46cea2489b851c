"""Export of stored answers: the documents exactly as they were imported."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from django.db.models import QuerySet

from groundview.answers.models import Answer


def answer_documents(answers: QuerySet[Answer]) -> Iterator[dict[str, Any]]:
    # Only the JSON column, in chunks, so a large export never holds every row in memory.
    yield from answers.order_by("pk").values_list("raw", flat=True).iterator(chunk_size=500)


def answer_jsonl(answers: QuerySet[Answer]) -> Iterator[str]:
    for document in answer_documents(answers):
        yield json.dumps(document, ensure_ascii=False) + "\n"
