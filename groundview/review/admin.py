"""Admin labelling: labels inline on the answer page, label filters, and "mark reviewed".

The answer admin itself lives in the answers app; the review app extends it here (answers must
not import review), so the admin's answer page is the one registered below.
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db import models
from django.db.models import Count, Exists, OuterRef
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.text import Truncator

from groundview.answers.admin import AnswerAdmin, GroundviewAdminMedia, SkipReasonFilter
from groundview.answers.models import Answer
from groundview.answers.queries import count_of
from groundview.review.forms import add_field_error
from groundview.review.models import Adjudication, AnswerLabel, ClaimLabel, Verdict
from groundview.review.services import save_label
from groundview.review.verdicts import LabelError, check_citations, check_span, citation_targets
from groundview.review.words import plain

# Notes in the label tables: a short box, not the admin's default 10 rows.
SHORT_NOTES = {models.TextField: {"widget": forms.Textarea(attrs={"rows": 2, "cols": 40})}}


class ClaimLabelForm(forms.ModelForm):
    """Checks the span and the corrected citations as the review UI does, and takes the claim
    text from the answer."""

    class Meta:
        model = ClaimLabel
        fields = ["start_index", "end_index", "verdict", "corrected_citations", "note"]
        help_texts = {
            "corrected_citations": 'A list of positions from 0, as the API stores them: ["0", '
            '"1:2"] is reference 1 and reference 2\'s third chunk, which the review page shows '
            "as 1 and 2:3."
        }

    def clean_corrected_citations(self):
        value = self.cleaned_data.get("corrected_citations")
        if value in (None, ""):
            return []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise forms.ValidationError('Give a list of strings, e.g. ["0", "1:2"].')
        return value

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
            check_citations(
                cleaned.get("corrected_citations") or [], "claim", lambda: citation_targets(answer)
            )
        except LabelError as error:
            add_field_error(self, error)
            return cleaned
        self.instance.claim_text = data[start:end].decode()
        return cleaned


class ClaimLabelInline(admin.TabularInline):
    model = ClaimLabel
    form = ClaimLabelForm
    extra = 0
    formfield_overrides = SHORT_NOTES
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


class ClaimVerdictFilter(admin.SimpleListFilter):
    """Labels (or answers) with at least one claim given this verdict."""

    title = "a claim labelled"
    parameter_name = "claim_verdict"
    # Path from the listed model to its claim labels.
    claims = "claims"

    def lookups(self, request, model_admin):
        return Verdict.choices

    def queryset(self, request, queryset):
        if self.value() in Verdict.values:
            return queryset.filter(
                pk__in=queryset.model.objects.filter(**{f"{self.claims}__verdict": self.value()})
                .order_by()
                .values("pk")
            )
        return queryset


class AnswerClaimVerdictFilter(ClaimVerdictFilter):
    claims = "labels__claims"


def short_answer(answer) -> str:
    return Truncator(answer.query_text or answer.answer_text).chars(80) or answer.short_name


def answer_admin_link(answer) -> str:
    url = reverse("admin:answers_answer_change", args=[answer.pk])
    return format_html('<a href="{}">{}</a>', url, short_answer(answer))


def claims_summary(claims) -> str:
    """ "3 claims: 2 supported, 1 unsupported" from a label's claim labels."""
    counts = {}
    for claim in claims:
        counts[claim.verdict] = counts.get(claim.verdict, 0) + 1
    if not counts:
        return "no claim verdicts"
    parts = [f"{n} {Verdict(v).label.lower()}" for v, n in counts.items()]
    total = sum(counts.values())
    return f"{total} claim{'s' if total != 1 else ''}: " + ", ".join(parts)


@admin.register(AnswerLabel)
class AnswerLabelAdmin(admin.ModelAdmin):
    list_display = ["pk", "answer_link", "reviewer", "verdict", "claim_count", "updated_at"]
    list_display_links = ["pk"]
    list_filter = ["verdict", ClaimVerdictFilter, "reviewer", "updated_at"]
    date_hierarchy = "updated_at"
    list_select_related = ["answer", "reviewer"]
    search_fields = ["answer__name", "answer__query_text", "note", "reviewer__username"]
    raw_id_fields = ["answer"]
    readonly_fields = ["created_at", "updated_at"]
    inlines = [ClaimLabelInline]
    Media = GroundviewAdminMedia

    def get_queryset(self, request):
        # The answer's JSON document is never shown here.
        return (
            super().get_queryset(request).defer("answer__raw").annotate(claim_total=Count("claims"))
        )

    @admin.display(description="answer", ordering="answer__query_text")
    def answer_link(self, obj):
        return answer_admin_link(obj.answer)

    def get_inlines(self, request, obj):
        # Claim spans are checked against the answer's text, so the answer must be chosen first.
        return self.inlines if obj is not None else []

    def get_readonly_fields(self, request, obj=None):
        # A label's claim spans and texts belong to its answer, and its verdicts to its reviewer:
        # moving it would pin them on another text, or on someone who never gave them.
        fields = super().get_readonly_fields(request, obj)
        return [*fields, "answer", "reviewer"] if obj is not None else fields

    @admin.display(description="claims", ordering="claim_total")
    def claim_count(self, obj):
        return obj.claim_total

    def get_changeform_initial_data(self, request):
        return {"reviewer": request.user.pk, **super().get_changeform_initial_data(request)}


