"""Reads for the review pages: an answer with everything its page shows, in a fixed number of queries."""

from __future__ import annotations

from django.db.models import Prefetch

from groundview.answers.models import (
    Answer,
    CheckRun,
    Reference,
    SearchResult,
    Step,
    StepAction,
)


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
