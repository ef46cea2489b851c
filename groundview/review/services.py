"""Review services: saving labels, the review queue with leases, agreement statistics.

Views and the API call these; they call models. Spans are UTF-8 byte offsets, end exclusive,
validated exactly like the importer validates Vertex spans.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Exists, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from groundview.answers.models import Answer, CheckRun, Reference
from groundview.review.agreement import AgreementReport, agreement_report  # noqa: F401 - re-exported
from groundview.review.filters import filter_answers
from groundview.review.highlight import is_char_boundary
from groundview.review.models import AnswerLabel, Assignment, ClaimLabel, Verdict

LEASE = timedelta(minutes=30)
CITATION_PATTERN = re.compile(r"^(\d+)(?::(\d+))?$")
PENDING = [CheckRun.Status.QUEUED, CheckRun.Status.RUNNING]


class LabelError(ValueError):
    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class ClaimVerdict:
    start_index: int
    end_index: int
    verdict: str
    corrected_citations: Sequence[str] = ()
    note: str = ""


def check_verdict(value: object, field: str) -> str:
    if value not in Verdict.values:
        raise LabelError(field, f"{value!r} is not one of {', '.join(Verdict.values)}")
    return str(value)


def check_text(value: object, field: str) -> None:
    if not isinstance(value, str):
        raise LabelError(field, f"must be a string, not {type(value).__name__}")
    if "\x00" in value:
        raise LabelError(field, "must not contain NUL characters")


def check_span(data: bytes, start: object, end: object, field: str) -> tuple[int, int]:
    for name, value in (("start_index", start), ("end_index", end)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise LabelError(f"{field}.{name}", f"must be an integer, not {value!r}")
    assert isinstance(start, int) and isinstance(end, int)
    if start < 0:
        raise LabelError(f"{field}.start_index", f"{start} is negative")
    if start > end:
        raise LabelError(f"{field}.start_index", f"{start} is after end_index {end}")
    if end > len(data):
        raise LabelError(
            f"{field}.end_index", f"{end} is past the end of answerText ({len(data)} bytes)"
        )
    if not is_char_boundary(data, start):
        raise LabelError(f"{field}.start_index", f"{start} is inside a UTF-8 character")
    if not is_char_boundary(data, end):
        raise LabelError(f"{field}.end_index", f"{end} is inside a UTF-8 character")
    return start, end


def citation_targets(answer: Answer) -> set[str]:
    """Every valid corrected-citation value for this answer: "ref" and "ref:chunk"."""
    targets = set()
    for reference in Reference.objects.filter(answer=answer).prefetch_related("chunks"):
        targets.add(str(reference.position))
        for chunk in reference.chunks.all():
            targets.add(f"{reference.position}:{chunk.position}")
    return targets


def save_label(
    answer: Answer,
    reviewer,
    *,
    verdict: str,
    note: str = "",
    claims: Sequence[ClaimVerdict] = (),
    shown_spans: Collection[tuple[int, int]] | None = None,
) -> AnswerLabel:
    """Create or replace `reviewer`'s label of `answer`; raises LabelError naming the bad field.

    `shown_spans`: the claims the reviewer was shown (the page shows one claim source at a time).
    Only those spans are replaced; claim labels given under another source are kept. None (the
    API) replaces every claim label with `claims`.
    """
    check_verdict(verdict, "verdict")
    check_text(note, "note")
    data = answer.answer_text.encode("utf-8")
    seen: set[tuple[int, int]] = set()
    targets: set[str] | None = None
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
        for position, value in enumerate(citations):
            if not isinstance(value, str) or not CITATION_PATTERN.match(value):
                raise LabelError(
                    f"{field}.corrected_citations[{position}]",
                    f'{value!r} is not a reference ("2") or a reference chunk ("2:0")',
                )
            if targets is None:
                targets = citation_targets(answer)
            if value not in targets:
                raise LabelError(
                    f"{field}.corrected_citations[{position}]",
                    f"{value!r} names no reference or chunk of this answer",
                )
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
        label, _ = AnswerLabel.objects.update_or_create(
            answer=answer, reviewer=reviewer, defaults={"verdict": verdict, "note": note}
        )
        if shown_spans is None:
            label.claims.all().delete()
        else:
            replaced = set(shown_spans) | seen
            stale = [
                pk
                for pk, start, end in label.claims.values_list("pk", "start_index", "end_index")
                if (start, end) in replaced
            ]
            label.claims.filter(pk__in=stale).delete()
        for row in rows:
            row.label = label
        ClaimLabel.objects.bulk_create(rows)
        Assignment.objects.filter(answer=answer, reviewer=reviewer).delete()
    return label


def queue_queryset(
    reviewer,
    filters: Mapping[str, str],
    *,
    double_review: bool = False,
    exclude: Sequence[int] = (),
):
    """Answers this reviewer may be given next, in queue order (the filters' sort)."""
    now = timezone.now()
    queryset = filter_answers(Answer.objects.all(), filters)
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
        answer = candidates.filter(
            Exists(
                Assignment.objects.filter(
                    answer=OuterRef("pk"), reviewer=reviewer, expires_at__gt=now
                )
            )
        ).first()
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

    Repeated clicks join the pending run instead of queueing duplicates; the answer's row lock
    makes two clicks at the same moment agree on one run. With no broker (Celery eager), the
    check runs in a thread, so the request that queued it still returns at once.
    """
    from groundview.answers import checks

    with transaction.atomic():
        Answer.objects.select_for_update().filter(pk=answer.pk).exists()
        pending = CheckRun.objects.filter(answer=answer, status__in=PENDING).order_by("-pk").first()
        if pending is not None:
            return pending, False
        run = CheckRun.objects.create(answer=answer)
        eager = settings.CELERY_TASK_ALWAYS_EAGER
        transaction.on_commit(partial(send_in_thread if eager else checks.send_runs, [run.pk]))
    return run, True


def send_in_thread(run_ids: list[int]) -> None:
    from groundview.answers import checks

    def work():
        try:
            checks.send_runs(run_ids)
        finally:
            # The thread's database connection is its own: close it rather than leak it.
            connection.close()

    threading.Thread(target=work, name=f"check-runs-{run_ids[0]}", daemon=True).start()


def release(answer: Answer, reviewer) -> None:
    """Give a leased answer back to the queue (skip)."""
    Assignment.objects.filter(answer=answer, reviewer=reviewer).delete()


__all__ = [
    "AgreementReport",
    "ClaimVerdict",
    "LabelError",
    "agreement_report",
    "next_in_queue",
    "recheck",
    "release",
    "save_label",
]
