import json

from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.db.models import JSONField, Q
from django.http import StreamingHttpResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import Truncator

from groundview.answers import checks
from groundview.answers.exporting import answer_jsonl
from groundview.answers.models import (
    Answer,
    AnswerState,
    CheckBatch,
    CheckRun,
    Citation,
    GroundingSupport,
    Reference,
    SafetyRating,
    Session,
    SkippedReason,
)
from groundview.answers.queries import count_of


def pretty_json(value):
    """A JSON document indented in a <pre>, escaped: imported documents come from other systems."""
    if value is None:
        return "–"
    text = json.dumps(value, indent=2, ensure_ascii=False)
    return format_html('<pre class="gv-json">{}</pre>', text)


class GroundviewAdminMedia:
    # The Content-Security-Policy refuses inline styles: the admin's extra rules are a file.
    css = {"all": ["groundview/admin.css"]}


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


class StateFilter(admin.SimpleListFilter):
    """Answer states in words; the parameter keeps the name Django's field filter gave it."""

    title = "state"
    parameter_name = "state__exact"

    def lookups(self, request, model_admin):
        return AnswerState.choices

    def queryset(self, request, queryset):
        return queryset.filter(state=self.value()) if self.value() else queryset


def state_words(state: str) -> str:
    return AnswerState(state).label if state in AnswerState.values else state or "–"


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


class LatestCheckFilter(admin.SimpleListFilter):
    title = "latest check"
    parameter_name = "check"

    def lookups(self, request, model_admin):
        return [("none", "Never checked"), *CheckRun.Status.choices]

    def queryset(self, request, queryset):
        if self.value() == "none":
            return queryset.filter(latest_check__isnull=True)
        if self.value() in CheckRun.Status.values:
            return queryset.filter(latest_check__status=self.value())
        return queryset


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
        "question",
        "state_name",
        "grounding_score",
        "support_score",
        "session_name",
        "create_time",
    ]
    list_display_links = ["short_name", "question"]
    list_filter = [
        StateFilter,
        LatestCheckFilter,
        SkipReasonFilter,
        ScoreBucketFilter,
        GroundingScoreBucketFilter,
    ]
    date_hierarchy = "create_time"
    search_fields = ["name", "answer_text", "query_text"]
    list_select_related = ["session", "latest_check"]
    list_per_page = 50
    actions = ["run_grounding_check", "export_jsonl"]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "name",
                    "session",
                    "state_name",
                    "query_text",
                    "answer_text",
                    ("grounding_score", "latest_check"),
                    ("create_time", "complete_time"),
                    ("imported_at", "updated_at"),
                ]
            },
        ),
        ("Vertex document, as imported", {"fields": ["raw_document"], "classes": ["collapse"]}),
    ]
    readonly_fields = [
        "name",
        "session",
        "state_name",
        "query_text",
        "answer_text",
        "grounding_score",
        "create_time",
        "complete_time",
        "latest_check",
        "imported_at",
        "updated_at",
        "raw_document",
    ]
    inlines = [CitationInline, GroundingSupportInline, ReferenceInline, SafetyRatingInline]
    Media = GroundviewAdminMedia

    def has_add_permission(self, request):
        return False

    def get_changelist(self, request, **kwargs):
        return AnswerChangeList

    @admin.display(description="question", ordering="query_text")
    def question(self, obj):
        # The question when the session named it, else the start of the answer.
        return Truncator(obj.query_text or obj.answer_text).chars(120) or "–"

    @admin.display(description="state", ordering="state")
    def state_name(self, obj):
        return state_words(obj.state)

    @admin.display(description="session", ordering="session__name")
    def session_name(self, obj):
        return obj.session.short_name if obj.session else "–"

    @admin.display(description="support score", ordering="latest_check__support_score")
    def support_score(self, obj):
        return obj.latest_check.support_score if obj.latest_check else None

    @admin.display(description="document")
    def raw_document(self, obj):
        return pretty_json(obj.raw)

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
    list_display = ["name", "state", "user_pseudo_id", "answer_count", "start_time"]
    list_filter = ["state"]
    search_fields = ["name", "user_pseudo_id"]
    fields = ["name", "state", "user_pseudo_id", ("start_time", "end_time"), "raw_document"]
    readonly_fields = ["name", "state", "user_pseudo_id", "start_time", "end_time", "raw_document"]
    Media = GroundviewAdminMedia

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .defer("raw")
            .annotate(answer_total=count_of(Answer, "session"))
        )

    def has_add_permission(self, request):
        # Sessions come with their answers (an import); one added by hand would be an empty shell.
        return False

    @admin.display(description="answers", ordering="answer_total")
    def answer_count(self, obj):
        return obj.answer_total

    @admin.display(description="document")
    def raw_document(self, obj):
        # The list defers the document; the change page loads it.
        return pretty_json(obj.raw)


