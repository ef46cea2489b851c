"""Human review labels: an answer-level verdict plus one verdict per claim, per reviewer."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class Verdict(models.TextChoices):
    SUPPORTED = "supported", "Supported"
    PARTIALLY_SUPPORTED = "partially_supported", "Partially supported"
    UNSUPPORTED = "unsupported", "Unsupported"
    CONTRADICTED = "contradicted", "Contradicted"
    NO_CHECK_NEEDED = "no_check_needed", "No check needed"


class AnswerLabel(models.Model):
    """One reviewer's judgement of one answer; several reviewers may label the same answer."""

    answer = models.ForeignKey("answers.Answer", on_delete=models.CASCADE, related_name="labels")
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="answer_labels"
    )
    verdict = models.CharField(max_length=32, choices=Verdict.choices, db_index=True)
    verdict_from_claims = models.BooleanField(
        default=False,
        help_text="The reviewer left the answer's verdict to the claims: "
        "it was derived from the claim verdicts when the label was saved.",
    )
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["answer", "reviewer"], name="one_label_per_reviewer")
        ]

    def __str__(self) -> str:
        return f"{self.reviewer} on {self.answer_id}: {self.verdict}"


class ClaimLabel(models.Model):
    """A verdict on one claim, identified by its UTF-8 byte span in the answer text."""

    label = models.ForeignKey(AnswerLabel, on_delete=models.CASCADE, related_name="claims")
    start_index = models.PositiveBigIntegerField()
    end_index = models.PositiveBigIntegerField()
    claim_text = models.TextField(blank=True)
    verdict = models.CharField(max_length=32, choices=Verdict.choices, db_index=True)
    # Reviewer-picked supporting chunks: ["<reference position>", "<reference position>:<chunk>"].
    corrected_citations = models.JSONField(default=list, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["label", "start_index", "end_index"]
        constraints = [
            models.CheckConstraint(
                condition=Q(start_index__lte=F("end_index")), name="claim_label_span_ordered"
            ),
            models.UniqueConstraint(
                fields=["label", "start_index", "end_index"], name="one_verdict_per_claim_span"
            ),
        ]

    def __str__(self) -> str:
        return f"[{self.start_index}, {self.end_index}) {self.verdict}"


class Assignment(models.Model):
    """A reviewer's lease on a queued answer, so two reviewers are not shown the same answer.

    Leases expire, so an answer abandoned in a closed tab returns to the queue by itself.
    """

    answer = models.ForeignKey(
        "answers.Answer", on_delete=models.CASCADE, related_name="assignments"
    )
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assignments"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["answer", "reviewer"], name="one_lease_per_reviewer")
        ]

    def __str__(self) -> str:
        return f"{self.reviewer} on {self.answer_id} until {self.expires_at:%H:%M}"


class Adjudication(models.Model):
    """The settled verdict on one claim of an answer, identified by its UTF-8 byte span.

    It is the claim's final label: exports and agreement figures use it in place of the
    reviewers' verdicts, which are kept as they were given.
    """

    answer = models.ForeignKey(
        "answers.Answer", on_delete=models.CASCADE, related_name="adjudications"
    )
    start_index = models.PositiveBigIntegerField()
    end_index = models.PositiveBigIntegerField()
    claim_text = models.TextField(blank=True)
    verdict = models.CharField(max_length=32, choices=Verdict.choices)
    note = models.TextField(blank=True)
    adjudicator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="adjudications"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["answer", "start_index", "end_index"]
        constraints = [
            models.CheckConstraint(
                condition=Q(start_index__lte=F("end_index")), name="adjudication_span_ordered"
            ),
            models.UniqueConstraint(
                fields=["answer", "start_index", "end_index"], name="one_adjudication_per_claim"
            ),
        ]
        permissions = [("adjudicate", "Can settle a claim's final verdict")]

    def __str__(self) -> str:
        return f"{self.answer_id} [{self.start_index}, {self.end_index}) {self.verdict}"
