"""Disagreements, blind labelling and adjudication.

A claim is an answer plus a UTF-8 byte span, as everywhere in review. Its human verdicts are the
reviewers' `ClaimLabel`s on that span; the checker's is read off the answer's latest successful
check run by `agreement.checker_outcome`. A claim is a disagreement when two reviewers gave it
different verdicts, or a reviewer's verdict does not agree with the checker's (`agreement.AGREEING`).

An `Adjudication` settles a claim: its verdict is the claim's final label. Without one, a claim
every reviewer gave the same verdict has that verdict as its final label, and a disputed claim
has none.

Blind labelling: a reviewer sees other reviewers' verdicts (and the settled one) on a claim only
once they have saved their own verdict on it, so their first judgement is their own. Adjudicators
may reveal every verdict at once, since settling a claim means weighing the others. The checker's
highlight stays visible throughout: it is the tool's reading of the answer, not a colleague's vote.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction

from groundview.answers.models import Answer, CheckRun, Citation, GroundingSupport
from groundview.review.agreement import AGREEING, CHECKER_OUTCOMES, checker_outcome
from groundview.review.claims import CHECKER, IMPORTED, SENTENCES
from groundview.review.models import Adjudication, AnswerLabel, ClaimLabel
from groundview.review.verdicts import check_span, check_text, check_verdict

PERMISSION = "review.adjudicate"
FINAL_ADJUDICATED = "adjudicated"
FINAL_AGREED = "agreed"

KIND_CHECKER = "checker"
KIND_REVIEWERS = "reviewers"
KINDS = [
    ("", "Any disagreement"),
    (KIND_CHECKER, "Checker vs. a reviewer"),
    (KIND_REVIEWERS, "Reviewers with each other"),
]
STATUSES = [
    ("open", "Not settled"),
    ("settled", "Settled"),
    ("all", "All"),
]
CHECKER_WORDS = dict(CHECKER_OUTCOMES)

ClaimKey = tuple[int, int, int]  # answer id, start byte, end byte


def can_adjudicate(user) -> bool:
    """Staff, or anyone given the "Can settle a claim's final verdict" permission."""
    return bool(user.is_active and (user.is_staff or user.has_perm(PERMISSION)))


def final_verdict(verdicts: Collection[str], adjudicated: str = "") -> tuple[str, str]:
    """A claim's final label and where it comes from: (verdict, source), ("", "") if disputed."""
    if adjudicated:
        return adjudicated, FINAL_ADJUDICATED
    distinct = set(verdicts)
    if len(distinct) == 1:
        return next(iter(distinct)), FINAL_AGREED
    return "", ""


def disagrees_with_checker(verdict: str, outcome: str) -> bool:
    return outcome != "unmatched" and AGREEING.get(verdict) != outcome


# --- verbs --------------------------------------------------------------------------------------


def adjudicate_claim(
    answer: Answer,
    adjudicator,
    *,
    start_index: object,
    end_index: object,
    verdict: object,
    note: object = "",
) -> Adjudication:
    """Record (or replace) the final verdict of one claim; raises LabelError naming the field."""
    if not can_adjudicate(adjudicator):
        raise PermissionDenied("Only staff or holders of the adjudicate permission settle claims.")
    data = answer.answer_text.encode("utf-8")
    start, end = check_span(data, start_index, end_index, "claim")
    verdict = check_verdict(verdict, "verdict")
    check_text(note, "note")
    assert isinstance(note, str)
    with transaction.atomic():
        adjudication, _ = Adjudication.objects.update_or_create(
            answer=answer,
            start_index=start,
            end_index=end,
            defaults={
                "verdict": verdict,
                "note": note.strip(),
                "adjudicator": adjudicator,
                "claim_text": data[start:end].decode("utf-8"),
            },
        )
    return adjudication


def clear_adjudication(answer: Answer, adjudicator, *, start_index: int, end_index: int) -> bool:
    """Reopen a settled claim; False when it was not settled."""
    if not can_adjudicate(adjudicator):
        raise PermissionDenied("Only staff or holders of the adjudicate permission settle claims.")
    deleted, _ = Adjudication.objects.filter(
        answer=answer, start_index=start_index, end_index=end_index
    ).delete()
    return bool(deleted)


# --- the disagreement list ----------------------------------------------------------------------


