from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.db.models import Q
from django.http import StreamingHttpResponse
from django.urls import reverse
from django.utils.html import format_html

from groundview.answers import checks
from groundview.answers.exporting import answer_jsonl
from groundview.answers.models import (
    Answer,
    CheckBatch,
    CheckRun,
    Citation,
    GroundingSupport,
    Reference,
    SafetyRating,
    Session,
    SkippedReason,
)


class ReadOnlyInline(admin.TabularInline):
    """Imported Vertex data is edited by re-importing, never by hand."""

    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class CitationInline(ReadOnlyInline):
    model = Citation
    fields = ["position", "start_index", "end_index", "reference_ids"]
    readonly_fields = fields

    @admin.display(description="sources")
    def reference_ids(self, obj):
        return ", ".join(str(reference.position) for reference in obj.references.all())


class GroundingSupportInline(CitationInline):
    model = GroundingSupport
    fields = [
        "position",
        "start_index",
        "end_index",
        "grounding_score",
        "grounding_check_required",
        "reference_ids",
    ]
    readonly_fields = fields


class ReferenceInline(ReadOnlyInline):
    model = Reference
    fields = ["position", "kind", "title", "uri", "document", "relevance_score"]
    readonly_fields = fields


class SafetyRatingInline(ReadOnlyInline):
    model = SafetyRating
    fields = [
        "category",
        "probability",
        "probability_score",
        "severity",
        "severity_score",
        "blocked",
    ]
    readonly_fields = fields


class SkipReasonFilter(admin.SimpleListFilter):
    title = "skip reason"
    parameter_name = "skip_reason"

    def lookups(self, request, model_admin):
        reasons = (
            SkippedReason.objects.values_list("reason", flat=True).distinct().order_by("reason")
        )
        return [("none", "Not skipped")] + [(reason, reason) for reason in reasons]

    def queryset(self, request, queryset):
        if self.value() == "none":
            return queryset.filter(skipped_reasons__isnull=True)
        if self.value():
            return queryset.filter(skipped_reasons__reason=self.value()).distinct()
        return queryset


class ScoreBucketFilter(admin.SimpleListFilter):
    """Support score of groundview's latest check, in quarters."""

    title = "support score (latest check)"
    parameter_name = "score"
    field = "latest_check__support_score"
    buckets = {
        "0-25": (0.0, 0.25),
        "25-50": (0.25, 0.5),
        "50-75": (0.5, 0.75),
        "75-100": (0.75, 1.0),
    }

    def lookups(self, request, model_admin):
        return [("none", "Not checked")] + [
            (key, f"{low:.2f} – {high:.2f}") for key, (low, high) in self.buckets.items()
        ]

    def queryset(self, request, queryset):
        value = self.value()
        if value == "none":
            return queryset.filter(**{f"{self.field}__isnull": True})
        if value in self.buckets:
            low, high = self.buckets[value]
            # Half-open buckets, except the last, so 1.0 lands somewhere and nothing twice.
            upper = (
                Q(**{f"{self.field}__lte": high})
                if high == 1.0
                else Q(**{f"{self.field}__lt": high})
            )
            return queryset.filter(Q(**{f"{self.field}__gte": low}) & upper)
        return queryset


class GroundingScoreBucketFilter(ScoreBucketFilter):
    """The producing system's own groundingScore, in quarters."""

    title = "groundingScore (producer)"
    parameter_name = "grounding"
    field = "grounding_score"

    def lookups(self, request, model_admin):
        return [("none", "No groundingScore"), *super().lookups(request, model_admin)[1:]]


class AnswerChangeList(ChangeList):
    def get_queryset(self, request, exclude_parameters=None):
        # The list shows none of the JSON documents; loading them is most of a page's cost.
        return (
            super()
            .get_queryset(request, exclude_parameters)
            .defer("raw", "session__raw", "latest_check__request", "latest_check__response")
        )


@admin.register(Answer)
class AnswerAdmin(admin.ModelAdmin):
    list_display = [
        "short_name",
        "state",
        "grounding_score",
        "support_score",
        "session",
        "create_time",
    ]
    list_filter = ["state", SkipReasonFilter, ScoreBucketFilter, GroundingScoreBucketFilter]
    search_fields = ["name", "answer_text", "query_text"]
    list_select_related = ["session", "latest_check"]
    actions = ["run_grounding_check", "export_jsonl"]
    readonly_fields = [
        "name",
        "session",
        "state",
        "query_text",
        "answer_text",
        "grounding_score",
        "create_time",
        "complete_time",
        "latest_check",
        "imported_at",
        "updated_at",
        "raw",
    ]
    inlines = [CitationInline, GroundingSupportInline, ReferenceInline, SafetyRatingInline]

    def has_add_permission(self, request):
        return False

    def get_changelist(self, request, **kwargs):
        return AnswerChangeList

    @admin.display(description="support score", ordering="latest_check__support_score")
    def support_score(self, obj):
        return obj.latest_check.support_score if obj.latest_check else None

    @admin.action(description="Run grounding check")
    def run_grounding_check(self, request, queryset):
        batch = checks.queue_checks(
            queryset,
            created_by=request.user,
            description=f"admin: {queryset.count()} selected answer(s)",
        )
        url = reverse("admin:answers_checkbatch_change", args=[batch.pk])
        self.message_user(
            request,
            format_html('Queued grounding checks in <a href="{}">{}</a>.', url, batch),
            messages.SUCCESS,
        )

    @admin.action(description="Export selected as JSONL")
    def export_jsonl(self, request, queryset):
        response = StreamingHttpResponse(
            answer_jsonl(queryset), content_type="application/jsonl; charset=utf-8"
        )
        response["Content-Disposition"] = 'attachment; filename="answers.jsonl"'
        return response


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["name", "state", "user_pseudo_id", "start_time"]
    list_filter = ["state"]
    search_fields = ["name", "user_pseudo_id"]
    readonly_fields = ["name", "state", "user_pseudo_id", "start_time", "end_time", "raw"]


@admin.register(CheckRun)
class CheckRunAdmin(admin.ModelAdmin):
    list_display = [
        "pk",
        "answer",
        "status",
        "support_score",
        "model_id",
        "queued_at",
        "lease_expires_at",
        "attempts",
        "finished_at",
    ]
    list_filter = ["status", "model_id"]
    list_select_related = ["answer"]
    search_fields = ["answer__name", "error"]
    readonly_fields = [field.name for field in CheckRun._meta.fields]
    actions = ["requeue"]

    @admin.action(description="Send unfinished runs to the workers again")
    def requeue(self, request, queryset):
        # Whatever their lease says: the operator knows the worker or the message is gone. A run
        # a live worker holds is skipped by that worker's lock, so a mistake costs nothing.
        sweep = checks.requeue_runs(queryset)
        self.message_user(
            request,
            f"Sent {len(sweep.requeued)} run(s) again; failed {len(sweep.given_up)} that had "
            f"lost their worker {checks.MAX_ATTEMPTS} times. Finished runs are left as they are.",
            messages.SUCCESS,
        )


@admin.register(CheckBatch)
class CheckBatchAdmin(admin.ModelAdmin):
    list_display = ["pk", "description", "created_by", "created_at"]
    readonly_fields = ["description", "created_by", "created_at", "progress"]

    @admin.display(description="progress")
    def progress(self, obj):
        progress = checks.batch_progress(obj, failure_limit=20)
        return (
            f"{progress.done} of {progress.total} done: {progress.succeeded} succeeded, "
            f"{progress.failed} failed, {progress.running} running, {progress.queued} queued"
        )
