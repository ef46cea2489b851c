"""Sessions and answers in the shape of the Vertex AI Search `Answer` resource.

The document as imported, in its REST form (`raw`), is the record: exports and `answers.get` return it, so
fields groundview does not know survive a round trip. The typed tables below are a projection of
that document, rebuilt whenever a re-import changes it, so reviewers can filter, join and
highlight without parsing JSON. Nothing in groundview writes to either besides the importer;
grounding checks live in their own table.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone


class Session(models.Model):
    name = models.CharField(max_length=1024, unique=True)
    state = models.CharField(max_length=64, blank=True, db_index=True)
    user_pseudo_id = models.CharField(max_length=1024, blank=True)
    start_time = models.DateTimeField(null=True, blank=True)
    end_time = models.DateTimeField(null=True, blank=True)
    # The Vertex Session document, when one was imported (an answer alone implies its session).
    raw = models.JSONField(null=True, blank=True)
    imported_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def short_name(self) -> str:
        return self.name.rsplit("/", 1)[-1]


class AnswerState(models.TextChoices):
    UNSPECIFIED = "STATE_UNSPECIFIED", "Unspecified"
    IN_PROGRESS = "IN_PROGRESS", "In progress"
    FAILED = "FAILED", "Failed"
    SUCCEEDED = "SUCCEEDED", "Succeeded"
    STREAMING = "STREAMING", "Streaming"


# An answer still being generated: its text is not final (a trace whose root span has not
# arrived), so it is neither labelled nor handed out for review yet.
UNFINISHED_STATES = (AnswerState.IN_PROGRESS, AnswerState.STREAMING)


class Answer(models.Model):
    # Null when the answer's name does not follow ".../sessions/{session}/answers/{answer}".
    session = models.ForeignKey(
        Session, null=True, blank=True, on_delete=models.CASCADE, related_name="answers"
    )
    name = models.CharField(max_length=1024, unique=True)
    state = models.CharField(max_length=64, blank=True, db_index=True)
    answer_text = models.TextField(blank=True)
    # The question, when the session's turns name it.
    query_text = models.TextField(blank=True)
    grounding_score = models.FloatField(null=True, blank=True, db_index=True)
    create_time = models.DateTimeField(null=True, blank=True, db_index=True)
    complete_time = models.DateTimeField(null=True, blank=True)
    raw = models.JSONField()
    # groundview's own bookkeeping, never part of the Vertex document.
    latest_check = models.ForeignKey(
        "CheckRun", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    imported_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-create_time", "-id"]

    def __str__(self) -> str:
        return self.name

    @property
    def short_name(self) -> str:
        return self.name.rsplit("/", 1)[-1]

    @property
    def answer_bytes(self) -> int:
        return len(self.answer_text.encode())


class Reference(models.Model):
    class Kind(models.TextChoices):
        UNSTRUCTURED = "unstructuredDocumentInfo", "Unstructured document"
        CHUNK = "chunkInfo", "Chunk"
        STRUCTURED = "structuredDocumentInfo", "Structured document"
        UNKNOWN = "unknown", "Unknown"

    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="references")
    # Index in answer.references; citation sources name it as `referenceId`.
    position = models.PositiveIntegerField()
    kind = models.CharField(max_length=32, choices=Kind.choices)
    document = models.CharField(max_length=1024, blank=True)
    uri = models.CharField(max_length=2048, blank=True)
    title = models.TextField(blank=True)
    # chunkInfo only: the chunk's resource name, text and relevance.
    chunk = models.CharField(max_length=1024, blank=True)
    content = models.TextField(blank=True)
    relevance_score = models.FloatField(null=True, blank=True)
    page_identifier = models.CharField(max_length=255, blank=True)
    struct_data = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["answer", "position"]
        constraints = [
            models.UniqueConstraint(fields=["answer", "position"], name="reference_position_unique")
        ]

    def __str__(self) -> str:
        return self.title or self.document or self.chunk or f"reference {self.position}"

    @property
    def reference_id(self) -> str:
        return str(self.position)


class ReferenceChunk(models.Model):
    """A chunkContents entry of an unstructured document reference."""

    reference = models.ForeignKey(Reference, on_delete=models.CASCADE, related_name="chunks")
    position = models.PositiveIntegerField()
    content = models.TextField(blank=True)
    page_identifier = models.CharField(max_length=255, blank=True)
    relevance_score = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["reference", "position"]
        constraints = [
            models.UniqueConstraint(fields=["reference", "position"], name="chunk_position_unique")
        ]

    def __str__(self) -> str:
        return self.content[:60]


class Citation(models.Model):
    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="citations")
    position = models.PositiveIntegerField()
    start_index = models.PositiveBigIntegerField()
    end_index = models.PositiveBigIntegerField()
    references = models.ManyToManyField(Reference, related_name="citations", blank=True)

    class Meta:
        ordering = ["answer", "position"]
        constraints = [
            models.UniqueConstraint(fields=["answer", "position"], name="citation_position_unique"),
            models.CheckConstraint(
                condition=Q(start_index__lte=F("end_index")), name="citation_span_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"[{self.start_index}, {self.end_index})"


class GroundingSupport(models.Model):
    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="grounding_supports")
    position = models.PositiveIntegerField()
    start_index = models.PositiveBigIntegerField()
    end_index = models.PositiveBigIntegerField()
    grounding_score = models.FloatField(null=True, blank=True)
    grounding_check_required = models.BooleanField(null=True, blank=True)
    references = models.ManyToManyField(Reference, related_name="grounding_supports", blank=True)

    class Meta:
        ordering = ["answer", "position"]
        constraints = [
            models.UniqueConstraint(fields=["answer", "position"], name="support_position_unique"),
            models.CheckConstraint(
                condition=Q(start_index__lte=F("end_index")), name="support_span_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"[{self.start_index}, {self.end_index})"


class RelatedQuestion(models.Model):
    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="related_questions")
    position = models.PositiveIntegerField()
    text = models.TextField()

    class Meta:
        ordering = ["answer", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["answer", "position"], name="related_question_position_unique"
            )
        ]

    def __str__(self) -> str:
        return self.text


class SkippedReason(models.Model):
    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="skipped_reasons")
    position = models.PositiveIntegerField()
    reason = models.CharField(max_length=64, db_index=True)

    class Meta:
        ordering = ["answer", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["answer", "position"], name="skipped_reason_position_unique"
            )
        ]

    def __str__(self) -> str:
        return self.reason


class QueryClassification(models.Model):
    answer = models.ForeignKey(
        Answer, on_delete=models.CASCADE, related_name="query_classifications"
    )
    position = models.PositiveIntegerField()
    type = models.CharField(max_length=64, db_index=True)
    positive = models.BooleanField(null=True, blank=True)

    class Meta:
        ordering = ["answer", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["answer", "position"], name="classification_position_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.type}={self.positive}"


class SafetyRating(models.Model):
    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="safety_ratings")
    position = models.PositiveIntegerField()
    category = models.CharField(max_length=64, db_index=True)
    probability = models.CharField(max_length=64, blank=True)
    probability_score = models.FloatField(null=True, blank=True)
    severity = models.CharField(max_length=64, blank=True)
    severity_score = models.FloatField(null=True, blank=True)
    blocked = models.BooleanField(null=True, blank=True)

    class Meta:
        ordering = ["answer", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["answer", "position"], name="safety_rating_position_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.category}: {self.probability}"


class Step(models.Model):
    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="steps")
    position = models.PositiveIntegerField()
    state = models.CharField(max_length=64, blank=True)
    description = models.TextField(blank=True)
    thought = models.TextField(blank=True)

    class Meta:
        ordering = ["answer", "position"]
        constraints = [
            models.UniqueConstraint(fields=["answer", "position"], name="step_position_unique")
        ]

    def __str__(self) -> str:
        return self.description or f"step {self.position}"


class StepAction(models.Model):
    step = models.ForeignKey(Step, on_delete=models.CASCADE, related_name="actions")
    position = models.PositiveIntegerField()
    search_query = models.TextField(blank=True)

    class Meta:
        ordering = ["step", "position"]
        constraints = [
            models.UniqueConstraint(fields=["step", "position"], name="action_position_unique")
        ]

    def __str__(self) -> str:
        return self.search_query


class SearchResult(models.Model):
    """One observed search result of an action; `snippets` and `chunks` hold its content."""

    action = models.ForeignKey(StepAction, on_delete=models.CASCADE, related_name="search_results")
    position = models.PositiveIntegerField()
    document = models.CharField(max_length=1024, blank=True)
    uri = models.CharField(max_length=2048, blank=True)
    title = models.TextField(blank=True)
    struct_data = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["action", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["action", "position"], name="search_result_position_unique"
            )
        ]

    def __str__(self) -> str:
        return self.title or self.document


class SearchResultSnippet(models.Model):
    result = models.ForeignKey(SearchResult, on_delete=models.CASCADE, related_name="snippets")
    position = models.PositiveIntegerField()
    snippet = models.TextField(blank=True)
    snippet_status = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["result", "position"]
        constraints = [
            models.UniqueConstraint(fields=["result", "position"], name="snippet_position_unique")
        ]

    def __str__(self) -> str:
        return self.snippet[:60]


class SearchResultChunk(models.Model):
    result = models.ForeignKey(SearchResult, on_delete=models.CASCADE, related_name="chunks")
    position = models.PositiveIntegerField()
    chunk = models.CharField(max_length=1024, blank=True)
    content = models.TextField(blank=True)
    relevance_score = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["result", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["result", "position"], name="result_chunk_position_unique"
            )
        ]

    def __str__(self) -> str:
        return self.content[:60]


class CheckBatch(models.Model):
    """A group of grounding checks queued together; its progress is counted from its runs."""

    created_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    description = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "check batches"

    def __str__(self) -> str:
        return self.description or f"batch {self.pk}"


class CheckerVersion(models.Model):
    """A calibration of the checker's head fitted on human claim labels (`manage.py calibrate_checker`).

    `head_spec` is a whole head file in the shape of groundview/grounding/head.json; the default
    version's head is the one every engine of every process uses (answers/checks/versions.py), the
    packaged head when no version is the default. The held-out figures were measured when it was
    fitted, on the answers the fixed split keeps out of every fit.
    """

    class Method(models.TextChoices):
        PLATT = "platt", "Platt scaling of the head's log-odds"
        FEATURES = "features", "Head refitted over its features"

    name = models.CharField(max_length=64, unique=True)
    engine_version = models.CharField(max_length=64)
    verifier = models.CharField(max_length=32)
    method = models.CharField(max_length=16, choices=Method.choices)
    # The head version this one was fitted from, e.g. "head-v3-features".
    calibrated_from = models.CharField(max_length=128, blank=True)
    head_spec = models.JSONField()
    # Counts of claims, answers and reviewer labels on each side of the split.
    fitted_on = models.JSONField(default=dict, blank=True)
    heldout_claims = models.PositiveIntegerField(default=0)
    balanced_accuracy = models.FloatField(null=True, blank=True)
    auc = models.FloatField(null=True, blank=True)
    brier = models.FloatField(null=True, blank=True)
    # [{"low", "high", "count", "mean_score", "share_supported"}], ten bins over [0, 1].
    calibration_bins = models.JSONField(default=list, blank=True)
    # Every head that could be compared (the packaged one, earlier versions, this one), scored on
    # the same held-out claims when this version was fitted.
    comparison = models.JSONField(default=list, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    is_default = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["is_default"],
                condition=Q(is_default=True),
                name="one_default_checker_version",
            ),
        ]

    def __str__(self) -> str:
        return self.name


def lease_deadline() -> datetime:
    """When an unfinished run counts as stranded if nobody has renewed its lease by then."""
    return timezone.now() + timedelta(seconds=settings.GROUNDVIEW_STALE_RUN_SECONDS)


class CheckRun(models.Model):
    """One run of groundview's grounding checker over a stored answer. Never overwritten.

    The table is the queue of record; the broker only carries wake-ups. An unfinished run holds a
    lease: a worker renews it while it runs, and a run still queued or running after its lease
    ran out lost its worker or its message, so the sweep (checks/leases.py) sends it again.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        SUCCEEDED = "succeeded", "Succeeded"
        FAILED = "failed", "Failed"

    answer = models.ForeignKey(Answer, on_delete=models.CASCADE, related_name="check_runs")
    batch = models.ForeignKey(
        CheckBatch, null=True, blank=True, on_delete=models.SET_NULL, related_name="runs"
    )
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.QUEUED, db_index=True
    )
    request = models.JSONField(null=True, blank=True)
    response = models.JSONField(null=True, blank=True)
    engine_version = models.CharField(max_length=64, blank=True)
    model_id = models.CharField(max_length=255, blank=True)
    # The calibrated head the engine used; null for the packaged head (or a run not yet run).
    checker_version = models.ForeignKey(
        CheckerVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="runs"
    )
    citation_threshold = models.FloatField(null=True, blank=True)
    support_score = models.FloatField(null=True, blank=True, db_index=True)
    error = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0)
    # Set when the run is queued, renewed while a worker runs it (checks/leases.py).
    lease_expires_at = models.DateTimeField(default=lease_deadline)
    # Times the sweep sent the run again; bumped in the same statement that claims the requeue,
    # so of two sweepers that saw the same stale run only one sends it.
    requeues = models.PositiveIntegerField(default=0)
    # Milliseconds per stage, as the engine and the task measured them.
    timings = models.JSONField(default=dict, blank=True)
    # Where each fact of `request` came from, by fact index (the index `citedChunks[].source`
    # names): {"reference": position, "chunk": position or null}, or for a search result seen in
    # the answer's steps {"reference": null, "chunk": null, "observation": {...}}.
    fact_sources = models.JSONField(default=list, blank=True)
    queued_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-queued_at", "-id"]

    def __str__(self) -> str:
        return f"check {self.pk} of {self.answer_id} ({self.status})"

    @property
    def is_finished(self) -> bool:
        return self.status not in UNFINISHED_RUNS


# A run still to finish: queued, or running under a lease (checks/leases.py).
UNFINISHED_RUNS = (CheckRun.Status.QUEUED, CheckRun.Status.RUNNING)