@dataclass
class ClaimDisagreement:
    answer_id: int
    start: int
    end: int
    text: str
    checker: str  # a key of CHECKER_OUTCOMES
    score: float | None
    verdicts: dict[str, str]  # reviewer -> verdict, by reviewer name
    checker_disagrees: bool
    reviewers_disagree: bool
    latest: dt.datetime
    adjudication: Adjudication | None = None
    # False while the viewer has not given their own verdict (and may not adjudicate): blind.
    visible: bool = True
    # Where the answer page shows this claim; filled for the rows of one page (`locate`).
    answer: Answer | None = None
    source: str = ""
    number: int | None = None

    @property
    def key(self) -> ClaimKey:
        return (self.answer_id, self.start, self.end)

    @property
    def checker_words(self) -> str:
        return CHECKER_WORDS[self.checker]

    @property
    def anchor(self) -> str:
        return f"d-{self.answer_id}-{self.start}-{self.end}"

    @property
    def reviewer_rows(self) -> list[tuple[str, str, bool]]:
        """(reviewer, verdict, disagrees with the checker) for the table."""
        return [
            (name, verdict, disagrees_with_checker(verdict, self.checker))
            for name, verdict in self.verdicts.items()
        ]


@dataclass
class DisagreementFilters:
    kind: str = ""
    status: str = "open"
    session_id: int | None = None
    reviewer: str = ""


def checker_claims_of_runs(run_ids: Iterable[int]) -> dict[int, dict[tuple[int, int], dict]]:
    """Claims of these runs by span, for the succeeded ones. Reads only `response.claims`: the
    cited chunks' text, most of a response's size, stays in the database."""
    runs = CheckRun.objects.filter(id__in=set(run_ids) - {None}, status=CheckRun.Status.SUCCEEDED)
    by_run = {}
    for run_id, claims in runs.values_list("id", "response__claims"):
        spans = {}
        for claim in claims if isinstance(claims, list) else []:
            if isinstance(claim, dict):
                spans[(int(claim.get("startPos", 0)), int(claim.get("endPos", 0)))] = claim
        by_run[run_id] = spans
    return by_run


def select_disagreements(viewer, filters: DisagreementFilters) -> list[ClaimDisagreement]:
    """Every claim with a disagreement that matches `filters`, newest label first.

    Grouping and the checker's verdicts are worked out here in Python: a claim's checker verdict
    lives in a JSON response, and one pass over the labels' few columns is cheap.
    """
    labels = ClaimLabel.objects.all()
    adjudications = Adjudication.objects.select_related("adjudicator")
    if filters.session_id is not None:
        labels = labels.filter(label__answer__session_id=filters.session_id)
        adjudications = adjudications.filter(answer__session_id=filters.session_id)
    if filters.reviewer:
        # The other reviewers' labels on those answers are what the reviewer disagrees with.
        answers = AnswerLabel.objects.filter(reviewer__username=filters.reviewer).values("answer")
        labels = labels.filter(label__answer__in=answers)
    rows = labels.order_by().values_list(
        "label__answer_id",
        "start_index",
        "end_index",
        "claim_text",
        "verdict",
        "label__reviewer__username",
        "label__updated_at",
        "label__answer__latest_check_id",
    )
    grouped: dict[ClaimKey, dict[str, Any]] = {}
    for answer_id, start, end, text, verdict, reviewer, updated, run_id in rows.iterator(2000):
        claim = grouped.setdefault(
            (answer_id, start, end),
            {"text": text, "verdicts": {}, "latest": updated, "run": run_id},
        )
        claim["verdicts"][reviewer] = verdict
        claim["latest"] = max(claim["latest"], updated)

    checker = checker_claims_of_runs(claim["run"] for claim in grouped.values())
    settled = {(a.answer_id, a.start_index, a.end_index): a for a in adjudications}
    adjudicator = can_adjudicate(viewer)
    name = viewer.get_username()
    found = []
    for key, claim in grouped.items():
        checker_claim = checker.get(claim["run"], {}).get(key[1:])
        outcome = checker_outcome(checker_claim) if checker_claim is not None else "unmatched"
        verdicts = dict(sorted(claim["verdicts"].items()))
        row = ClaimDisagreement(
            answer_id=key[0],
            start=key[1],
            end=key[2],
            text=claim["text"],
            checker=outcome,
            score=checker_claim.get("score") if checker_claim else None,
            verdicts=verdicts,
            checker_disagrees=any(disagrees_with_checker(v, outcome) for v in verdicts.values()),
            reviewers_disagree=len(set(verdicts.values())) > 1,
            latest=claim["latest"],
            adjudication=settled.get(key),
            visible=adjudicator or name in verdicts,
        )
        if wanted(row, filters):
            found.append(row)
    found.sort(key=lambda r: (r.latest, r.answer_id, -r.start), reverse=True)
    return found


