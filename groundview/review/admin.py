"""Admin labelling: labels inline on the answer page, label filters, and "mark reviewed".

The answer admin itself lives in the answers app; the review app extends it here (answers must
not import review), so the admin's answer page is the one registered below.
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import Count, Exists, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

from groundview.answers.admin import AnswerAdmin
from groundview.answers.models import Answer
from groundview.review.forms import add_field_error
from groundview.review.models import AnswerLabel, ClaimLabel, Verdict
from groundview.review.services import save_label
from groundview.review.verdicts import LabelError, check_span


class ClaimLabelForm(forms.ModelForm):
    """Checks the span like the review UI does, and takes the claim text from the answer."""

    class Meta:
        model = ClaimLabel
        fields = ["start_index", "end_index", "verdict", "corrected_citations", "note"]

    def clean(self):
        cleaned = super().clean()
        label = self.instance.label if self.instance.label_id else None
        answer = getattr(self, "answer", None) or (label.answer if label else None)
        start, end = cleaned.get("start_index"), cleaned.get("end_index")
        if answer is None or start is None or end is None:
            return cleaned
        data = answer.answer_text.encode()
        try:
            check_span(data, start, end, "claim")
        except LabelError as error:
            add_field_error(self, error)
            return cleaned
        self.instance.claim_text = data[start:end].decode()
        return cleaned


class ClaimLabelInline(admin.TabularInline):
    model = ClaimLabel
    form = ClaimLabelForm
    extra = 0
    fields = ["start_index", "end_index", "claim_text", "verdict", "corrected_citations", "note"]
    readonly_fields = ["claim_text"]

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        answer = obj.answer if obj is not None else None

        class WithAnswer(formset):
            def _construct_form(self, i, **form_kwargs):
                form = super()._construct_form(i, **form_kwargs)
                form.answer = answer
                return form

        return WithAnswer


@admin.register(AnswerLabel)
class AnswerLabelAdmin(admin.ModelAdmin):
    list_display = ["pk", "answer", "reviewer", "verdict", "claim_count", "updated_at"]
    list_filter = ["verdict", "reviewer"]
    list_select_related = ["answer", "reviewer"]
    search_fields = ["answer__name", "note", "reviewer__username"]
    raw_id_fields = ["answer"]
    readonly_fields = ["created_at", "updated_at"]
    inlines = [ClaimLabelInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(claim_total=Count("claims"))

    def get_inlines(self, request, obj):
        # Claim spans are checked against the answer's text, so the answer must be chosen first.
        return self.inlines if obj is not None else []

    @admin.display(description="claims", ordering="claim_total")
    def claim_count(self, obj):
        return obj.claim_total

    def get_changeform_initial_data(self, request):
        return {"reviewer": request.user.pk, **super().get_changeform_initial_data(request)}


class AnswerLabelInline(admin.TabularInline):
    model = AnswerLabel
    extra = 1
    fields = ["reviewer", "verdict", "note", "updated_at"]
    readonly_fields = ["updated_at"]
    # Per-claim verdicts are edited on the label's own page.
    show_change_link = True

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        formset.form.base_fields["reviewer"].initial = request.user.pk
        return formset


def label_total():
    # A subquery, not JOIN + GROUP BY over every answer column (the JSON document among them).
    counts = (
        AnswerLabel.objects.filter(answer=OuterRef("pk"))
        .order_by()
        .values("answer")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(counts, output_field=IntegerField()), Value(0))


class LabelStatusFilter(admin.SimpleListFilter):
    title = "label status"
    parameter_name = "label_status"

    def lookups(self, request, model_admin):
        return [
            ("labelled", "Labelled"),
            ("unlabelled", "Unlabelled"),
            ("mine", "Labelled by me"),
            ("not_mine", "Not labelled by me"),
            ("double", "Labelled by two or more"),
        ]

    def queryset(self, request, queryset):
        labels = AnswerLabel.objects.filter(answer=OuterRef("pk"))
        mine = labels.filter(reviewer=request.user)
        value = self.value()
        if value == "labelled":
            return queryset.filter(Exists(labels))
        if value == "unlabelled":
            return queryset.filter(~Exists(labels))
        if value == "mine":
            return queryset.filter(Exists(mine))
        if value == "not_mine":
            return queryset.filter(~Exists(mine))
        if value == "double":
            return queryset.alias(labels_given=label_total()).filter(labels_given__gte=2)
        return queryset


class VerdictActionForm(ActionForm):
    verdict = forms.ChoiceField(
        choices=[("", "verdict for “mark reviewed”…"), *Verdict.choices], required=False
    )


admin.site.unregister(Answer)


@admin.register(Answer)
class LabellingAnswerAdmin(AnswerAdmin):
    inlines = [AnswerLabelInline, *AnswerAdmin.inlines]
    list_filter = [*AnswerAdmin.list_filter, LabelStatusFilter]
    list_display = [*AnswerAdmin.list_display, "label_count"]
    actions = [*AnswerAdmin.actions, "mark_reviewed"]
    action_form = VerdictActionForm

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(label_total=label_total())

    @admin.display(description="labels", ordering="label_total")
    def label_count(self, obj):
        return obj.label_total

    @admin.action(description="Mark reviewed (answer-level verdict by me)")
    def mark_reviewed(self, request, queryset):
        verdict = request.POST.get("verdict", "")
        if verdict not in Verdict.values:
            self.message_user(
                request,
                "Choose a verdict next to the action to mark answers reviewed.",
                messages.ERROR,
            )
            return
        # Labels this admin already gave keep their claims; marking never overwrites them.
        already = set(
            AnswerLabel.objects.filter(answer__in=queryset, reviewer=request.user).values_list(
                "answer_id", flat=True
            )
        )
        marked = 0
        for answer in queryset.exclude(pk__in=already):
            save_label(answer, request.user, verdict=verdict, note="marked reviewed in admin")
            marked += 1
        message = f"Marked {marked} answer(s) reviewed as “{Verdict(verdict).label}”."
        if already:
            message += f" {len(already)} already had your label and were left as they were."
        self.message_user(request, message, messages.SUCCESS)
