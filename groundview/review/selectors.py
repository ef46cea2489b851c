"""Reads for the review pages and the API: an answer with everything its page shows (in a fixed
number of queries), and the answers a batch check takes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db.models import Prefetch, QuerySet

from groundview.answers.models import (
    Answer,
    CheckRun,
    Reference,
    SearchResult,
    Step,
    StepAction,
)
from groundview.review.filters import FILTER_PARAMS, FilterError, filter_answers


def load_answer(pk: int) -> Answer:
    """The answer with everything the page shows, prefetched (a fixed number of queries)."""
    return (
        Answer.objects.select_related("session", "latest_check")
        # The stored Vertex document is the record, but the page reads the typed tables.
        .defer("raw", "session__raw", "latest_check__timings")
        .prefetch_related(
            Prefetch(
                "references",
                queryset=Reference.objects.order_by("position").prefetch_related("chunks"),
            ),
            "citations__references",
            "grounding_supports__references",
            "related_questions",
            "skipped_reasons",
            "query_classifications",
            "safety_ratings",
            Prefetch(
                "steps",
                queryset=Step.objects.order_by("position").prefetch_related(
                    Prefetch(
                        "actions",
                        queryset=StepAction.objects.order_by("position").prefetch_related(
                            Prefetch(
                                "search_results",
                                queryset=SearchResult.objects.order_by("position").prefetch_related(
                                    "snippets", "chunks"
                                ),
                            )
                        ),
                    )
                ),
            ),
            Prefetch(
                "check_runs",
                queryset=CheckRun.objects.defer("request", "response", "fact_sources").order_by(
                    "-queued_at", "-id"
                ),
            ),
        )
        .get(pk=pk)
    )


def select_answers_to_check(
    *, answer_ids: Sequence[int] | None = None, filters: Mapping[str, str] | None = None
) -> QuerySet[Answer]:
    """The answers a batch check takes: these ids (every one must exist), or those the answer-list
    filters match ({} = every answer). Raises FilterError naming `answer_ids` or `filters.<key>`;
    an empty choice is an error too, since a batch of nothing helps nobody."""
    if answer_ids is not None:
        wanted = set(answer_ids)
        answers = Answer.objects.filter(pk__in=wanted)
        missing = sorted(wanted - set(answers.values_list("pk", flat=True)))
        if missing:
            shown = ", ".join(str(pk) for pk in missing[:10])
            raise FilterError("answer_ids", f"no answer with id {shown}")
    else:
        # The list page ignores a query parameter it does not know; here a misspelt filter
        # ("stat") would silently widen the batch to every answer.
        unknown = sorted(set(filters or {}) - set(FILTER_PARAMS))
        if unknown:
            raise FilterError(
                f"filters.{unknown[0]}",
                f"is not a filter; the filters are {', '.join(FILTER_PARAMS)}",
            )
        try:
            answers = filter_answers(Answer.objects.all(), filters or {}, strict=True)
        except FilterError as error:
            raise FilterError(f"filters.{error.field}", error.message) from None
    if answer_ids is not None and not answer_ids:
        raise FilterError("answer_ids", "must name at least one answer")
    if not answers.exists():
        raise FilterError("filters", "no answer matches these filters")
    return answers