class AnswerVerdictFilter(admin.SimpleListFilter):
    title = "answer verdict (same reviewer)"
    parameter_name = "answer_verdict"

    def lookups(self, request, model_admin):
        return Verdict.choices

    def queryset(self, request, queryset):
        return queryset.filter(label__verdict=self.value()) if self.value() else queryset


class ClaimColumns:
    """The columns of a list of verdicts on claim spans (claim labels, settled verdicts)."""

    @admin.display(description="claim", ordering="claim_text")
    def claim(self, obj):
        return Truncator(obj.claim_text).chars(100) or "(empty span)"

    @admin.display(description="bytes", ordering="start_index")
    def span(self, obj):
        return f"[{obj.start_index}, {obj.end_index})"


@admin.register(ClaimLabel)
class ClaimLabelAdmin(ClaimColumns, admin.ModelAdmin):
    """Every claim verdict, to find and fix one; new ones are added on a label's page."""

    form = ClaimLabelForm
    list_display = ["pk", "span", "claim", "verdict", "reviewer", "answer_link"]
    list_display_links = ["pk", "claim"]
    list_filter = ["verdict", AnswerVerdictFilter, "label__reviewer"]
    list_select_related = ["label__reviewer", "label__answer"]
    search_fields = ["claim_text", "note", "label__answer__name", "label__reviewer__username"]
    fields = [
        "label",
        ("start_index", "end_index"),
        "claim_text",
        "verdict",
        "corrected_citations",
        "note",
    ]
    readonly_fields = ["label", "claim_text"]
    Media = GroundviewAdminMedia

    def has_add_permission(self, request):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).defer("label__answer__raw")

    @admin.display(description="reviewer", ordering="label__reviewer__username")
    def reviewer(self, obj):
        return obj.label.reviewer

    @admin.display(description="answer", ordering="label__answer__query_text")
    def answer_link(self, obj):
        return answer_admin_link(obj.label.answer)


@admin.register(Adjudication)
class AdjudicationAdmin(ClaimColumns, admin.ModelAdmin):
    """Settled verdicts, to find one and correct or delete it; they are settled on the
    Disagreements page, where the reviewers' verdicts stand beside them."""

    list_display = ["pk", "span", "claim", "verdict", "adjudicator", "answer_link", "updated_at"]
    list_display_links = ["pk", "claim"]
    list_filter = ["verdict", "adjudicator", "updated_at"]
    list_select_related = ["answer", "adjudicator"]
    search_fields = ["claim_text", "note", "answer__name", "adjudicator__username"]
    fields = [
        "answer",
        ("start_index", "end_index"),
        "claim_text",
        "verdict",
        "note",
        "adjudicator",
    ]
    readonly_fields = ["answer", "start_index", "end_index", "claim_text", "adjudicator"]
    formfield_overrides = SHORT_NOTES
    Media = GroundviewAdminMedia

    def has_add_permission(self, request):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).defer("answer__raw")

    @admin.display(description="answer", ordering="answer__query_text")
    def answer_link(self, obj):
        return answer_admin_link(obj.answer)


