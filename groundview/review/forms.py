"""The labelling form: an answer verdict and note, plus one verdict per claim.

Claims are posted as numbered fields (claim-3-start, claim-3-end, claim-3-verdict,
claim-3-citations, claim-3-note) so the form works as plain HTML radio buttons without
JavaScript. A claim with no verdict chosen is simply not labelled.
"""

from __future__ import annotations

import datetime as dt
import re

from django import forms
from django.http import QueryDict

from groundview.errors import FieldError
from groundview.review.adjudication import KINDS, STATUSES
from groundview.review.models import Verdict
from groundview.review.verdicts import (
    CITATION_PATTERN,
    ClaimVerdict,
    LabelError,
    page_citation,
    stored_citation,
)

MAX_CLAIMS = 2000


class LabelForm(forms.Form):
    verdict = forms.ChoiceField(choices=[("", "—")] + Verdict.choices, required=False)
    note = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))


def parse_int(data: QueryDict, key: str) -> int:
    raw = data.get(key, "")
    try:
        return int(raw)
    except ValueError:
        raise LabelError(key, f"{raw!r} is not an integer") from None


def claim_count(data: QueryDict) -> int:
    """How many claims the form showed."""
    count = parse_int(data, "claim_count") if data.get("claim_count") else 0
    if not 0 <= count <= MAX_CLAIMS:
        raise LabelError("claim_count", f"must be between 0 and {MAX_CLAIMS}")
    return count


def labelled_numbers(data: QueryDict) -> list[int]:
    """The page's numbers (from 1) of the claims the form gives a verdict, in order."""
    return [n for n in range(1, claim_count(data) + 1) if data.get(f"claim-{n}-verdict")]


def claim_span(data: QueryDict, number: int) -> tuple[int, int]:
    """The page's claim `number`'s byte span; an error names it as the page does."""
    span = []
    for end in ("start", "end"):
        raw = data.get(f"claim-{number}-{end}", "")
        try:
            span.append(int(raw))
        except ValueError:
            raise LabelError(f"claim {number}, {end}", f"{raw!r} is not an integer") from None
    return span[0], span[1]


def page_citations(data: QueryDict, prefix: str, index: int) -> tuple[str, ...]:
    """A claim's corrected citations as typed on the page ("2, 3:1", numbered from 1), as stored."""
    typed = [
        value
        for raw in data.getlist(f"{prefix}-citations")
        for value in re.split(r"[,\s]+", raw)
        if value
    ]
    stored = []
    for position, value in enumerate(typed):
        if not CITATION_PATTERN.match(value):
            raise LabelError(
                f"claims[{index}].corrected_citations[{position}]",
                f'{value!r} is not a reference ("2") or a reference chunk ("2:1")',
            )
        converted = stored_citation(value)
        if converted is None:
            raise LabelError(
                f"claims[{index}].corrected_citations[{position}]",
                f"{value!r}: references and chunks are numbered from 1, as the page shows them",
            )
        stored.append(converted)
    return tuple(stored)


def parse_claims(data: QueryDict) -> list[ClaimVerdict]:
    claims = []
    for number in labelled_numbers(data):
        prefix = f"claim-{number}"
        start, end = claim_span(data, number)
        claims.append(
            ClaimVerdict(
                start_index=start,
                end_index=end,
                verdict=data.get(f"{prefix}-verdict", ""),
                corrected_citations=page_citations(data, prefix, len(claims)),
                note=data.get(f"{prefix}-note", "").strip(),
            )
        )
    return claims


_STORED_CITATION = re.compile(r"^'(\d+(?::\d+)?)'")
_CLAIM_FIELD = re.compile(r"^claims\[(\d+)\](?:\.corrected_citations\[(\d+)\])?")


def as_page_field(error: LabelError, data: QueryDict) -> LabelError:
    """The error with its field as the page numbers things: the services name the n-th claim
    given a verdict from 0 ("claims[0].corrected_citations[1]"); the page shows "claim 3" for
    the third claim on it, and counts citations from 1 too."""
    m = _CLAIM_FIELD.match(error.field)
    if not m:
        return error
    numbers = labelled_numbers(data)
    if int(m.group(1)) >= len(numbers):
        return error
    field = f"claim {numbers[int(m.group(1))]}"
    message = error.message
    if m.group(2) is not None:
        field += f", corrected citation {int(m.group(2)) + 1}"
        # The service names the citation as stored ('1:8'); the reviewer typed '2:9'.
        message = _STORED_CITATION.sub(lambda c: repr(page_citation(c[1])), message, count=1)
    rest = error.field[m.end() :].lstrip(".").replace("_", " ")
    return LabelError(f"{field}, {rest}" if rest else field, message)


def posted_claims(data: QueryDict) -> dict[tuple[int, int], tuple[str, str, str]]:
    """Each posted claim's (verdict, citations as typed, note) by span, read leniently: for
    showing a refused form again with what the reviewer had chosen, not for saving."""
    posted = {}
    try:
        count = claim_count(data)
    except LabelError:
        return {}
    for number in range(1, count + 1):
        try:
            span = claim_span(data, number)
        except LabelError:
            continue
        prefix = f"claim-{number}"
        citations = ", ".join(v.strip() for v in data.getlist(f"{prefix}-citations") if v.strip())
        posted[span] = (
            data.get(f"{prefix}-verdict", ""),
            citations,
            data.get(f"{prefix}-note", ""),
        )
    return posted


def shown_spans(data: QueryDict) -> set[tuple[int, int]]:
    """The spans of every claim the form showed, labelled or not (see services.save_label)."""
    spans = set()
    for number in range(1, claim_count(data) + 1):
        if data.get(f"claim-{number}-start") and data.get(f"claim-{number}-end"):
            spans.add(claim_span(data, number))
    return spans


def first_error(form: forms.Form, error_class: type[FieldError] = FieldError) -> FieldError:
    """A form's first error as the house's FieldError, which the review pages show the same way
    (`{{ error.field }}: {{ error.message }}`) as the errors services raise."""
    field, messages = next(iter(form.errors.items()))
    return error_class(field, " ".join(messages))


def add_field_error(form: forms.Form, error: FieldError) -> None:
    """A service's FieldError as a Django form error (the admin's forms): on the form field its
    path ends in (`claim.start_index` -> start_index), else on the form as a whole."""
    field = error.field.rsplit(".", 1)[-1].split("[", 1)[0]
    form.add_error(field if field in form.fields else None, error.message)


class AgreementFilterForm(forms.Form):
    session = forms.IntegerField(required=False, min_value=1)
    date_from = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self):
        data = super().clean()
        start: dt.date | None = data.get("date_from")
        end: dt.date | None = data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", "must not be before the start date")
        return data


class DisagreementFilterForm(forms.Form):
    kind = forms.ChoiceField(required=False, choices=KINDS)
    status = forms.ChoiceField(required=False, choices=STATUSES)
    session = forms.IntegerField(required=False, min_value=1)
    reviewer = forms.CharField(required=False, max_length=150)


class AdjudicationForm(forms.Form):
    """One claim's settled verdict, from a row of the disagreement list."""

    answer = forms.IntegerField(min_value=1)
    start = forms.IntegerField(min_value=0)
    end = forms.IntegerField(min_value=0)
    verdict = forms.ChoiceField(required=False, choices=[("", "—")] + Verdict.choices)
    note = forms.CharField(required=False, max_length=2000)
