"""The filter spec: what each query-string parameter of a list means, in one place.

The review list, the review queue, the API's lists, batch checks and the exports all filter through
here, so they agree. `filter_answers(queryset, params)` takes query-string style parameters
(strings; empty means "not set"; unknown keys are ignored so callers can pass request.GET whole)
and raises FilterError naming the parameter for a bad value, which callers turn into a 400.
The tables (name -> (JSON schema, description)) describe the parameters for the OpenAPI document.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping

from django.db import connection
from django.db.models import Exists, F, OuterRef, Q, QuerySet

from groundview.answers.models import Answer, AnswerState, CheckRun, SkippedReason
from groundview.errors import FieldError
from groundview.review.models import AnswerLabel, Verdict

SKIP_REASON_PATTERN = re.compile(r"^[A-Z][A-Z0-9_]*$")

# Sort keys offered to users -> model field; "-key" sorts descending. Nulls go last so a
# descending sort by score starts with real scores, not with unchecked answers.
SORTS = {
    "created": "create_time",
    "imported": "imported_at",
    "name": "name",
    "score": "latest_check__support_score",
    "grounding": "grounding_score",
}
# Only nullable fields get NULLS LAST: on a NOT NULL column the clause is a no-op for the result
# but stops PostgreSQL from reading the column's index in order (a full sort of every row).
NULLABLE = {"create_time", "latest_check__support_score", "grounding_score"}
# Newest import first: an indexed NOT NULL column, so the first page costs an index scan.
DEFAULT_SORT = "-imported"

LABEL_STATUSES = ("labelled", "unlabelled")
MAX_ID = 2**63 - 1

UNIT = {"type": "number", "minimum": 0, "maximum": 1}
ID = {"type": "integer", "minimum": 1, "maximum": MAX_ID}

ANSWER_FILTERS = {
    "session": ({"type": "string"}, "Session resource name, or its numeric id."),
    "state": ({"type": "string", "enum": AnswerState.values}, "Answer state."),
    "skip_reason": (
        {"type": "string", "pattern": "^([A-Z][A-Z0-9_]*|any|none)$"},
        "An answerSkippedReasons value (e.g. NO_RELEVANT_CONTENT), 'any' or 'none'.",
    ),
    "score_min": (UNIT, "Minimum support score of groundview's latest check."),
    "score_max": (UNIT, "Maximum support score of groundview's latest check."),
    "score_below": (
        UNIT,
        "Support score of groundview's latest check below this value (not including it), as a "
        "histogram bar reads its upper edge.",
    ),
    "grounding_min": (UNIT, "Minimum groundingScore reported by the producing system."),
    "grounding_max": (UNIT, "Maximum groundingScore reported by the producing system."),
    "grounding_below": (
        UNIT,
        "groundingScore below this value (not including it), as a histogram bar reads its upper "
        "edge.",
    ),
    "label_status": ({"type": "string", "enum": list(LABEL_STATUSES)}, "Labelled or not."),
    "reviewer": ({"type": "string"}, "Username of a reviewer who labelled the answer."),
    "q": ({"type": "string", "maxLength": 500}, "Search in the answer and query text."),
    "sort": (
        {"type": "string", "enum": [p + key for key in sorted(SORTS) for p in ("", "-")]},
        f"Sort order; '-' for descending. Default {DEFAULT_SORT}.",
    ),
}
FILTER_PARAMS = tuple(ANSWER_FILTERS)

# Sorted: drf-spectacular sorted these enums when they were `enum=` arguments; the document stays.
LABEL_FILTERS = {
    "answer": (ID, "Answer id."),
    "reviewer": ({"type": "string"}, "Reviewer's username."),
    "verdict": ({"type": "string", "enum": sorted(Verdict.values)}, "Answer-level verdict."),
}
RUN_FILTERS = {
    "answer": (ID, "Answer id."),
    "batch": (ID, "Batch id."),
    "status": ({"type": "string", "enum": sorted(CheckRun.Status.values)}, "Run status."),
}


class FilterError(FieldError, ValueError):
    """A filter parameter (the field) has a value that means nothing."""


def _get(params: Mapping[str, str], key: str) -> str:
    value = params.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise FilterError(key, "must be a string")
    if "\x00" in value:
        # PostgreSQL text cannot hold NUL; caught here it is a 400, not a database error.
        raise FilterError(key, "must not contain NUL characters")
    return value.strip()


def parse_unit_interval(params: Mapping[str, str], key: str) -> float | None:
    raw = _get(params, key)
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        raise FilterError(key, f"{raw!r} is not a number") from None
    if not math.isfinite(value) or not 0 <= value <= 1:
        raise FilterError(key, f"{raw} is not between 0 and 1")
    return value


def parse_sort(raw: str) -> list:
    key = raw or DEFAULT_SORT
    descending = key.startswith("-")
    field = SORTS.get(key.removeprefix("-"))
    if field is None:
        choices = ", ".join(sorted(SORTS))
        raise FilterError("sort", f"{key!r} is not one of {choices} (prefix - for descending)")
    nulls_last = True if field in NULLABLE else None
    expression = (
        F(field).desc(nulls_last=nulls_last) if descending else F(field).asc(nulls_last=nulls_last)
    )
    # The primary key breaks ties so pages never repeat or skip rows.
    return [expression, "-id" if descending else "id"]


def filter_answers(
    queryset: QuerySet[Answer], params: Mapping[str, str], *, strict: bool = False
) -> QuerySet[Answer]:
    """`strict` (the API): a session of digits that can be no id, like "²", is refused rather than
    looked up as a name that matches nothing (what the review list does). With a text search,
    the matching ids are read here (matches_first)."""
    base = queryset
    session = _get(params, "session")
    if session:
        # isascii: "²".isdigit() is true but int("²") fails.
        if session.isascii() and session.isdigit():
            if int(session) > MAX_ID:
                raise FilterError("session", f"{session!r} is not a session id or name")
            queryset = queryset.filter(session_id=int(session))
        elif strict and session.isdigit():
            raise FilterError("session", f"{session!r} is not a session id or name")
        else:
            queryset = queryset.filter(session__name=session)

    state = _get(params, "state")
    if state:
        if state not in AnswerState.values:
            raise FilterError("state", f"{state!r} is not one of {', '.join(AnswerState.values)}")
        # REST JSON leaves out an enum's zero value: an answer with no state has it unspecified.
        unspecified = state == AnswerState.UNSPECIFIED
        queryset = (
            queryset.filter(Q(state=state) | Q(state=""))
            if unspecified
            else queryset.filter(state=state)
        )

    skip_reason = _get(params, "skip_reason")
    if skip_reason:
        skipped = SkippedReason.objects.filter(answer=OuterRef("pk"))
        if skip_reason == "none":
            queryset = queryset.filter(~Exists(skipped))
        elif skip_reason == "any":
            queryset = queryset.filter(Exists(skipped))
        elif SKIP_REASON_PATTERN.match(skip_reason):
            queryset = queryset.filter(Exists(skipped.filter(reason=skip_reason)))
        else:
            raise FilterError(
                "skip_reason",
                f"{skip_reason!r} is not a skip reason (e.g. NO_RELEVANT_CONTENT, any, none)",
            )

    for prefix, field in (
        ("score", "latest_check__support_score"),
        ("grounding", "grounding_score"),
    ):
        low = parse_unit_interval(params, f"{prefix}_min")
        high = parse_unit_interval(params, f"{prefix}_max")
        below = parse_unit_interval(params, f"{prefix}_below")
        if low is not None and high is not None and low > high:
            raise FilterError(f"{prefix}_min", f"{low} is greater than {prefix}_max {high}")
        if low is not None and below is not None and low >= below:
            raise FilterError(f"{prefix}_min", f"{low} is not below {prefix}_below {below}")
        if low is not None:
            queryset = queryset.filter(**{f"{field}__gte": low})
        if high is not None:
            queryset = queryset.filter(**{f"{field}__lte": high})
        if below is not None:
            queryset = queryset.filter(**{f"{field}__lt": below})

    label_status = _get(params, "label_status")
    if label_status:
        labelled = Exists(AnswerLabel.objects.filter(answer=OuterRef("pk")))
        if label_status == "labelled":
            queryset = queryset.filter(labelled)
        elif label_status == "unlabelled":
            queryset = queryset.filter(~labelled)
        else:
            raise FilterError(
                "label_status", f"{label_status!r} is not one of labelled, unlabelled"
            )

    reviewer = _get(params, "reviewer")
    if reviewer:
        queryset = queryset.filter(
            Exists(AnswerLabel.objects.filter(answer=OuterRef("pk"), reviewer__username=reviewer))
        )

    text = _get(params, "q")
    if text:
        if len(text) > 500:
            raise FilterError("q", "must be at most 500 characters")
        # UPPER(...) LIKE, which the trigram indexes of migration 0003 serve.
        queryset = queryset.filter(text_search(text))

    ordering = parse_sort(_get(params, "sort"))
    if text:
        queryset = matches_first(queryset, base)
    return queryset.order_by(*ordering)


# Up to this many matches, a text search reads its matching ids first (matches_first).
FEW_MATCHES = 5000


def matches_first(matching: QuerySet[Answer], base: QuerySet[Answer]) -> QuerySet[Answer]:
    """The answers of a text search as `base` filtered to their ids, when they are few.

    PostgreSQL estimates `LIKE '%…%'` at a fixed share of the table, so under ORDER BY … LIMIT
    it walks the sort's index through every answer, testing each: 220 ms at 10^5 answers for a
    search that matches 11, where the trigram index finds them in 2 ms. Read unordered, the
    ids come from that index, and a page of a few thousand ids sorts fast. When more match,
    they are dense in any order, and walking the sort's index is the faster plan.
    """
    ids = list(matching.order_by().values_list("pk", flat=True)[: FEW_MATCHES + 1])
    if len(ids) > FEW_MATCHES:
        return matching
    return base.filter(pk__in=ids) if ids else base.none()


def filter_errors(params: Mapping[str, str]) -> list[FilterError]:
    """Every bad parameter in `params`, not only the first: each one found is set aside and the
    rest checked again, so a page can name them all at once. Builds no query that runs."""
    remaining = dict(params)
    errors: list[FilterError] = []
    while True:
        try:
            filter_answers(Answer.objects.none(), remaining)
        except FilterError as exc:
            errors.append(exc)
            if remaining.pop(exc.field, None) is None:
                return errors  # a field that is no parameter: nothing left to set aside
        else:
            return errors


def text_search(text: str) -> Q:
    """Answers whose text or question holds `text`, whichever way an accent is encoded there
    ("é" or "e" + U+0301) and whatever the case. SQLite's LIKE folds ASCII letters only, so
    there the search is a regular expression, which SQLite runs in Python ("ça" finds "Ça")."""
    forms = list(dict.fromkeys(unicodedata.normalize(f, text) for f in ("NFC", "NFD")))
    if connection.vendor == "sqlite" and not text.isascii():
        # One pattern a column: each is a Python call per row.
        pattern = "|".join(re.escape(form) for form in forms)
        return Q(answer_text__iregex=pattern) | Q(query_text__iregex=pattern)
    found = Q()
    for form in forms:
        found |= Q(answer_text__icontains=form) | Q(query_text__icontains=form)
    return found


def answer_sort(params: Mapping[str, str]) -> tuple[str, bool]:
    """(model field, descending) of the `sort` parameter, already validated by filter_answers."""
    key = (params.get("sort") or "").strip() or DEFAULT_SORT
    return SORTS[key.removeprefix("-")], key.startswith("-")


def parse_id(params: Mapping[str, str], key: str) -> int | None:
    value = _get(params, key)
    if value == "":
        return None
    if not value.isascii() or not value.isdigit() or not 0 < int(value) <= MAX_ID:
        raise FilterError(key, f"must be a positive integer id, not {value!r}")
    return int(value)


def parse_choice(params: Mapping[str, str], key: str, choices: list[str]) -> str:
    value = _get(params, key)
    if value and value not in choices:
        raise FilterError(key, f"{value!r} is not one of {', '.join(choices)}")
    return value


def filter_labels(queryset: QuerySet[AnswerLabel], params: Mapping[str, str]) -> QuerySet:
    answer_id = parse_id(params, "answer")
    if answer_id is not None:
        queryset = queryset.filter(answer_id=answer_id)
    reviewer = _get(params, "reviewer")
    if reviewer:
        queryset = queryset.filter(reviewer__username=reviewer)
    verdict = parse_choice(params, "verdict", Verdict.values)
    if verdict:
        queryset = queryset.filter(verdict=verdict)
    return queryset


def filter_runs(queryset: QuerySet[CheckRun], params: Mapping[str, str]) -> QuerySet:
    answer_id = parse_id(params, "answer")
    if answer_id is not None:
        queryset = queryset.filter(answer_id=answer_id)
    batch_id = parse_id(params, "batch")
    if batch_id is not None:
        queryset = queryset.filter(batch_id=batch_id)
    status = parse_choice(params, "status", CheckRun.Status.values)
    if status:
        queryset = queryset.filter(status=status)
    return queryset
