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

from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Max, Min, Q

from groundview.answers.models import Answer, CheckRun, Citation, GroundingSupport
from groundview.review.agreement import AGREEING, CHECKER_OUTCOMES, checker_outcome
from groundview.review.claims import CHECKER, IMPORTED, SENTENCES
from groundview.review.models import Adjudication, ClaimLabel
from groundview.review.verdicts import LabelError, check_span, check_text, check_verdict

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
        # A final verdict settles what reviewers said; on a span none of them labelled it would
        # be a verdict the Disagreements page never shows, yet every export publishes it. (One
        # that outlives its reviewers' labels still stands: it is the adjudicator's judgement, and
        # the admin lists it.)
        Answer.objects.select_for_update().filter(pk=answer.pk).first()
        if not ClaimLabel.objects.filter(
            label__answer=answer, start_index=start, end_index=end
        ).exists():
            raise LabelError("claim", f"no reviewer labelled the span [{start}, {end}) to settle")
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
    checker: str  # a key of CHECKER_OUTCOMES
    checker_disagrees: bool
    reviewers_disagree: bool
    newest: int  # the id of the claim's newest label row: a save writes a changed claim anew
    adjudication: Adjudication | None = None
    # False while the viewer has not given their own verdict (and may not adjudicate): blind.
    visible: bool = True
    # Filled for the rows of one page (`complete`): the text, every reviewer's verdict, the
    # checker's score, and where the answer page shows the claim.
    text: str = ""
    verdicts: dict[str, str] = field(default_factory=dict)  # reviewer -> verdict, by name
    score: float | None = None
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


def checker_claims_of_runs(run_ids: Iterable[int | None]) -> dict[int, dict[tuple[int, int], dict]]:
    """Claims of these runs by span, for the succeeded ones. Reads only `response.claims`: the
    cited chunks' text, most of a response's size, stays in the database."""
    runs = CheckRun.objects.filter(id__in=set(run_ids) - {None}, status=CheckRun.Status.SUCCEEDED)
    by_run = {}
    for run_id, claims in runs.values_list("id", "response__claims").iterator(2000):
        spans = {}
        for claim in claims if isinstance(claims, list) else []:
            if isinstance(claim, dict):
                spans[(int(claim.get("startPos", 0)), int(claim.get("endPos", 0)))] = claim
        by_run[run_id] = spans
    return by_run


def checker_differs(distinct: int, low: str, high: str, outcome: str) -> bool:
    """Whether any of a claim's verdicts differs from the checker's, from the number of distinct
    verdicts and the lowest and highest of them. Exact: with three or more distinct verdicts one
    always differs, since at most two (unsupported, contradicted) agree with one checker verdict."""
    if outcome == "unmatched":
        return False
    if distinct >= 3:
        return True
    return disagrees_with_checker(low, outcome) or disagrees_with_checker(high, outcome)


def select_disagreements(viewer, filters: DisagreementFilters) -> list[ClaimDisagreement]:
    """Every claim with a disagreement that matches `filters`, newest verdicts first (a save
    that changes no verdict keeps its claims' places); `complete`
    fills in what the page shows of them.

    The database groups labels by claim (one row per claim: how many distinct verdicts, the
    lowest and highest); Python adds the checker's verdict, which lives in a run's JSON response
    and is read only when a claim's reviewers all agree (or the filter asks for the checker).
    """
    labels = ClaimLabel.objects.all()
    adjudications = Adjudication.objects.select_related("adjudicator")
    if filters.session_id is not None:
        labels = labels.filter(label__answer__session_id=filters.session_id)
        adjudications = adjudications.filter(answer__session_id=filters.session_id)
    claims = (
        labels.order_by()
        .values("label__answer_id", "start_index", "end_index", "label__answer__latest_check_id")
        .annotate(
            distinct=Count("verdict", distinct=True),
            low=Min("verdict"),
            high=Max("verdict"),
            newest=Max("pk"),
            seen=Count("pk", filter=Q(label__reviewer=viewer)),
        )
    )
    if filters.reviewer:
        reviewer = Q(label__reviewer__username=filters.reviewer)
        claims = claims.annotate(theirs=Count("pk", filter=reviewer)).filter(theirs__gt=0)
    if filters.kind == KIND_REVIEWERS:
        claims = claims.filter(distinct__gt=1)
    rows = list(
        claims.values_list(
            "label__answer_id",
            "start_index",
            "end_index",
            "label__answer__latest_check_id",
            "distinct",
            "low",
            "high",
            "newest",
            "seen",
        ).iterator(5000)
    )
    needs_checker = filters.kind != KIND_REVIEWERS
    if filters.kind == "":
        checker = checker_claims_of_runs(row[3] for row in rows if row[4] == 1)
    else:
        checker = checker_claims_of_runs(row[3] for row in rows) if needs_checker else {}
    settled = {(a.answer_id, a.start_index, a.end_index): a for a in adjudications}
    adjudicator = can_adjudicate(viewer)
    found = []
    for answer_id, start, end, run_id, distinct, low, high, newest, seen in rows:
        claim = checker.get(run_id, {}).get((start, end))
        outcome = checker_outcome(claim) if claim is not None else "unmatched"
        row = ClaimDisagreement(
            answer_id=answer_id,
            start=start,
            end=end,
            checker=outcome,
            checker_disagrees=checker_differs(distinct, low, high, outcome),
            reviewers_disagree=distinct > 1,
            newest=newest,
            adjudication=settled.get((answer_id, start, end)),
            visible=adjudicator or seen > 0,
        )
        if wanted(row, filters):
            found.append(row)
    # Answers by their newest label, then an answer's claims in text order.
    newest: dict[int, int] = defaultdict(int)
    for row in found:
        newest[row.answer_id] = max(newest[row.answer_id], row.newest)
    found.sort(key=lambda r: (-newest[r.answer_id], r.answer_id, r.start, r.end))
    return found