class AnswerLabelInlineForm(forms.ModelForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A saved label's verdicts are its reviewer's; the empty row still picks who gives one.
        if self.instance.pk:
            self.fields["reviewer"].disabled = True


class AnswerLabelInline(admin.TabularInline):
    model = AnswerLabel
    form = AnswerLabelInlineForm
    extra = 1
    formfield_overrides = SHORT_NOTES
    fields = ["reviewer", "verdict", "note", "claims_given", "updated_at"]
    readonly_fields = ["claims_given", "updated_at"]
    # Per-claim verdicts are shown above, side by side, and edited on the label's own page.
    show_change_link = True

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("claims")

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        formset.form.base_fields["reviewer"].initial = request.user.pk
        return formset

    @admin.display(description="claim verdicts")
    def claims_given(self, obj):
        return claims_summary(obj.claims.all()) if obj.pk else "–"


def claim_verdict_table(answer):
    """Every reviewer's verdict per claim span, side by side, and the settled one if any."""
    claims = list(
        ClaimLabel.objects.filter(label__answer=answer)
        .select_related("label__reviewer")
        .order_by("start_index", "end_index", "label__reviewer__username")
    )
    if not claims:
        url = reverse("review:answer_detail", args=[answer.pk])
        return format_html(
            'No claim verdicts yet: label the claims on <a href="{}">the review page</a>.', url
        )
    settled = {
        (a.start_index, a.end_index): a
        for a in Adjudication.objects.filter(answer=answer).select_related("adjudicator")
    }
    labels = {claim.label_id: claim.label for claim in claims}
    reviewers = sorted(labels.values(), key=lambda label: label.reviewer.get_username())
    rows = {}
    for claim in claims:
        rows.setdefault((claim.start_index, claim.end_index), {})[claim.label_id] = claim

    header = format_html_join(
        "",
        '<th scope="col"><a href="{}">{}</a></th>',
        (
            (reverse("admin:review_answerlabel_change", args=[label.pk]), label.reviewer)
            for label in reviewers
        ),
    )
    body = []
    for (start, end), given in rows.items():
        verdicts = {claim.verdict for claim in given.values()}
        text = next(iter(given.values())).claim_text
        cells = format_html_join(
            "",
            '<td class="gv-verdict gv-v-{}" title="{}">{}</td>',
            (
                (claim.verdict, claim.note, Verdict(claim.verdict).label)
                if (claim := given.get(label.pk))
                else ("none", "", "–")
                for label in reviewers
            ),
        )
        adjudication = settled.get((start, end))
        final = (
            format_html(
                '{} <span class="gv-by">({})</span>',
                Verdict(adjudication.verdict).label,
                adjudication.adjudicator,
            )
            if adjudication
            else "–"
        )
        body.append(
            format_html(
                '<tr class="{}"><td class="gv-span">[{}, {})</td><td class="gv-claim">{}</td>'
                "{}<td>{}</td><td>{}</td></tr>",
                "gv-differ" if len(verdicts) > 1 else "",
                start,
                end,
                text,
                cells,
                "differ" if len(verdicts) > 1 else "agree",
                final,
            )
        )
    return format_html(
        '<table class="gv-claim-verdicts"><thead><tr><th scope="col">bytes</th>'
        '<th scope="col">claim</th>{}<th scope="col">reviewers</th>'
        '<th scope="col">settled</th></tr></thead><tbody>{}</tbody></table>',
        header,
        format_html_join("", "{}", ((row,) for row in body)),
    )


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
            return queryset.alias(labels_given=count_of(AnswerLabel, "answer")).filter(
                labels_given__gte=2
            )
        return queryset


class VerdictActionForm(ActionForm):
    verdict = forms.ChoiceField(
        choices=[("", "verdict for “mark reviewed”…"), *Verdict.choices], required=False
    )


class PlainSkipReasonFilter(SkipReasonFilter):
    def lookups(self, request, model_admin):
        return [
            (value, label if value == "none" else plain(value))
            for value, label in super().lookups(request, model_admin)
        ]


admin.site.unregister(Answer)


@admin.register(Answer)
class LabellingAnswerAdmin(AnswerAdmin):
    inlines = [AnswerLabelInline, *AnswerAdmin.inlines]
    list_filter = [
        *(PlainSkipReasonFilter if f is SkipReasonFilter else f for f in AnswerAdmin.list_filter),
        LabelStatusFilter,
        AnswerClaimVerdictFilter,
    ]
    fieldsets = [
        AnswerAdmin.fieldsets[0],
        ("Claim verdicts", {"fields": ["claim_verdicts"]}),
        *AnswerAdmin.fieldsets[1:],
    ]
    readonly_fields = [*AnswerAdmin.readonly_fields, "claim_verdicts"]
    list_display = [*AnswerAdmin.list_display, "label_count"]
    actions = [*AnswerAdmin.actions, "mark_reviewed"]
    action_form = VerdictActionForm

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(label_total=count_of(AnswerLabel, "answer"))

    @admin.display(description="labels", ordering="label_total")
    def label_count(self, obj):
        return obj.label_total

    @admin.display(description="by reviewer")
    def claim_verdicts(self, obj):
        return claim_verdict_table(obj)

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
        marked, refused = 0, []
        for answer in queryset.exclude(pk__in=already):
            try:
                save_label(answer, request.user, verdict=verdict, note="marked reviewed in admin")
            except LabelError as error:
                # An answer still being generated cannot be labelled; the rest still are.
                refused.append(f"{answer.name}: {error.message}")
                continue
            marked += 1
        message = f"Marked {marked} answer(s) reviewed as “{Verdict(verdict).label}”."
        if already:
            message += f" {len(already)} already had your label and were left as they were."
        self.message_user(request, message, messages.SUCCESS)
        if refused:
            self.message_user(request, f"Not marked: {'; '.join(refused[:10])}", messages.WARNING)
