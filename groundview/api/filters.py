"""Query-string filters of the API's lists, validated so that bad values are a 400, never a 500.

Answers are filtered by the review app's `filter_answers`, so the UI and the API agree on what each
filter means. Labels and check runs have small filters of their own here.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db.models import QuerySet

from groundview.answers.models import CheckRun
from groundview.review.filters import DEFAULT_SORT, SORTS, FilterError, filter_answers
from groundview.review.models import AnswerLabel, Verdict

__all__ = ["FilterError", "filter_answers", "filter_labels", "filter_runs", "answer_sort"]

MAX_ID = 2**63 - 1

# The answer-list filters, for the OpenAPI description; the review app decides their meaning.
ANSWER_FILTERS = {
    "session": "Session resource name, or its numeric id.",
    "state": "Answer state: STATE_UNSPECIFIED, IN_PROGRESS, FAILED, SUCCEEDED or STREAMING.",
    "skip_reason": "An answerSkippedReasons value (e.g. NO_RELEVANT_CONTENT), 'any' or 'none'.",
    "score_min": "Minimum support score of groundview's latest check (0-1).",
    "score_max": "Maximum support score of groundview's latest check (0-1).",
    "grounding_min": "Minimum groundingScore reported by the producing system (0-1).",
    "grounding_max": "Maximum groundingScore reported by the producing system (0-1).",
    "label_status": "labelled or unlabelled.",
    "reviewer": "Username of a reviewer who labelled the answer.",
    "q": "Search in the answer and query text (at most 500 characters).",
    "sort": f"One of {', '.join(sorted(SORTS))}; prefix '-' for descending. Default {DEFAULT_SORT}.",
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
