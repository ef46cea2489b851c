"""Query-string filters of the API's lists, validated so that bad values are a 400, never a 500.

Answers are filtered by the review app's `filter_answers`, so the UI and the API agree on what each
filter means. Labels and check runs have small filters of their own here.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db.models import QuerySet

from groundview.answers.models import AnswerState, CheckRun
from groundview.review.filters import (
    DEFAULT_SORT,
    LABEL_STATUSES,
    SORTS,
    FilterError,
    filter_answers,
)
from groundview.review.models import AnswerLabel, Verdict

__all__ = ["FilterError", "filter_answers", "filter_labels", "filter_runs", "answer_sort"]

MAX_ID = 2**63 - 1

UNIT = {"type": "number", "minimum": 0, "maximum": 1}

# The answer-list filters (name -> (JSON schema, description)) for the OpenAPI document; the review
# app decides what they mean.
ANSWER_FILTERS = {
    "session": ({"type": "string"}, "Session resource name, or its numeric id."),
    "state": ({"type": "string", "enum": AnswerState.values}, "Answer state."),
    "skip_reason": (
        {"type": "string", "pattern": "^([A-Z][A-Z0-9_]*|any|none)$"},
        "An answerSkippedReasons value (e.g. NO_RELEVANT_CONTENT), 'any' or 'none'.",
    ),
    "score_min": (UNIT, "Minimum support score of groundview's latest check."),
    "score_max": (UNIT, "Maximum support score of groundview's latest check."),
    "grounding_min": (UNIT, "Minimum groundingScore reported by the producing system."),
    "grounding_max": (UNIT, "Maximum groundingScore reported by the producing system."),
    "label_status": ({"type": "string", "enum": list(LABEL_STATUSES)}, "Labelled or not."),
    "reviewer": ({"type": "string"}, "Username of a reviewer who labelled the answer."),
    "q": ({"type": "string", "maxLength": 500}, "Search in the answer and query text."),
    "sort": (
        {"type": "string", "enum": [p + key for key in sorted(SORTS) for p in ("", "-")]},
        f"Sort order; '-' for descending. Default {DEFAULT_SORT}.",
    ),
}


def answer_sort(params: Mapping[str, str]) -> tuple[str, bool]:
    """(model field, descending) of the `sort` parameter, already validated by filter_answers."""
    key = (params.get("sort") or "").strip() or DEFAULT_SORT
    return SORTS[key.removeprefix("-")], key.startswith("-")


def check_answer_params(params: Mapping[str, str]) -> None:
    # filter_answers treats an all-digits session as an id; int() rejects digits like "²".
    session = (params.get("session") or "").strip()
    if session.isdigit() and not (session.isascii() and int(session) <= MAX_ID):
        raise FilterError("session", f"{session!r} is not a session id or name")


def parse_id(params: Mapping[str, str], key: str) -> int | None:
    value = params.get(key, "")
    if value == "":
        return None
    if not value.isascii() or not value.isdigit() or not 0 < int(value) <= MAX_ID:
        raise FilterError(key, f"must be a positive integer id, not {value!r}")
    return int(value)


def filter_labels(queryset: QuerySet[AnswerLabel], params: Mapping[str, str]) -> QuerySet:
    answer_id = parse_id(params, "answer")
    if answer_id is not None:
        queryset = queryset.filter(answer_id=answer_id)
    reviewer = params.get("reviewer", "")
    if reviewer:
        queryset = queryset.filter(reviewer__username=reviewer)
    verdict = params.get("verdict", "")
    if verdict:
        if verdict not in Verdict.values:
            raise FilterError("verdict", f"{verdict!r} is not one of {', '.join(Verdict.values)}")
        queryset = queryset.filter(verdict=verdict)
    return queryset


def filter_runs(queryset: QuerySet[CheckRun], params: Mapping[str, str]) -> QuerySet:
    answer_id = parse_id(params, "answer")
    if answer_id is not None:
        queryset = queryset.filter(answer_id=answer_id)
    batch_id = parse_id(params, "batch")
    if batch_id is not None:
        queryset = queryset.filter(batch_id=batch_id)
    status = params.get("status", "")
    if status:
        if status not in CheckRun.Status.values:
            raise FilterError(
                "status", f"{status!r} is not one of {', '.join(CheckRun.Status.values)}"
            )
        queryset = queryset.filter(status=status)
    return queryset