class HasErrorFilter(admin.SimpleListFilter):
    title = "error"
    parameter_name = "has_error"

    def lookups(self, request, model_admin):
        return [("yes", "With an error"), ("no", "Without")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.exclude(error="")
        if self.value() == "no":
            return queryset.filter(error="")
        return queryset


class CheckRunChangeList(ChangeList):
    def get_queryset(self, request, exclude_parameters=None):
        # The list shows none of the JSON documents (a response holds every cited chunk).
        return (
            super()
            .get_queryset(request, exclude_parameters)
            .defer("request", "response", "fact_sources", "answer__raw")
        )


@admin.register(CheckRun)
class CheckRunAdmin(admin.ModelAdmin):
    list_display = [
        "pk",
        "answer_name",
        "status",
        "score",
        "engine_version",
        "model_id",
        "citation_threshold",
        "seconds",
        "attempts",
        "queued_at",
        "lease_expires_at",
        "short_error",
    ]
    list_display_links = ["pk", "answer_name"]
    list_filter = ["status", HasErrorFilter, "engine_version", "model_id", "citation_threshold"]
    date_hierarchy = "queued_at"
    list_select_related = ["answer"]
    search_fields = ["answer__name", "error"]
    actions = ["requeue"]
    Media = GroundviewAdminMedia

    # The JSON documents are shown indented, in this order, after the other fields.
    documents = {
        "request": "request_document",
        "response": "response_document",
        "fact_sources": "fact_sources_document",
        "timings": "timings_document",
    }

    def get_fields(self, request, obj=None):
        plain = [
            field.name
            for field in CheckRun._meta.fields
            if field.name != "id" and not isinstance(field, JSONField)
        ]
        return plain + list(self.documents.values())

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    def get_changelist(self, request, **kwargs):
        return CheckRunChangeList

    def has_add_permission(self, request):
        # Runs are made by queueing checks (the answer actions), never typed in.
        return False

    @admin.display(description="answer", ordering="answer__name")
    def answer_name(self, obj):
        return obj.answer.short_name

    @admin.display(description="support score", ordering="support_score")
    def score(self, obj):
        return "–" if obj.support_score is None else f"{obj.support_score:.3f}"

    @admin.display(description="seconds")
    def seconds(self, obj):
        if obj.started_at and obj.finished_at:
            return f"{(obj.finished_at - obj.started_at).total_seconds():.2f}"
        return "–"

    @admin.display(description="error", ordering="error")
    def short_error(self, obj):
        return Truncator(obj.error).chars(80)

    @admin.display(description="request")
    def request_document(self, obj):
        return pretty_json(obj.request)

    @admin.display(description="response")
    def response_document(self, obj):
        return pretty_json(obj.response)

    @admin.display(description="fact sources")
    def fact_sources_document(self, obj):
        return pretty_json(obj.fact_sources)

    @admin.display(description="timings (ms)")
    def timings_document(self, obj):
        return pretty_json(obj.timings)

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

    def has_add_permission(self, request):
        # A batch is the checks it queued (the answer list or the API queue them).
        return False

    @admin.display(description="progress")
    def progress(self, obj):
        progress = checks.batch_progress(obj, failure_limit=20)
        return (
            f"{progress.done} of {progress.total} done: {progress.succeeded} succeeded, "
            f"{progress.failed} failed, {progress.running} running, {progress.queued} queued"
        )
