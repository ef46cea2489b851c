from django.contrib import admin

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
    fields = ["category", "probability", "probability_score", "severity", "severity_score", "blocked"]
    readonly_fields = fields


class SkipReasonFilter(admin.SimpleListFilter):
    title = "skip reason"
    parameter_name = "skip_reason"

    def lookups(self, request, model_admin):
        reasons = SkippedReason.objects.values_list("reason", flat=True).distinct().order_by("reason")
        return [("none", "Not skipped")] + [(reason, reason) for reason in reasons]

    def queryset(self, request, queryset):
        if self.value() == "none":
            return queryset.filter(skipped_reasons__isnull=True)
        if self.value():
            return queryset.filter(skipped_reasons__reason=self.value()).distinct()
        return queryset


@admin.register(Answer)
class AnswerAdmin(admin.ModelAdmin):
    list_display = ["short_name", "state", "grounding_score", "session", "create_time"]
    list_filter = ["state", SkipReasonFilter]
    search_fields = ["name", "answer_text", "query_text"]
    list_select_related = ["session"]
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


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["name", "state", "user_pseudo_id", "start_time"]
    list_filter = ["state"]
    search_fields = ["name", "user_pseudo_id"]
    readonly_fields = ["name", "state", "user_pseudo_id", "start_time", "end_time", "raw"]


@admin.register(CheckRun)
class CheckRunAdmin(admin.ModelAdmin):
    list_display = ["pk", "answer", "status", "support_score", "model_id", "queued_at", "finished_at"]
    list_filter = ["status", "model_id"]
    list_select_related = ["answer"]
    search_fields = ["answer__name", "error"]
    readonly_fields = [field.name for field in CheckRun._meta.fields]


@admin.register(CheckBatch)
class CheckBatchAdmin(admin.ModelAdmin):
    list_display = ["pk", "description", "created_by", "created_at"]
