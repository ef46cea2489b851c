"""The answer list's data: score histograms and a page of answers, each in as few queries as possible."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Paginator
from django.db.models import Case, Count, F, IntegerField, Prefetch, Value, When
from django.db.models.functions import Floor

from groundview.answers.models import Answer
from groundview.review.charts import Bar
from groundview.review.models import AnswerLabel

PAGE_SIZE = 50


@dataclass
class Histograms:
    ours: list[Bar]
    theirs: list[Bar]
    unchecked: int  # never checked (or not since their text changed)
    unscored: int  # checked, with nothing that needed a check: no score to bin
    total: int


def histograms(queryset, *, filtered: bool) -> Histograms:
    """Our support score and the producer's groundingScore in ten bins each, and the total.

    Filtered: one GROUP BY over both bins (at most 11 x 11 groups) reads the matching answers
    once; its marginals are the two histograms and its sum is the page count. Unfiltered (the
    page everyone lands on), three narrow queries that PostgreSQL answers from indexes alone
    beat that one wide scan of every answer.
    """
    ours, theirs = [0] * 10, [0] * 10
    unchecked = unscored = total = 0
    if filtered:
        rows = (
            queryset.order_by()
            .values(
                checked=Case(
                    When(latest_check__isnull=True, then=Value(0)),
                    default=Value(1),
                    output_field=IntegerField(),
                ),
                ours=Floor(F("latest_check__support_score") * 10),
                theirs=Floor(F("grounding_score") * 10),
            )
            # COUNT(*), not COUNT(id): the score columns alone answer it.
            .annotate(n=Count("*"))
            .values_list("checked", "ours", "theirs", "n")
        )
        for checked, our_bin, their_bin, n in rows:
            total += n
            if not checked:
                unchecked += n
            elif our_bin is None:
                unscored += n
            else:
                ours[bin_index(our_bin)] += n
            if their_bin is not None:
                theirs[bin_index(their_bin)] += n
    else:
        everything = Answer.objects.order_by()
        total = everything.count()
        checked = (
            everything.filter(latest_check__isnull=False)
            .values(bin=Floor(F("latest_check__support_score") * 10))
            .annotate(n=Count("*"))
            .values_list("bin", "n")
        )
        for our_bin, n in checked:
            if our_bin is None:
                unscored += n
            else:
                ours[bin_index(our_bin)] += n
        unchecked = total - sum(ours) - unscored
        rows = (
            everything.values(bin=Floor(F("grounding_score") * 10))
            .annotate(n=Count("*"))
            .values_list("bin", "n")
        )
        for their_bin, n in rows:
            if their_bin is not None:
                theirs[bin_index(their_bin)] += n
    edges = [i / 10 for i in range(11)]
    return Histograms(
        ours=[Bar(edges[i], edges[i + 1], ours[i]) for i in range(10)],
        theirs=[Bar(edges[i], edges[i + 1], theirs[i]) for i in range(10)],
        unchecked=unchecked,
        unscored=unscored,
        total=total,
    )


def bin_index(value) -> int:
    # Scores are in [0, 1]; 1.0 belongs to the last bin.
    return min(max(int(value), 0), 9)


class CountedPaginator(Paginator):
    """A paginator told its count (already known from the histogram query)."""

    def __init__(self, object_list, per_page, *, count: int):
        super().__init__(object_list, per_page)
        self._known_count = count

    @property
    def count(self) -> int:
        return self._known_count


def answer_page(answers, number, count: int):
    """One page of answers in two steps: ids (a narrow sort) first, then those rows in full.

    Sorting 10^5 full rows (text and all) is what makes a naive page slow; sorting only ids and
    the sort key, then fetching 50 rows by primary key, is several times faster.
    """
    paginator = CountedPaginator(answers.values_list("pk", flat=True), PAGE_SIZE, count=count)
    page = paginator.get_page(number)
    ids = list(page.object_list)
    rows = (
        Answer.objects.filter(pk__in=ids)
        .select_related("session", "latest_check")
        .defer(
            "raw",
            "latest_check__request",
            "latest_check__response",
            "latest_check__fact_sources",
            "latest_check__timings",
            "session__raw",
        )
        .prefetch_related(
            "skipped_reasons",
            Prefetch(
                "labels",
                queryset=AnswerLabel.objects.select_related("reviewer").only(
                    "answer_id", "verdict", "reviewer__username"
                ),
            ),
        )
        .in_bulk()
    )
    page.object_list = [rows[pk] for pk in ids if pk in rows]
    return page
