"""How far a batch of checks has got, counted from its runs (the runs table is the truth)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q

from groundview.answers.models import CheckBatch, CheckRun

Status = CheckRun.Status


@dataclass
class BatchProgress:
    total: int = 0
    queued: int = 0
    running: int = 0
    succeeded: int = 0
    failed: int = 0
    # (run id, answer name, error) for each failed run, oldest first.
    failures: list[tuple[int, str, str]] = field(default_factory=list)

    @property
    def done(self) -> int:
        return self.succeeded + self.failed

    @property
    def finished(self) -> bool:
        return self.done == self.total

    @property
    def percent(self) -> float:
        return 100.0 * self.done / self.total if self.total else 100.0


def batch_progress(batch: CheckBatch | int, *, failure_limit: int | None = 100) -> BatchProgress:
    batch_id = batch.pk if isinstance(batch, CheckBatch) else batch
    runs = CheckRun.objects.filter(batch_id=batch_id)
    counts = runs.aggregate(
        total=Count("pk"),
        **{status: Count("pk", filter=Q(status=status)) for status in Status.values},
    )
    failures = (
        runs.filter(status=Status.FAILED).order_by("pk").values_list("pk", "answer__name", "error")
    )
    if failure_limit is not None:
        failures = failures[:failure_limit]
    return BatchProgress(
        total=counts["total"],
        queued=counts[Status.QUEUED],
        running=counts[Status.RUNNING],
        succeeded=counts[Status.SUCCEEDED],
        failed=counts[Status.FAILED],
        failures=[tuple(row) for row in failures],
    )