def wanted(row: ClaimDisagreement, filters: DisagreementFilters) -> bool:
    if filters.kind == KIND_CHECKER and not row.checker_disagrees:
        return False
    if not (row.checker_disagrees or row.reviewers_disagree):
        return False
    if filters.status == "open":
        return row.adjudication is None
    if filters.status == "settled":
        return row.adjudication is not None
    return True


def complete(rows: list[ClaimDisagreement]) -> None:
    """Fill what one page of rows shows: each claim's text and every reviewer's verdict, the
    checker's verdict and score, the answer, and the claim source and number under which the
    answer page shows the span (it numbers claims per source, by span), so a link opens it.

    Five queries, and sentence splitting for spans no check or import has.
    """
    answers = Answer.objects.only(
        "id", "name", "query_text", "answer_text", "latest_check_id"
    ).in_bulk({row.answer_id for row in rows})
    wanted_keys = {row.key for row in rows}
    labels = (
        ClaimLabel.objects.filter(label__answer_id__in=answers)
        .order_by("label__reviewer__username")
        .values_list(
            "label__answer_id",
            "start_index",
            "end_index",
            "claim_text",
            "verdict",
            "label__reviewer__username",
        )
    )
    by_key = {row.key: row for row in rows}
    for answer_id, start, end, text, verdict, reviewer in labels:
        if (answer_id, start, end) in wanted_keys:
            row = by_key[(answer_id, start, end)]
            row.text = text
            row.verdicts[reviewer] = verdict
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
            row.checker = checker_outcome(checked[span])
            row.score = checked[span].get("score")
            row.source, spans = CHECKER, sorted(checked)
        elif span in spans_of_import:
            row.source, spans = IMPORTED, sorted(spans_of_import)
        else:
            if answer.pk not in sentences:
                sentences[answer.pk] = sentence_spans(answer.answer_text)
            row.source, spans = SENTENCES, sentences[answer.pk]
        row.number = spans.index(span) + 1 if span in spans else None
        # The list read the checker only where it decided; the page says it for every row.
        row.checker_disagrees = any(
            disagrees_with_checker(v, row.checker) for v in row.verdicts.values()
        )


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
    adjudicator: bool  # the viewer may reveal them (only asked while some are hidden)


def verdicts_for_page(page, viewer, *, reveal: bool = False) -> VerdictsShown:
    """Attach other reviewers' verdicts and the settled verdict to the page's claims, each only
    where `viewer` has saved their own verdict on that claim (or is an adjudicator revealing)."""
    revealed = reveal and can_adjudicate(viewer)
    mine = {(c.start_index, c.end_index) for c in page.label.claims.all()} if page.label else set()
    by_span: dict[tuple[int, int], list[OtherVerdict]] = defaultdict(list)
    for label in page.other_labels:
        for claim in label.claims.all():
            by_span[(claim.start_index, claim.end_index)].append(
                OtherVerdict(label.reviewer.get_username(), claim.verdict, claim.note)
            )
    # Settled verdicts show only where others' verdicts do: a first visit needs no query for them.
    settled = (
        {
            (a.start_index, a.end_index): a
            for a in Adjudication.objects.filter(answer=page.answer).select_related("adjudicator")
        }
        if revealed or mine
        else {}
    )
    for claim in page.claims:
        span = (claim.start, claim.end)
        if revealed or span in mine:
            claim.others = sorted(by_span.get(span, []), key=lambda o: o.reviewer)
            claim.final = settled.get(span)
        else:
            claim.hidden_others = len(by_span.get(span, []))
    shown = revealed or page.label is not None
    hidden = 0 if shown else len(page.other_labels)
    return VerdictsShown(
        answer_verdicts=shown,
        hidden_labels=hidden,
        revealed=revealed,
        # The permission check costs a non-staff reviewer two queries: only when it decides
        # whether the page offers to reveal hidden verdicts.
        adjudicator=revealed or (bool(hidden) and can_adjudicate(viewer)),
    )


__all__ = [
    "adjudicate_claim",
    "can_adjudicate",
    "clear_adjudication",
    "final_verdict",
    "complete",
    "select_disagreements",
    "verdicts_for_page",
]