def wanted(row: ClaimDisagreement, filters: DisagreementFilters) -> bool:
    if filters.kind == KIND_CHECKER and not row.checker_disagrees:
        return False
    if filters.kind == KIND_REVIEWERS and not row.reviewers_disagree:
        return False
    if not (row.checker_disagrees or row.reviewers_disagree):
        return False
    if filters.reviewer and filters.reviewer not in row.verdicts:
        return False
    if filters.status == "open":
        return row.adjudication is None
    if filters.status == "settled":
        return row.adjudication is not None
    return True


def locate(rows: list[ClaimDisagreement]) -> None:
    """Fill each row's answer and the claim source and number under which the answer page shows
    its span (the page numbers claims per source, by span), so a link opens that claim.

    For one page of rows: three queries, and sentence splitting for spans no check or import has.
    """
    answers = Answer.objects.only(
        "id", "name", "query_text", "answer_text", "latest_check_id"
    ).in_bulk({row.answer_id for row in rows})
    checker = checker_claims_of_runs(a.latest_check_id for a in answers.values())
    imported: dict[int, dict[str, set]] = defaultdict(lambda: {"supports": set(), "cites": set()})
    for answer_id, start, end in GroundingSupport.objects.filter(answer_id__in=answers).values_list(
        "answer_id", "start_index", "end_index"
    ):
        imported[answer_id]["supports"].add((start, end))
    for answer_id, start, end in Citation.objects.filter(answer_id__in=answers).values_list(
        "answer_id", "start_index", "end_index"
    ):
        imported[answer_id]["cites"].add((start, end))
    sentences: dict[int, list[tuple[int, int]]] = {}
    for row in rows:
        answer = answers.get(row.answer_id)
        row.answer = answer
        if answer is None:
            continue
        span = (row.start, row.end)
        checked = checker.get(answer.latest_check_id)
        spans_of_import = imported[answer.pk]["supports"] or imported[answer.pk]["cites"]
        if checked and span in checked:
            row.source, spans = CHECKER, sorted(checked)
        elif span in spans_of_import:
            row.source, spans = IMPORTED, sorted(spans_of_import)
        else:
            if answer.pk not in sentences:
                sentences[answer.pk] = sentence_spans(answer.answer_text)
            row.source, spans = SENTENCES, sentences[answer.pk]
        row.number = spans.index(span) + 1 if span in spans else None


def sentence_spans(text: str) -> list[tuple[int, int]]:
    from groundview.grounding.claims import segment_claims

    return sorted((c.start_byte, c.end_byte) for c in segment_claims(text))


# --- the answer page: blind until the reviewer's own verdict ------------------------------------


@dataclass
class OtherVerdict:
    reviewer: str
    verdict: str
    note: str = ""


@dataclass
class VerdictsShown:
    """What the answer page may show of other people's verdicts."""

    answer_verdicts: bool  # the other reviewers' answer verdicts (the header's chips)
    hidden_labels: int  # other reviewers whose verdicts stay hidden for now
    revealed: bool  # an adjudicator asked to see everything
    adjudicator: bool


def verdicts_for_page(page, viewer, *, reveal: bool = False) -> VerdictsShown:
    """Attach other reviewers' verdicts and the settled verdict to the page's claims, each only
    where `viewer` has saved their own verdict on that claim (or is an adjudicator revealing)."""
    adjudicator = can_adjudicate(viewer)
    revealed = reveal and adjudicator
    mine = (
        {(c.start_index, c.end_index) for c in page.label.claims.all()} if page.label else set()
    )
    by_span: dict[tuple[int, int], list[OtherVerdict]] = defaultdict(list)
    for label in page.other_labels:
        for claim in label.claims.all():
            by_span[(claim.start_index, claim.end_index)].append(
                OtherVerdict(label.reviewer.get_username(), claim.verdict, claim.note)
            )
    settled = {
        (a.start_index, a.end_index): a
        for a in Adjudication.objects.filter(answer=page.answer).select_related("adjudicator")
    }
    for claim in page.claims:
        span = (claim.start, claim.end)
        if revealed or span in mine:
            claim.others = sorted(by_span.get(span, []), key=lambda o: o.reviewer)
            claim.final = settled.get(span)
        else:
            claim.hidden_others = len(by_span.get(span, []))
    shown = revealed or page.label is not None
    return VerdictsShown(
        answer_verdicts=shown,
        hidden_labels=0 if shown else len(page.other_labels),
        revealed=revealed,
        adjudicator=adjudicator,
    )


__all__ = [
    "adjudicate_claim",
    "can_adjudicate",
    "clear_adjudication",
    "final_verdict",
    "locate",
    "select_disagreements",
    "verdicts_for_page",
]
