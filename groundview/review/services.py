"""Review services: saving labels, the review queue with leases, batch and single re-checks.

Views and the API call these; they call models. The rules a label follows (spans, verdicts,
citations) are in `verdicts`; which answers a batch check takes is in `selectors`.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Collection, Mapping, Sequence
from datetime import timedelta
from functools import cache, partial

from django.conf import settings
from django.core.exceptions import EmptyResultSet
from django.db import connection, transaction
from django.db.models import Count, Exists, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from groundview.answers import checks
from groundview.answers.models import (
    UNFINISHED_STATES,
    Answer,
    CheckBatch,
    CheckRun,
)
from groundview.review.agreement import AgreementReport, agreement_report  # noqa: F401 - re-exported
from groundview.review.filters import filter_answers
from groundview.review.models import AnswerLabel, Assignment, ClaimLabel
from groundview.review.selectors import select_answers_to_check
from groundview.review.verdicts import (
    ClaimVerdict,
    LabelError,
    check_citations,
    check_span,
    check_text,
    check_verdict,
    citation_targets,
    derive_verdict,
)

LEASE = timedelta(minutes=30)
SAVED_ELSEWHERE = (
    "you saved this answer's label from another tab or window after this page was loaded; "
    "reload the page to see it (your choices here are kept below until you do)"
)


CHANGED_TEXT = (
    "the answer's text changed since it was read for these verdicts; reload the page (or fetch "
    "the answer again) to label the new text"
)


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def save_label(
    answer: Answer,
    reviewer,
    *,
    verdict: str = "",
    note: str = "",
    claims: Sequence[ClaimVerdict] = (),
    shown_spans: Collection[tuple[int, int]] | None = None,
    shown_text_sha256: str | None = None,
    text_field: str = "answer",
    seen_saved_at: str | None = None,
) -> AnswerLabel:
    """Create or replace `reviewer`'s label of `answer`; raises LabelError naming the bad field.

    An empty `verdict` leaves the answer's verdict to the claims (`derive_verdict`), and the
    label remembers that it did, so the page offers the same choice again.

    `shown_spans`: the claims the reviewer was shown (the page shows one claim source at a time).
    Only those spans are replaced; claim labels given under another source are kept. None (the
    API) replaces every claim label with `claims`. `shown_text_sha256`: the digest of the text
    the page showed (`text_sha256`), so that verdicts on a text an import has since replaced
    are refused rather than saved against the new one, naming `text_field` (the API's own name
    for the digest). `seen_saved_at`: when the label the page showed was saved ("" for none), so
    a page left open while the same reviewer saved from another tab is refused rather than
    deleting what that tab saved.
    """
    if answer.state in UNFINISHED_STATES:
        raise LabelError(
            "answer", f"is still being generated ({answer.state}): label it once it is complete"
        )
    shown = shown_text_sha256.lower() if shown_text_sha256 is not None else None
    if shown is not None and shown != text_sha256(answer.answer_text):
        raise LabelError(text_field, CHANGED_TEXT)
    from_claims = not verdict
    if from_claims:
        verdict = derive_verdict(claims)
        if not verdict:
            raise LabelError("verdict", "choose a verdict for the answer, or label its claims")
    check_verdict(verdict, "verdict")
    check_text(note, "note")
    data = answer.answer_text.encode("utf-8")
    seen: set[tuple[int, int]] = set()
    targets = cache(partial(citation_targets, answer))
    rows = []
    for index, claim in enumerate(claims):
        field = f"claims[{index}]"
        start, end = check_span(data, claim.start_index, claim.end_index, field)
        if (start, end) in seen:
            raise LabelError(field, f"span [{start}, {end}) is labelled twice")
        seen.add((start, end))
        check_verdict(claim.verdict, f"{field}.verdict")
        check_text(claim.note, f"{field}.note")
        citations = list(claim.corrected_citations)
        check_citations(citations, field, targets)
        rows.append(
            ClaimLabel(
                start_index=start,
                end_index=end,
                claim_text=data[start:end].decode("utf-8"),
                verdict=claim.verdict,
                corrected_citations=citations,
                note=claim.note,
            )
        )

    with transaction.atomic():
        # The import that replaces a text locks the row too: either it sees this label and
        # refuses the new text, or this sees the new text and refuses the label.
        locked = Answer.objects.select_for_update().only("answer_text").get(pk=answer.pk)
        if locked.answer_text != answer.answer_text:
            raise LabelError(text_field if shown is not None else "answer", CHANGED_TEXT)
        if seen_saved_at is not None:
            saved_at = (
                AnswerLabel.objects.filter(answer=answer, reviewer=reviewer)
                .values_list("updated_at", flat=True)
                .first()
            )
            if (saved_at.isoformat() if saved_at else "") != seen_saved_at:
                raise LabelError("label", SAVED_ELSEWHERE)
        label, _ = AnswerLabel.objects.update_or_create(
            answer=answer,
            reviewer=reviewer,
            defaults={"verdict": verdict, "verdict_from_claims": from_claims, "note": note},
        )
        # A claim whose verdict, citations and note are as saved before keeps its row; only
        # changed ones are written anew, so the newest row is the verdict last given (undo).
        replaced = None if shown_spans is None else set(shown_spans) | seen
        wanted = {(r.start_index, r.end_index): _content(r) for r in rows}
        kept, stale = set(), []
        for row in label.claims.all():
            span = (row.start_index, row.end_index)
            if wanted.get(span) == _content(row):
                kept.add(span)
            elif replaced is None or span in replaced:
                stale.append(row.pk)
        label.claims.filter(pk__in=stale).delete()
        new_rows = [r for r in rows if (r.start_index, r.end_index) not in kept]
        for row in new_rows:
            row.label = label
        ClaimLabel.objects.bulk_create(new_rows)
        Assignment.objects.filter(answer=answer, reviewer=reviewer).delete()
    return label


def _content(row: ClaimLabel) -> tuple:
    return (row.verdict, row.corrected_citations, row.note)


def label_answer(answer_id: int, reviewer, **fields) -> tuple[AnswerLabel, bool]:
    """save_label (same keyword fields) for the API, which names the answer by id and tells a new
    label (201) from a replaced one (200): (label, created)."""
    answer = Answer.objects.filter(pk=answer_id).first()
    if answer is None:
        raise LabelError("answer", f"no answer with id {answer_id}")
    existed = AnswerLabel.objects.filter(answer=answer, reviewer=reviewer).exists()
    return save_label(answer, reviewer, **fields), not existed


def queue_queryset(
    reviewer,
    filters: Mapping[str, str],
    *,
    double_review: bool = False,
    exclude: Sequence[int] = (),
):
    """Answers this reviewer may be given next, in queue order (the filters' sort)."""
    now = timezone.now()
    queryset = filter_answers(Answer.objects.exclude(state__in=UNFINISHED_STATES), filters)
    if exclude:
        queryset = queryset.exclude(pk__in=list(exclude))
    queryset = queryset.exclude(
        Exists(AnswerLabel.objects.filter(answer=OuterRef("pk"), reviewer=reviewer))
    )
    others_leases = Assignment.objects.filter(answer=OuterRef("pk"), expires_at__gt=now).exclude(
        reviewer=reviewer
    )
    if not double_review:
        return queryset.exclude(Exists(AnswerLabel.objects.filter(answer=OuterRef("pk")))).exclude(
            Exists(others_leases)
        )
    # Double review: an answer is open until two reviewers have labelled or hold it.
    labels = (
        AnswerLabel.objects.filter(answer=OuterRef("pk"))
        .order_by()
        .values("answer")
        .annotate(n=Count("id"))
        .values("n")
    )
    leases = others_leases.order_by().values("answer").annotate(n=Count("id")).values("n")
    return queryset.alias(
        taken=Coalesce(Subquery(labels), 0) + Coalesce(Subquery(leases), 0)
    ).filter(taken__lt=2)


def still_open(answer: Answer, reviewer, now, *, double_review: bool) -> bool:
    """Re-check, after locking the answer's row, that nobody took it meanwhile.

    The candidate query ran on a snapshot: a reviewer whose lease committed between that
    snapshot and our lock (the row lock is what they held until their commit) is only visible
    to a fresh query like this one.
    """
    others = Assignment.objects.filter(answer=answer, expires_at__gt=now).exclude(reviewer=reviewer)
    if not double_review:
        return not others.exists() and not AnswerLabel.objects.filter(answer=answer).exists()
    taken = others.count() + AnswerLabel.objects.filter(answer=answer).count()
    return taken < 2


def next_in_queue(
    reviewer,
    filters: Mapping[str, str],
    *,
    double_review: bool = False,
    exclude: Sequence[int] = (),
) -> Answer | None:
    """The next answer for `reviewer`, leased to them so nobody else is given it meanwhile.

    A reviewer who still holds an unexpired lease gets that answer back (a reload does not
    skip it). Row locks with SKIP LOCKED make two reviewers asking at the same moment get
    different answers; the lease is taken while the row is locked.
    """
    now = timezone.now()
    candidates = queue_queryset(reviewer, filters, double_review=double_review, exclude=exclude)
    with transaction.atomic():
        # The reviewer's own leases first, from the small lease table: asking the candidates for
        # "held by me" cost far more (planning the anti-joins) and is mostly a miss, since saving
        # a label gives its lease back.
        held = list(
            Assignment.objects.filter(reviewer=reviewer, expires_at__gt=now).values_list(
                "answer_id", flat=True
            )
        )
        answer = candidates.filter(pk__in=held).first() if held else None
        if answer is None:
            locking = candidates
            if connection.features.has_select_for_update_skip_locked:
                locking = candidates.select_for_update(skip_locked=True, of=("self",))
            lost: list[int] = []
            # Each lost race excludes one answer; a few tries suffice in practice.
            for _ in range(10):
                answer = locking.exclude(pk__in=lost).first() if lost else locking.first()
                if answer is None or still_open(answer, reviewer, now, double_review=double_review):
                    break
                lost.append(answer.pk)
                answer = None
        if answer is None:
            return None
        Assignment.objects.update_or_create(
            answer=answer, reviewer=reviewer, defaults={"expires_at": now + LEASE}
        )
    return answer


def recheck(answer: Answer, *, created_by=None) -> tuple[CheckRun, bool]:
    """The answer's queued or running check, or a new one: (run, created). For the re-run button.

    With no broker (Celery eager), the check runs in a thread, so the request that queued it
    still returns at once.
    """
    eager = settings.CELERY_TASK_ALWAYS_EAGER
    return checks.join_or_queue_check(answer, send=send_in_thread if eager else None)


def send_in_thread(run_ids: list[int]) -> None:
    def work():
        try:
            checks.send_runs(run_ids)
        finally:
            # The thread's database connection is its own: close it rather than leak it.
            connection.close()

    threading.Thread(target=work, name=f"check-runs-{run_ids[0]}", daemon=True).start()


def queue_batch(
    *,
    answer_ids: Sequence[int] | None = None,
    filters: Mapping[str, str] | None = None,
    created_by=None,
    description: str = "",
) -> CheckBatch:
    """Queue grounding checks of these answers, or of those the filters match, in one batch."""
    answers = select_answers_to_check(answer_ids=answer_ids, filters=filters)
    return checks.queue_checks(answers, created_by=created_by, description=description)


def queue_progress(reviewer, filters: Mapping[str, str], *, double_review: bool = False) -> dict:
    """Answers in the filter (total), how many `reviewer` labelled (done), and how many are left
    in their queue (unlabelled by them and not taken by others; skipped answers still count).

    One pass over the matching answers, joined to their label and lease counts: counting with an
    EXISTS per answer (as queue_queryset picks one) probed the labels once per matching answer
    and count, 3-10 times slower at 10^5 answers (bench/pages.py). Same rules as queue_queryset.
    """
    # Answers still being generated are never handed out (queue_queryset), so they are not left.
    finished = Answer.objects.exclude(state__in=UNFINISHED_STATES)
    matching = filter_answers(finished, filters).order_by().values("id")
    try:
        sql, params = matching.query.sql_with_params()
    except EmptyResultSet:  # a search that matched nothing (filters.matches_first)
        return {"total": 0, "done": 0, "left": 0}
    if double_review:
        open_ = "COALESCE(l.n, 0) + COALESCE(s.n, 0) < 2"  # labels + others' leases
    else:
        open_ = "l.n IS NULL AND s.n IS NULL"
    labels, leases = AnswerLabel._meta.db_table, Assignment._meta.db_table
    query = f"""
        SELECT COUNT(*),
               SUM(CASE WHEN l.mine > 0 THEN 1 ELSE 0 END),
               SUM(CASE WHEN COALESCE(l.mine, 0) = 0 AND {open_} THEN 1 ELSE 0 END)
        FROM ({sql}) m
        LEFT JOIN (
            SELECT answer_id, COUNT(*) AS n, SUM(CASE WHEN reviewer_id = %s THEN 1 ELSE 0 END) AS mine
            FROM {labels} GROUP BY answer_id
        ) l ON l.answer_id = m.id
        LEFT JOIN (
            SELECT answer_id, COUNT(*) AS n FROM {leases}
            WHERE expires_at > %s AND reviewer_id <> %s GROUP BY answer_id
        ) s ON s.answer_id = m.id
    """  # noqa: S608 - table names from models; every value is a parameter
    with connection.cursor() as cursor:
        cursor.execute(query, [*params, reviewer.pk, timezone.now(), reviewer.pk])
        total, done, left = cursor.fetchone()
    return {"total": total, "done": done or 0, "left": left or 0}


def undo_last_claim(answer: Answer, reviewer) -> ClaimLabel | None:
    """Remove `reviewer`'s most recently given claim verdict on `answer` (the highest id: saving
    writes a changed claim's row anew and keeps the rest), leaving the others and the answer
    verdict; None if there is none."""
    with transaction.atomic():
        last = (
            ClaimLabel.objects.select_for_update()
            .filter(label__answer=answer, label__reviewer=reviewer)
            .order_by("-pk")
            .first()
        )
        if last is not None:
            last.delete()
    return last


def release(answer: Answer, reviewer) -> None:
    """Give a leased answer back to the queue (skip)."""
    Assignment.objects.filter(answer=answer, reviewer=reviewer).delete()


__all__ = [
    "AgreementReport",
    "ClaimVerdict",
    "LabelError",
    "agreement_report",
    "label_answer",
    "next_in_queue",
    "queue_progress",
    "queue_batch",
    "recheck",
    "release",
    "save_label",
    "text_sha256",
    "undo_last_claim",
]
